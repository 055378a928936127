// Which cards a browser test checks when it does not check them all: the ones most likely to
// overflow (the template is the same for every card; its text is what can push one past 320x280),
// then an even spread of the rest, `max` in all.
export function worstThenSpread<T>(all: readonly T[], worst: readonly T[], max: number, key: (x: T) => string): T[] {
  if (all.length <= max) return [...all];
  const chosen = new Map(worst.map((x) => [key(x), x]));
  const rest = all.filter((x) => !chosen.has(key(x)));
  const n = Math.max(0, max - chosen.size);
  const step = rest.length / n;
  return [...chosen.values(), ...Array.from({ length: n }, (_, i) => rest[Math.floor(i * step)]!)];
}
