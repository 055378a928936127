import { describe, expect, it } from 'vitest';
import { intFromFloat, numOrNull, trueOrBlank, wage, yesNo } from '../../../../build/sources/cells.ts';

describe('wage cells', () => {
  it("turns BLS markers into explicit flags: '#' top-coded, '*' and '**' not available", () => {
    expect(wage.parse('#')).toEqual({ value: null, flag: 'top_coded' });
    expect(wage.parse('*')).toEqual({ value: null, flag: 'not_available' });
    expect(wage.parse('**')).toEqual({ value: null, flag: 'not_available' });
    expect(wage.parse('132270')).toEqual({ value: 132270, flag: null });
  });

  it('reads the EP ceiling ">=$239,200" as a top-coded floor and rejects text', () => {
    expect(wage.parse('>=$239,200')).toEqual({ value: 239200, flag: 'top_coded' });
    expect(wage.safeParse('n.a.').success).toBe(false);
  });
});

describe('other cells', () => {
  it('parses pandas float IDs as integers and refuses fractions', () => {
    expect(intFromFloat.parse('8823.0')).toBe(8823);
    expect(intFromFloat.safeParse('8823.5').success).toBe(false);
  });

  it('maps markers and blanks to null only where allowed', () => {
    const emp = numOrNull(['**']);
    expect(emp.parse('**')).toBeNull();
    expect(emp.parse('')).toBeNull();
    expect(emp.parse('1,409,960')).toBe(1409960);
    expect(emp.safeParse('abc').success).toBe(false);
  });

  it('reads O*NET Y/N/n/a and OEWS TRUE/blank flags', () => {
    expect([yesNo.parse('Y'), yesNo.parse('N'), yesNo.parse('n/a'), yesNo.parse('')]).toEqual([true, false, false, false]);
    expect(yesNo.safeParse('maybe').success).toBe(false);
    expect([trueOrBlank.parse('TRUE'), trueOrBlank.parse('')]).toEqual([true, false]);
  });
});
