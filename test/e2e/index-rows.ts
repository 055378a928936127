// Reads the /embed/ index page back into rows (the occupations' cards), so the browser test covers exactly the cards the
// site lists.
import { attr, tokenize } from '../unit/build/emit/html-tokens.ts';

export interface IndexRow {
  slug: string;
  title: string;
  score: string;
  tierWords: string;
}

export function parseIndex(html: string): IndexRow[] {
  const rows: IndexRow[] = [];
  let cells: string[] | null = null;
  let slug = '';
  for (const t of tokenize(html)) {
    if (t.kind === 'start' && t.name === 'tr') {
      cells = [];
      slug = '';
    } else if (t.kind === 'start' && t.name === 'td' && cells) cells.push('');
    // The ISCO-08 cards (/embed/isco/...) are listed after the occupations' and read elsewhere (isco-card.test.ts).
    else if (t.kind === 'start' && t.name === 'a' && cells && !slug && (attr(t, 'href') ?? '').startsWith('/embed/') && !(attr(t, 'href') ?? '').startsWith('/embed/isco/')) slug = attr(t, 'href')!.replace(/^\/embed\//, '');
    else if (t.kind === 'text' && cells && cells.length > 0) cells[cells.length - 1] += t.text;
    else if (t.kind === 'end' && t.name === 'tr' && cells) {
      if (slug && cells.length >= 3) rows.push({ slug, title: cells[0]!, score: cells[1]!, tierWords: cells[2]! });
      cells = null;
    }
  }
  return rows;
}
