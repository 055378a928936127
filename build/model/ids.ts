// Stable identifiers of occupations and industries. Ids must not change between builds, so
// they derive from official codes, never from list positions.
import { foldWords } from './text.ts';

/** O*NET-SOC code as O*NET writes it: 15-1252.00. */
export const ONET_SOC_PATTERN = /^\d{2}-\d{4}\.\d{2}$/;

/** 15-1252.00 -> 15125200: the SOC digits as an integer. */
export function occupationId(socCode: string): number {
  return Number(socCode.replace(/\D/g, ''));
}

/** '31-33' -> 31, '5415' -> 5415: the NAICS code's leading digits. */
export function industryId(naicsCode: string): number {
  return Number(/^\d+/.exec(naicsCode)?.[0] ?? '0');
}

/** Lowercase ASCII; accents folded; every run of other characters becomes one '-'. */
export function slugify(text: string): string {
  return foldWords(text, '-');
}

/**
 * Slug per occupation: the slugified title; where several occupations share it, every one of
 * them gets its SOC code appended (so no slug depends on which occupation came first).
 */
export function assignSlugs(items: ReadonlyArray<{ soc_code: string; title: string }>): Map<string, string> {
  const byBase = new Map<string, string[]>();
  for (const it of items) {
    const base = slugify(it.title) || 'occupation';
    byBase.set(base, [...(byBase.get(base) ?? []), it.soc_code]);
  }
  const out = new Map<string, string>();
  for (const [base, codes] of byBase) {
    for (const code of codes) out.set(code, codes.length === 1 ? base : `${base}-${slugify(code)}`);
  }
  return out;
}
