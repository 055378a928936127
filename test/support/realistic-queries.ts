// Distinct realistic search queries generated from occupation titles (plurals, prefixes, typos),
// deterministic: for the bench's first-seen query CPU and the search work budget test. Unlike
// search-queries.ts these have no expected answer; they stand for the long tail of what people type.
import { prng as random } from '../../build/model/num.ts';

/**
 * Distinct queries as people type them, from the occupations' titles: a title's first words, its
 * main word in the plural, a prefix of it, and one typo (a letter dropped, doubled, swapped with
 * its neighbour or replaced), deterministic.
 */
export function realisticQueries(titles: string[], atLeast = 1000): string[] {
  const rnd = random(33);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const typo = (w: string) => typoOf(w, rnd);
  const out = new Set<string>();
  const words = titleWords(titles);
  for (let round = 0; out.size < atLeast && round < 50; round++) {
    for (const ws of words) {
      if (ws.length === 0) continue;
      const two = ws.slice(0, Math.min(ws.length, 1 + Math.floor(rnd() * 2)));
      const last = two.length - 1;
      const forms = [
        two.join(' '),
        [...two.slice(0, last), `${two[last]}s`].join(' '),
        two.length > 1 ? `${two[0]} ${two[1]!.slice(0, 3 + Math.floor(rnd() * 3))}` : two[0]!.slice(0, 3 + Math.floor(rnd() * 4)),
        two.map((w, i) => (i === Math.floor(rnd() * two.length) ? typo(w) : w)).join(' '),
        pick(ws),
        typo(pick(ws)),
      ];
      out.add(forms[(round + Math.floor(rnd() * forms.length)) % forms.length]!);
      if (out.size >= atLeast * 1.2) break;
    }
  }
  return [...out].sort();
}


const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A title's words as people type them: lower case, letters and digits, no filler words. */
const titleWords = (titles: string[]): string[][] =>
  titles.map((t) => t.toLowerCase().replace(/[^a-z0-9 ]+/g, ' ').split(/\s+/).filter((w) => w.length > 2 && !['and', 'the', 'all', 'other', 'except'].includes(w)));

/** One typo in a word of 4 letters or more (a letter after the first dropped, doubled or replaced, or swapped with the one before it); shorter words as they are. */
function typoOf(w: string, rnd: () => number): string {
  if (w.length < 4) return w;
  const i = 1 + Math.floor(rnd() * (w.length - 2));
  switch (Math.floor(rnd() * 4)) {
    case 0: return w.slice(0, i) + w.slice(i + 1);
    case 1: return w.slice(0, i) + w[i] + w.slice(i);
    case 2: return w.slice(0, i - 1) + w[i] + w[i - 1] + w.slice(i + 1);
    default: return w.slice(0, i) + LETTERS[Math.floor(rnd() * LETTERS.length)] + w.slice(i + 1);
  }
}

/**
 * Distinct misspelled queries, deterministic: a title's word of 4 letters or more with one typo
 * (two in one of 8 or more, every third time), alone or before the title's next word. Every query
 * holds a word that is not as the titles spell it, so each one takes the typo path.
 */
export function typoQueries(titles: string[], count = 1000): string[] {
  const rnd = random(45);
  const out = new Set<string>();
  const words = titleWords(titles);
  for (let round = 0; out.size < count && round < 50; round++) {
    for (const ws of words) {
      const at = Math.floor(rnd() * ws.length);
      const w = ws[at];
      if (w === undefined || w.length < 4) continue;
      let t = typoOf(w, rnd);
      if (w.length >= 8 && rnd() < 1 / 3) t = typoOf(t, rnd);
      if (t === w) continue;
      out.add(rnd() < 0.5 && at + 1 < ws.length ? `${t} ${ws[at + 1]}` : t);
      if (out.size >= count) break;
    }
  }
  return [...out].sort();
}
