// "Cite this" for the home, docs and downloads pages, from CITATION.cff: the one place the
// citation is written, read at build time. Only the fields a citation needs are read (top-level
// scalars, the authors, the data reference), line by line: the file is ours and plain, and a
// field missing fails the build rather than printing a citation without it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../repo-root.ts';
import { EXAMPLE_ORIGIN, originMarked } from './example-origin.ts';

export const CITATION_PATH = join(REPO_ROOT, 'CITATION.cff');

export interface CffCitation {
  title: string;
  version: string;
  authors: string[];
  /** The data set's own entry under `references` (type: data). */
  data: { title: string; version: string };
}

const unquote = (v: string) => v.trim().replace(/^"(.*)"$/, '$1');

/** An author entry's printed name: `name`, or "Family, G." from family-names and given-names. */
function authorName(fields: Record<string, string>): string | null {
  if (fields.name) return fields.name;
  if (fields['family-names']) return `${fields['family-names']}${fields['given-names'] ? `, ${fields['given-names'].charAt(0)}.` : ''}`;
  return null;
}

/** List items (`- key: value` and the `key: value` lines under them) of the block indented under a key. */
function listItems(lines: string[], indent: number): Array<Record<string, string>> {
  const items: Array<Record<string, string>> = [];
  const pad = ' '.repeat(indent);
  for (const line of lines) {
    if (line.startsWith(`${pad}- `)) items.push({});
    else if (!line.startsWith(`${pad}  `) || line.slice(indent + 2).startsWith(' ')) continue;
    const m = /^([a-z-]+):\s*(.*)$/.exec(line.slice(indent + 2));
    if (m && m[2] !== '' && items.length) items[items.length - 1]![m[1]!] = unquote(m[2]!);
  }
  return items;
}

/** Lines of a top-level key's block (the lines after `key:` up to the next top-level line). */
function block(lines: string[], key: string): string[] {
  const start = lines.findIndex((l) => l === `${key}:`);
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && /^[^\s#]/.test(l));
  return lines.slice(start + 1, end < 0 ? lines.length : end);
}

/** The fields of a CFF 1.2.0 file a citation prints; throws naming the first one missing. */
export function parseCff(text: string): CffCitation {
  const lines = text.split(/\r?\n/);
  const top = (key: string) => {
    const line = lines.find((l) => l.startsWith(`${key}:`));
    const v = line ? unquote(line.slice(key.length + 1)) : '';
    if (!v) throw new Error(`CITATION.cff has no "${key}"`);
    return v;
  };
  const authors = listItems(block(lines, 'authors'), 2).map(authorName).filter((a): a is string => a !== null);
  if (!authors.length) throw new Error('CITATION.cff has no authors');
  // The references' own nested authors are indented further and so are not read as their fields.
  const data = listItems(block(lines, 'references'), 2).find((r) => r.type === 'data');
  if (!data?.title || !data.version) throw new Error('CITATION.cff has no reference of type data with a title and version');
  return { title: top('title'), version: top('version'), authors, data: { title: data.title, version: data.version } };
}

export interface CiteView {
  /** BibTeX and APA-style text as escaped HTML, the site's address marked for the script to put the page's own origin in. */
  bibtexHtml: string;
  apaHtml: string;
}

/** BibTeX and APA-style citations of the data set (the software named in it), as plain text. */
export function citeText(c: CffCitation, origin: string = EXAMPLE_ORIGIN): { bibtex: string; apa: string } {
  const key = `odr_${c.data.version.replace(/[^a-z0-9]+/gi, '_')}`;
  const bibtex = [
    `@misc{${key},`,
    `  author = {{${c.authors.join('} and {')}}},`,
    `  title = {{${c.data.title}}},`,
    `  version = {${c.data.version}},`,
    `  note = {Published by the ${c.title}, version ${c.version}},`,
    `  url = {${origin}/},`,
    `}`,
  ].join('\n');
  const apa = `${c.authors.join(', ')}. (n.d.). ${c.data.title} (Version ${c.data.version}) [Data set]. ${c.title}, version ${c.version}. ${origin}/`;
  return { bibtex, apa };
}

let cached: CiteView | null = null;

/** The citation of this repository's CITATION.cff, read once per build process. */
export function citeView(): CiteView {
  if (!cached) {
    const { bibtex, apa } = citeText(parseCff(readFileSync(CITATION_PATH, 'utf8')));
    cached = { bibtexHtml: originMarked(bibtex), apaHtml: originMarked(apa) };
  }
  return cached;
}
