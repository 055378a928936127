// The origin the pages' snippets name before their script runs, and its marking for the script.

/**
 * The origin the snippets show without script: where `npm start` serves. The pages' script puts the
 * page's own origin in its place (every `[data-origin]` element), so a snippet copied from a
 * deployed site names that site.
 */
export const EXAMPLE_ORIGIN = 'http://127.0.0.1:8080';

/** Escaped text for HTML with the example origin marked for the script to replace. */
export function originMarked(text: string): string {
  const esc = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  return esc.split(EXAMPLE_ORIGIN).join(`<span data-origin>${EXAMPLE_ORIGIN}</span>`);
}
