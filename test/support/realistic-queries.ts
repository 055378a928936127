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
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const typo = (w: string): string => {
    if (w.length < 4) return w;
    const i = 1 + Math.floor(rnd() * (w.length - 2));
    switch (Math.floor(rnd() * 4)) {
      case 0: return w.slice(0, i) + w.slice(i + 1);
      case 1: return w.slice(0, i) + w[i] + w.slice(i);
      case 2: return w.slice(0, i - 1) + w[i] + w[i - 1] + w.slice(i + 1);
      default: return w.slice(0, i) + pick([...letters]) + w.slice(i + 1);
    }
  };
  const out = new Set<string>();
  const words = titles.map((t) => t.toLowerCase().replace(/[^a-z0-9 ]+/g, ' ').split(/\s+/).filter((w) => w.length > 2 && !['and', 'the', 'all', 'other', 'except'].includes(w)));
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

