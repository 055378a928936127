// Text folding shared by slugs and search, so a title slugs and matches the same way.

/** Lower-case ASCII words: accents folded, every run of other characters becomes `sep`. */
export function foldWords(text: string, sep: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  return words.join(sep);
}

/**
 * Code-unit order. Never String#localeCompare in the build: it follows the machine's locale,
 * and the same sources must give byte-identical output everywhere.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
