import { describe, expect, it } from 'vitest';
import { buildSearchIndex, normalize, searchOccupations } from '../../../build/model/search.ts';

const records = [
  { soc_code: '11-0000.00', title: 'Computer Numerically Controlled Tool Programmers' },
  { soc_code: '22-0000.00', title: 'Computer Programmers' },
  { soc_code: '33-0000.00', title: 'Programmers' },
  { soc_code: '44-0000.00', title: 'Registered Nurses' },
  { soc_code: '55-0000.00', title: 'Nurse Practitioners' },
  { soc_code: '66-0000.00', title: 'Cashiers' },
  { soc_code: '77-0000.00', title: 'Gambling Change Persons and Booth Cashiers' },
];
const titles = [
  { soc_code: '44-0000.00', title: 'Registered Nurse (RN)', short_title: 'RN' },
  { soc_code: '44-0000.00', title: 'Staff RN', short_title: null },
  { soc_code: '55-0000.00', title: 'Nurse Practitioner RN', short_title: null },
  { soc_code: '66-0000.00', title: 'Checker', short_title: null },
];
const index = buildSearchIndex(records, titles);
const find = (q: string) => searchOccupations(index, q).map((i) => records[i]!.title);

describe('search ranking', () => {
  it('normalizes case, punctuation and accents', () => {
    expect(normalize('  Café (RN)-Staff ')).toBe('cafe rn staff');
  });
  it('exact title beats prefix beats word prefix', () => {
    expect(find('programmers')).toEqual(['Programmers', 'Computer Programmers', 'Computer Numerically Controlled Tool Programmers']);
  });
  it('among word-prefix matches the shorter title wins', () => {
    expect(find('programmer')[1]).toBe('Computer Programmers');
  });
  it('title matches rank above alternate-title matches', () => {
    expect(find('nurse')).toEqual(['Nurse Practitioners', 'Registered Nurses']);
  });
  it('an exact alternate title finds the occupation; more hits rank first', () => {
    expect(find('RN')).toEqual(['Registered Nurses', 'Nurse Practitioners']);
    expect(find('checker')).toEqual(['Cashiers']);
  });
  it('is case-insensitive and needs every word', () => {
    expect(find('CASHIER')).toEqual(['Cashiers', 'Gambling Change Persons and Booth Cashiers']);
    expect(find('booth cash')).toEqual(['Gambling Change Persons and Booth Cashiers']);
    expect(find('zebra')).toEqual([]);
    expect(find('  ')).toEqual([]);
  });
});
