// zod schemas for single cells (trimmed strings) that turn them into typed values. Row schemas
// in the loaders combine these, so every rule about blanks and BLS markers lives here once.
import { z } from 'zod';
import type { WageCell } from '../model/inputs.ts';

const isNumber = (s: string) => s !== '' && Number.isFinite(Number(s.replace(/,/g, '')));
const toNumber = (s: string) => Number(s.replace(/,/g, ''));

export const text = z.string();
export const required = z.string().min(1, 'is blank');

export const int = z
  .string()
  .regex(/^-?\d+$/, 'is not an integer')
  .transform(Number);

/** Integer written as a float by pandas ("8823.0"). */
export const intFromFloat = z
  .string()
  .regex(/^\d+(\.0+)?$/, 'is not an integer')
  .transform((s) => Number.parseInt(s, 10));

export const num = z.string().refine(isNumber, 'is not a number').transform(toNumber);

/** A number, or null for a blank cell or one of the given "no data" markers. */
export function numOrNull(markers: string[] = []) {
  return z
    .string()
    .refine((s) => s === '' || markers.includes(s) || isNumber(s), 'is not a number')
    .transform((s) => (s === '' || markers.includes(s) ? null : toNumber(s)));
}

/** Blank -> 0: the AEI collaboration extracts leave a pattern blank when it is absent. */
export const shareOrZero = z
  .string()
  .refine((s) => s === '' || isNumber(s), 'is not a number')
  .transform((s) => (s === '' ? 0 : toNumber(s)));

/** O*NET Y/N flags; blank or "n/a" (Not Relevant on IM rows in the text files) = not flagged. */
export const yesNo = z
  .string()
  .refine((s) => s === '' || s === 'Y' || s === 'N' || s === 'n/a', 'is not Y/N')
  .transform((s) => s === 'Y');

/** OEWS ANNUAL / HOURLY: TRUE or blank. */
export const trueOrBlank = z
  .string()
  .refine((s) => s === '' || /^true$/i.test(s) || /^false$/i.test(s), 'is not TRUE/blank')
  .transform((s) => /^true$/i.test(s));

/**
 * OEWS wage cell. '#' = at or above the published ceiling (top-coded); '*' = not available;
 * '**' = estimate not released. Both unavailable markers become flag 'not_available'.
 * EP writes the ceiling as ">=$239,200": kept as that floor value with flag 'top_coded'.
 */
export const wage = z
  .string()
  .refine(
    (s) => ['', '#', '*', '**', '—', '-'].includes(s) || isNumber(s.replace(/^>=\s*\$?/, '').replace(/^\$/, '')),
    'is not a wage',
  )
  .transform((s): WageCell => {
    if (s === '#') return { value: null, flag: 'top_coded' };
    if (['', '*', '**', '—', '-'].includes(s)) return { value: null, flag: 'not_available' };
    if (s.startsWith('>=')) return { value: toNumber(s.replace(/^>=\s*\$?/, '')), flag: 'top_coded' };
    return { value: toNumber(s.replace(/^\$/, '')), flag: null };
  });

/** An enum cell where blank means "not given". */
export function enumOrNull<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.literal('').transform(() => null), z.enum(values)]);
}
