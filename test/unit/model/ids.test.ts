import { describe, expect, it } from 'vitest';
import { assignSlugs, industryId, occupationId, slugify } from '../../../build/model/ids.ts';

describe('ids and slugs', () => {
  it('uses the SOC digits as the id', () => {
    expect(occupationId('15-1252.00')).toBe(15125200);
    expect(industryId('31-33')).toBe(31);
    expect(industryId('5415')).toBe(5415);
  });

  it('slugifies to lowercase ASCII with single dashes', () => {
    expect(slugify('Nurse Practitioners')).toBe('nurse-practitioners');
    expect(slugify('Word Processors and Typists ')).toBe('word-processors-and-typists');
    expect(slugify('Café Cooks, Fast-Food & Grill')).toBe('cafe-cooks-fast-food-grill');
  });

  it('appends the SOC code to every occupation of a colliding title, and only then', () => {
    const s = assignSlugs([
      { soc_code: '11-1111.00', title: 'Clerks of Things' },
      { soc_code: '11-1111.01', title: 'Clerks of Things' },
      { soc_code: '22-2222.00', title: 'Hand Fixers' },
    ]);
    expect(s.get('11-1111.00')).toBe('clerks-of-things-11-1111-00');
    expect(s.get('11-1111.01')).toBe('clerks-of-things-11-1111-01');
    expect(s.get('22-2222.00')).toBe('hand-fixers');
  });
});
