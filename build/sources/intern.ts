// Parsed rows repeat a few short strings (SOC codes, element ids and names, scale ids, dates) tens
// of thousands of times. A row that crosses from a parsing thread arrives with its own copy of each
// (structured clone copies strings by value), as does a row split from text. Walking each file's
// rows once and keeping one string per distinct value shrinks the parsed sources' heap, the part
// of the build's memory peak that the build itself holds.
import { isPlain } from './sliced-message.ts';

/** Longer strings (task statements, descriptions) are nearly all distinct: not worth a table entry. */
const MAX_LENGTH = 80;

/**
 * An interner for one load: `intern(value)` replaces, in place, every short string inside arrays and
 * plain objects by the first equal string it has seen, and returns `value`. Other objects (Dates)
 * are left as they are.
 */
export function interner(): <T>(value: T) => T {
  const seen = new Map<string, string>();
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (v.length > MAX_LENGTH) return v;
      const s = seen.get(v);
      if (s !== undefined) return s;
      seen.set(v, v);
      return v;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = visit(v[i]);
    } else if (isPlain(v)) {
      for (const k in v) v[k] = visit(v[k]);
    }
    return v;
  };
  return <T>(value: T) => visit(value) as T;
}
