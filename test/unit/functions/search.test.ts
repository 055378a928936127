import { describe, expect, it } from 'vitest';
import { buildSearchIndex } from '../../../build/search-index.ts';
import { editDistance, ownTitleHolds, searchOccupations, searchUnscored, searchWork, suggestOccupations, unscoredTitleHolds, unscoredTitlesMayHold } from '../../../functions/search-query.ts';
import { TYPO_DISTANCE_BUDGET } from '../../../build/contract/limits.ts';
import { nameLength, normalize, occupationsHolding, ownerOf, postingsOf, stem, takeMissing, vocabulary, wordCount, wordLength, wordPositions, wordStart, words, type SearchIndex } from '../../../build/contract/search-words.ts';
import { pack, packedLength, packedProblem, packWidth, POSTING_BUCKET_WORDS, unpackAll, unpackAt, unpackDigitsInto, WORD_AT_STEP } from '../../../build/contract/search-pack.ts';

// Hand-written occupations in the shape the build hands over: titles, OEWS employment and code.
const occ = (soc_code: string, title: string, employment: number | null, oews_code: string | null = soc_code.slice(0, 7)) => ({
  soc_code,
  title,
  labor_data: { employment, oews_code },
});
const records = [
  occ('11-0000.00', 'Computer Numerically Controlled Tool Programmers', 30_000),
  occ('22-0000.00', 'Computer Programmers', 120_000),
  occ('33-0000.00', 'Registered Nurses', 3_000_000, '33-0000'),
  occ('33-0000.01', 'Acute Care Nurses', 3_000_000, '33-0000'),
  occ('44-0000.00', 'Nurse Practitioners', 300_000),
  occ('55-0000.00', 'Cashiers', 3_000_000),
  occ('66-0000.00', 'Gambling Change Persons and Booth Cashiers', 20_000),
  occ('77-0000.00', 'Law Teachers, Postsecondary', 15_000),
  occ('88-0000.00', 'Elementary School Teachers, Except Special Education', 1_400_000),
  occ('99-0000.00', 'Firefighters', 330_000),
  occ('99-1000.00', 'Secretaries and Administrative Assistants', null, null),
  occ('13-2000.00', 'Financial Managers', 800_000),
  occ('13-1000.00', 'General and Operations Managers', 3_500_000),
  occ('23-1000.00', 'Lawyers', 800_000),
  occ('15-1000.00', 'Information Security Analysts', 180_000),
  occ('37-3013.00', 'Tree Trimmers and Pruners', 45_000),
  occ('53-7062.00', 'Laborers and Freight, Stock, and Material Movers, Hand', 3_000_000),
];
const titles = [
  { soc_code: '33-0000.00', title: 'Registered Nurse (RN)', short_title: 'RN' },
  { soc_code: '33-0000.00', title: 'Staff RN', short_title: null },
  { soc_code: '33-0000.00', title: 'Nurse', short_title: null },
  { soc_code: '33-0000.01', title: 'Nurse', short_title: null },
  { soc_code: '44-0000.00', title: 'Nurse Practitioner RN', short_title: null },
  { soc_code: '55-0000.00', title: 'Checker', short_title: null },
  { soc_code: '77-0000.00', title: 'Teacher', short_title: null },
  { soc_code: '88-0000.00', title: 'Teacher', short_title: null },
  { soc_code: '88-0000.00', title: 'Elementary Teacher', short_title: null },
  { soc_code: '00-0000.00', title: 'Not an occupation we list', short_title: null },
  ...['Attorney', 'Counsel', 'Litigator', 'Trial Lawyer', 'Corporate Counsel', 'Legal Counsel', 'Public Defender', 'Cybersecurity Lawyer'].map((title) => ({ soc_code: '23-1000.00', title, short_title: null })),
  ...['Cybersecurity Analyst', 'Cybersecurity Engineer', 'Cybersecurity Specialist', 'IT Security Analyst'].map((title) => ({ soc_code: '15-1000.00', title, short_title: null })),
  ...['Tree Mover', 'Mover', 'Stock Handler', 'Freight Handler'].map((title) => ({ soc_code: '53-7062.00', title, short_title: null })),
];
const index = buildSearchIndex(records, titles);
const find = (q: string) => searchOccupations(index, q).map((i) => records[i]!.title);

describe('search text', () => {
  it('normalizes case, punctuation and accents', () => {
    expect(normalize('  Café (RN)-Staff ')).toBe('cafe rn staff');
  });
  it('stems plurals to the same word as the singular', () => {
    for (const [a, b] of [['nurses', 'nurse'], ['secretaries', 'secretary'], ['waitresses', 'waitress'], ['coaches', 'coach'], ['cashiers', 'cashier']]) expect(stem(a!)).toBe(stem(b!));
    expect(stem('bus')).toBe('bus');
    expect(stem('analysis')).toBe('analysis');
  });
  it('counts a swap of neighbours as one edit and stops past the bound', () => {
    expect(editDistance('nurse', 'nurce', 1)).toBe(1);
    expect(editDistance('casheir', 'cashier', 1)).toBe(1);
    expect(editDistance('kitten', 'sitting', 2)).toBe(3);
    expect(editDistance('abc', 'abcdef', 1)).toBe(2);
    // A word read in place from a longer string (the vocabulary joined by spaces).
    expect(editDistance('nurse', 'cashier nurce teacher', 1, 8, 5)).toBe(1);
    expect(editDistance('nurse', 'cashier nurce teacher', 1, 0, 7)).toBe(2);
  });
});

describe('packed numbers', () => {
  it('lists where each vocabulary word starts, and one past the end of the last plus one', () => {
    const at = (vocab: string[]) => ({ vocab: vocab.join(' '), ...wordPositions(vocab, 2), width: 2 });
    expect(wordCount(at([]))).toBe(0);
    expect([0, 1].map((k) => wordStart(at(['a']), k))).toEqual([0, 2]);
    expect([0, 1, 2, 3].map((k) => wordStart(at(['a', 'bb', 'ccc']), k))).toEqual([0, 2, 5, 9]);
    expect(wordCount(at(['a', 'bb', 'ccc']))).toBe(3);
    // Past the listed starts (every WORD_AT_STEP-th word), a start is the lengths added.
    const many = Array.from({ length: 3 * WORD_AT_STEP + 1 }, (_, k) => `w${k}`);
    const text = many.join(' ');
    const ix = at(many);
    expect(many.map((_, k) => text.slice(wordStart(ix, k), wordStart(ix, k) + wordLength(ix, k)))).toEqual(many);
    expect(many.map((_, k) => text[wordStart(ix, k) - 1] ?? ' ')).toEqual(many.map(() => ' '));
    expect(wordStart(ix, many.length)).toBe(text.length + 1);
  });
  it('reads back every number it writes, at any width', () => {
    for (const [numbers, width] of [[[0, 1, 63], 1], [[0, 64, 4095, 17], 2], [[262143, 0, 70000], 3]] as const) {
      const packed = pack(numbers, width);
      expect(packed).toMatch(/^[-0-9A-Za-z_]*$/);
      expect(packedLength(packed, width)).toBe(numbers.length);
      expect(numbers.map((_, i) => unpackAt(packed, width, i))).toEqual(numbers);
      expect([...unpackAll(packed, width, numbers.length)]).toEqual(numbers);
      expect([...unpackAll(packed, width, numbers.length - 1, 1)]).toEqual(numbers.slice(1));
    }
    expect(packWidth(63)).toBe(1);
    expect(packWidth(64)).toBe(2);
    expect(() => pack([64], 1)).toThrow(/cannot pack 64/);
    expect(unpackAt('a"', 2, 0)).toBe(-1);
    expect([...unpackAll('-0a"--', 2, 3)]).toEqual([1, -1, 0]);
    // One digit each, from the second, written at each key's place.
    const into = new Int32Array(6);
    unpackDigitsInto(pack([9, 3, 7, 5], 1), 1, Int32Array.from([4, 0, 2]), into);
    expect([...into]).toEqual([7, 0, 5, 0, 3, 0]);
  });
  it('finds a damaged index', () => {
    expect(packedProblem({ ...index, postings: [...index.postings, ''] })).toMatch(/postings and vocab/);
    expect(packedProblem({ ...index, vocab: [...vocabulary(index)].reverse().join(' ') })).toMatch(/vocab 1 is empty or not after/);
    expect(packedProblem({ ...index, vocab: ` ${index.vocab}` })).toMatch(/vocab 0 is empty/);
    expect(packedProblem({ ...index, postings: [] }, true)).toBeNull();
    // A name's length (the digits after a bucket's lists) 0, or not the same everywhere the name is listed.
    const last = index.postings[0]!.length - 1;
    expect(packedProblem({ ...index, postings: [index.postings[0]!.slice(0, last) + '-', ...index.postings.slice(1)] })).toMatch(/length is not a positive count or not the same/);
    const lengthsOf = (p: string) => p.slice(p.length - (p.length - Math.min(vocabulary(index).length, POSTING_BUCKET_WORDS) * index.width) / (index.width + 1));
    const first = lengthsOf(index.postings[0]!);
    const changed = first.replace(/./, (d) => (d === '1' ? '2' : '1'));
    expect(packedProblem({ ...index, postings: [index.postings[0]!.slice(0, -first.length) + changed, ...index.postings.slice(1)] })).toMatch(/length is not a positive count or not the same/);
    expect(packedProblem({ ...index, alt_end: index.alt_end.slice(1) })).toMatch(/alt_end and prior/);
    expect(packedProblem({ ...index, word_at: index.word_at.slice(index.width) })).toMatch(/word_at and vocab disagree/);
    expect(packedProblem({ ...index, word_at: pack([1], index.width) + index.word_at.slice(index.width) })).toMatch(/word_at 0 is not where word 0 begins/);
    expect(packedProblem({ ...index, word_len: index.word_len.slice(1) })).toMatch(/word_len and vocab disagree/);
    expect(packedProblem({ ...index, word_len: (index.word_len[0] === '1' ? '2' : '1') + index.word_len.slice(1) })).toMatch(/word_len 0 is not word 0's length/);
    const bucket = index.postings[0]!;
    const words = Math.min(vocabulary(index).length, POSTING_BUCKET_WORDS) * index.width;
    const outOfRange = bucket.slice(0, words) + 'z'.repeat(index.width) + bucket.slice(words + index.width);
    expect(packedProblem({ ...index, postings: [outOfRange, ...index.postings.slice(1)] })).toMatch(/word 0: name ids not ascending or out of range/);
    const ids = Array.from({ length: vocabulary(index).length }, (_, j) => unpackAt(index.by_length, index.width, j));
    expect(new Set(ids).size).toBe(vocabulary(index).length);
    expect(packedProblem({ ...index, by_length: pack([...ids].reverse(), index.width) })).toMatch(/by_length \d+ is out of order/);
    expect(packedProblem({ ...index, by_length: pack([ids[0]!, ...ids.slice(0, -1)], index.width) })).toMatch(/repeated/);
  });
  it('lists the vocabulary by word length, shortest first, so a typo scan reads only the near lengths', () => {
    const lengths = Array.from({ length: vocabulary(index).length }, (_, j) => vocabulary(index)[unpackAt(index.by_length, index.width, j)]!.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    expect(lengths[0]).toBeLessThan(lengths.at(-1)!);
  });
});

describe('the typo scan within its budget', () => {
  // 3,000 words of one length and one letter set: the letter-set filter lets every one through.
  const perms: string[] = [];
  const permute = (rest: string, done: string) => {
    if (perms.length === 3000) return;
    if (!rest) perms.push(done);
    for (let i = 0; i < rest.length; i++) permute(rest.slice(0, i) + rest.slice(i + 1), done + rest[i]);
  };
  permute('abcdefgh', '');
  const many = perms.map((w, i) => occ(`11-${String(1000 + i).padStart(4, '0')}.00`, w, 1000 + i));
  const ix = buildSearchIndex(many, []);
  const distances = (q: string) => {
    const before = searchWork.distances;
    const found = searchOccupations(ix, q);
    return { used: searchWork.distances - before, found };
  };
  it('stops at the budget however many words a query has, and still finds the typo a word makes', () => {
    expect(perms).toHaveLength(3000);
    expect(distances('hgfedcbx').used).toBe(TYPO_DISTANCE_BUDGET);
    expect(distances('hgfedcbx hgfedcxa hgfedxba hgfexcba').used).toBe(TYPO_DISTANCE_BUDGET);
    // One substitution away from the first word: its own length is scanned first, so it is found.
    const { found } = distances(`${perms[0]!.slice(0, 7)}x`);
    expect(found.map((i) => perms[i])).toContain(perms[0]);
  });
});

describe('posting buckets loaded on demand', () => {
  it('notes the buckets a query needs and were not loaded, and answers alike once they are', () => {
    // Many words, so that there are several buckets.
    const many = Array.from({ length: 3 * POSTING_BUCKET_WORDS }, (_, i) => occ(`11-${String(1000 + i)}.00`, `Word${i.toString(36)}x Operator`, 1000 + i));
    const full = buildSearchIndex(many, []);
    expect(full.postings.length).toBeGreaterThan(2);
    const split = { ...full, postings: full.postings.map(() => undefined) as Array<string | undefined> };
    expect(searchOccupations(split, 'operator')).toEqual([]);
    const wanted = takeMissing(split)!.buckets;
    expect(wanted).toEqual([vocabulary(split).indexOf('operator') / POSTING_BUCKET_WORDS | 0]);
    expect(takeMissing(split)).toBeNull();
    for (const b of wanted) split.postings[b] = full.postings[b];
    expect(searchOccupations(split, 'operator')).toEqual(searchOccupations(full, 'operator'));
    expect(takeMissing(split)).toBeNull();
  });
  it('asks for the titles and the ids by length only when a query needs them, and answers alike once they are in', () => {
    // As the function's shard "search" holds the served index: no titles, no ids by length.
    const { titles: own, by_length: byLength, ...rest } = index;
    const split: SearchIndex = { ...rest };
    // Words of the vocabulary (a word not in it, even one that starts some, is looked for as a typo too): neither.
    for (const q of ['nurses', 'nurse practitioners', 'registered nurse rn', 'ca']) {
      expect(searchOccupations(split, q), q).toEqual(searchOccupations(index, q));
      expect(takeMissing(split), q).toBeNull();
    }
    // A typo: the ids by length, and no typo match meanwhile (nor a word dropped for lack of one).
    expect(searchOccupations(split, 'nurce')).toEqual([]);
    expect(searchOccupations(split, 'registered nurce')).toEqual([]);
    expect(takeMissing(split)).toEqual({ buckets: [], typos: [], unscored: false, titles: false, by_length: true });
    // Suggestions: the titles.
    expect(suggestOccupations(split, 'cashers')).toEqual([]);
    expect(takeMissing(split)).toEqual({ buckets: [], typos: [], unscored: false, titles: true, by_length: false });
    split.by_length = byLength;
    split.titles = own;
    for (const q of ['nurce', 'registered nurce', 'xyzzy cashiers', 'sercretary']) expect(searchOccupations(split, q), q).toEqual(searchOccupations(index, q));
    expect(searchOccupations(split, 'nurce').map((i) => records[i]!.title)).toEqual(find('nurse'));
    expect(suggestOccupations(split, 'cashers')).toEqual(suggestOccupations(index, 'cashers'));
    expect(takeMissing(split)).toBeNull();
  });
});

describe('search index', () => {
  it('holds own titles by list position, then alternate titles with their owner, and sorted words', () => {
    expect(index.titles).toHaveLength(records.length);
    // A name's length (distinct words, "and" and the like not counted) is read with its postings.
    const fresh = buildSearchIndex(records, titles);
    expect(() => nameLength(fresh, 0)).toThrow(/before its postings were read/);
    postingsOf(fresh, vocabulary(fresh).indexOf('computer'));
    expect([nameLength(fresh, 0), nameLength(fresh, 1)]).toEqual([5, 2]); // Computer Numerically Controlled Tool Programmers; Computer Programmers
    postingsOf(fresh, vocabulary(fresh).indexOf('secretary'));
    expect(nameLength(fresh, 10)).toBe(3); // Secretaries and Administrative Assistants
    const vocab = vocabulary(index);
    expect(index.vocab).toBe(vocab.join(' '));
    expect(vocab).toEqual([...vocab].sort((a, b) => (a < b ? -1 : 1)));
    const rn = vocab.indexOf('rn');
    expect([...postingsOf(index, rn)].map((id) => ownerOf(index, id))).toEqual([2, 2, 2, 4]);
    expect(packedProblem(index)).toBeNull();
  });
  it('counts the occupations owning a word\'s names as ownerOf says, own titles and alternates together', () => {
    // "rn": the own title of neither, three names of Registered Nurses (list position 2) and one of Nurse Practitioners (4).
    expect(occupationsHolding(index, postingsOf(index, vocabulary(index).indexOf('rn')))).toBe(2);
    // Every word's names: the walk along the alternates' ends gives what a Set of ownerOf gives.
    vocabulary(index).forEach((_, k) => {
      const ids = postingsOf(index, k);
      expect(occupationsHolding(index, ids), vocabulary(index)[k]).toBe(new Set([...ids].map((id) => ownerOf(index, id))).size);
    });
    // An own title and an alternate of the same occupation count once; none, none.
    expect(occupationsHolding(index, Int32Array.from([2, ...[...postingsOf(index, vocabulary(index).indexOf('staff'))]]))).toBe(1);
    expect(occupationsHolding(index, new Int32Array(0))).toBe(0);
  });
  it('ignores titles of occupations not in the list', () => {
    expect(vocabulary(index)).not.toContain('listed');
    expect(vocabulary(index)).toContain('registered');
  });
  it('gives popularity from employment, splitting a shared OEWS code in favour of the .00 occupation', () => {
    expect(index.prior[2]).toBeGreaterThan(index.prior[3]!);
    expect(index.prior[8]).toBeGreaterThan(index.prior[7]!);
    expect(index.prior[10]).toBe(0);
  });
});

describe('search ranking', () => {
  it('prefers the occupation people usually mean among equal matches', () => {
    expect(find('nurse')[0]).toBe('Registered Nurses');
    expect(find('teacher').slice(0, 2)).toEqual(['Elementary School Teachers, Except Special Education', 'Law Teachers, Postsecondary']);
  });
  it('finds plurals, singulars and misspellings', () => {
    expect(find('nurses')[0]).toBe('Registered Nurses');
    expect(find('cashier')[0]).toBe('Cashiers');
    expect(find('nurce')[0]).toBe('Registered Nurses');
    expect(find('casheir')[0]).toBe('Cashiers');
    expect(find('programer')[0]).toBe('Computer Programmers');
    expect(find('secretary')).toEqual(['Secretaries and Administrative Assistants']);
  });
  it('joins two words that make a known word', () => {
    expect(find('fire fighter')).toEqual(['Firefighters']);
  });
  it('matches word starts of 3+ letters, every word within one name', () => {
    expect(find('prog')).toContain('Computer Programmers');
    expect(find('booth cash')).toEqual(['Gambling Change Persons and Booth Cashiers']);
  });
  it('finds abbreviations through alternate titles and the alias table', () => {
    expect(find('RN')[0]).toBe('Registered Nurses');
    expect(find('np')[0]).toBe('Nurse Practitioners');
    expect(find('checker')).toEqual(['Cashiers']);
  });
  it('takes a bare generic word for its catch-all occupation, and a qualified one for itself', () => {
    // Both own titles count as half covered by the one word (the longer by the floor): the larger
    // occupation's prior decides. Without the floor the shorter title won despite a smaller prior.
    expect(find('manager')[0]).toBe('General and Operations Managers');
    expect(find('managers')[0]).toBe('General and Operations Managers');
    expect(find('financial manager')).toEqual(['Financial Managers']);
  });
  it('among equal name matches, prefers the occupation more of whose names hold the query', () => {
    // One of Lawyers' nine names holds "cybersecurity", three of the analysts' five (on the real
    // data 2 of 92 and 24 of 85): the larger occupation's prior alone would put Lawyers first.
    expect(find('cybersecurity')).toEqual(['Information Security Analysts', 'Lawyers']);
  });
  it('ranks the occupation named by a word above a far larger one with a short alternate title holding it', () => {
    // Own title: 1 of 3 words, counted as half covered; "Tree Mover": 1 of 2, but an alternate.
    expect(find('tree')).toEqual(['Tree Trimmers and Pruners', 'Laborers and Freight, Stock, and Material Movers, Hand']);
  });
  it('expands a pair of words that is an alias key, in that order, plural or not', () => {
    expect(find('till operator')[0]).toBe('Cashiers');
    expect(find('till operators')[0]).toBe('Cashiers');
    expect(find('operator till')).not.toContain('Cashiers');
  });
  it('drops a word that matches nothing at all when the rest matches', () => {
    expect(find('xyzzy cashier')[0]).toBe('Cashiers');
    expect(find('zebra')).toEqual([]);
    expect(find('  ')).toEqual([]);
  });
  it('when no name holds every word, answers with the names holding the rarer ones first', () => {
    // "stock" is in one occupation's names (Stock Handler), "nurse" in three: no name holds both.
    for (const q of ['stock nurse', 'nurse stock']) {
      const found = find(q);
      expect(found[0]).toBe('Laborers and Freight, Stock, and Material Movers, Hand');
      expect(found).toContain('Registered Nurses');
    }
    expect(find('booth nurse')[0]).toBe('Gambling Change Persons and Booth Cashiers');
    // A name holding every word still comes alone.
    expect(find('stock handler')).toEqual(['Laborers and Freight, Stock, and Material Movers, Hand']);
  });
  it('in a partial match, a word of rank (junior, apprentice) counts less than the trade', () => {
    // "junior" is in one occupation's title, "mechanic" in three: by rarity alone "junior" decides.
    const ix = buildSearchIndex(
      [
        occ('49-3023.00', 'Automotive Service Technicians and Mechanics', 700_000),
        occ('49-9041.00', 'Industrial Machinery Mechanics', 400_000),
        occ('49-3011.00', 'Aircraft Mechanics', 150_000),
        occ('25-0000.00', 'Junior Instructors', 200_000),
      ],
      [],
    );
    for (const q of ['junior mechanic', 'mechanic junior']) expect(searchOccupations(ix, q).slice(0, 3), q).toEqual([0, 1, 2]);
    // Without a trade word beside it, a word of rank still finds what holds it.
    expect(searchOccupations(ix, 'junior')).toEqual([3]);
  });
  it('in a partial match, a word found only as the start of a longer word counts less than one found as typed', () => {
    // "excel" is found only as the start of "Excelsior" (one occupation), "analyst" as typed in
    // three: by rarity alone "excel" decides. Employment is equal, so it cannot decide either way.
    const ix = buildSearchIndex(
      [
        occ('13-2051.00', 'Financial and Investment Analysts', 300_000),
        occ('13-1111.00', 'Management Analysts', 300_000),
        occ('15-1211.00', 'Computer Systems Analysts', 300_000),
        occ('51-9032.00', 'Cutting and Slicing Machine Setters, Operators, and Tenders', 300_000),
        occ('29-1141.00', 'Registered Nurses', 300_000),
      ],
      [{ soc_code: '51-9032.00', title: 'Excelsior Machine Operator', short_title: null }],
    );
    for (const q of ['excel analyst', 'analyst excel']) expect(searchOccupations(ix, q).slice(0, 3), q).toEqual([0, 1, 2]);
    // Alone, the start of a word still finds what holds it.
    expect(searchOccupations(ix, 'excel')).toEqual([3]);
  });
  it('splits a word that matches nothing into two known words', () => {
    expect(find('freighthandler')).toEqual(['Laborers and Freight, Stock, and Material Movers, Hand']);
    expect(find('treetrimmers')[0]).toBe('Tree Trimmers and Pruners');
    // Not a word that matches as it is, or as the start of one: "firefighters" stays one word.
    expect(find('firefighters')).toEqual(['Firefighters']);
  });
  it('is deterministic: the same index and query give the same order', () => {
    expect(find('nurse')).toEqual(find('NURSE'));
    expect(buildSearchIndex(records, titles)).toEqual(index);
  });
  it('suggests the closest titles when nothing matches', () => {
    expect(suggestOccupations(index, 'cashers').map((i) => records[i]!.title)[0]).toBe('Cashiers');
    expect(suggestOccupations(index, '   ')).toEqual([]);
  });
});

describe('unscored occupations', () => {
  // Scored: childcare workers (alternate title "Infant Caregiver") and patrol officers. Not scored:
  // the infantry (as the model's unscored list gives them), with alternate titles of their own.
  const scored = [occ('39-9011.00', 'Childcare Workers', 500_000), occ('33-3051.00', "Police and Sheriff's Patrol Officers", 650_000), occ('29-1141.00', 'Registered Nurses', 3_000_000)];
  const names = [
    { soc_code: '39-9011.00', title: 'Infant Caregiver', short_title: null },
    { soc_code: '55-3016.00', title: 'Infantryman', short_title: null },
    { soc_code: '55-1016.00', title: 'Infantry Unit Leader', short_title: null },
  ];
  const reason = 'No task statements in O*NET 29.3.';
  const unscored = [
    { soc_code: '55-1014.00', title: 'Artillery and Missile Officers', reason },
    { soc_code: '55-1016.00', title: 'Infantry Officers', reason },
    { soc_code: '55-3016.00', title: 'Infantry', reason },
  ];
  const withUnscored = buildSearchIndex(scored, names, unscored);
  const without = buildSearchIndex(scored, names);
  const titlesOf = (ix: typeof withUnscored, q: string) => searchOccupations(ix, q).map((i) => scored[i]!.title);
  const unscoredOf = (q: string) => searchUnscored(withUnscored, q).map((i) => withUnscored.unscored!.occupations[i]!);

  it('a word of their titles is not taken for a typo of a near word', () => {
    // Without them, "infantry" is two edits from "infant".
    expect(titlesOf(without, 'infantry')).toEqual(['Childcare Workers']);
    expect(titlesOf(withUnscored, 'infantry')).toEqual([]);
    expect(unscoredOf('infantry')).toEqual([unscored[2], unscored[1]]);
    expect(unscoredOf('infantryman')).toEqual([unscored[2]]);
  });
  it('a query that names one whole is not cut down to the words a scored title holds', () => {
    // "artillery" matches no scored title: without them it was dropped and "officer" searched alone.
    expect(titlesOf(without, 'artillery officer')).toEqual(["Police and Sheriff's Patrol Officers"]);
    expect(titlesOf(withUnscored, 'artillery officer')).toEqual([]);
    expect(unscoredOf('artillery officer')).toEqual([unscored[0]]);
    expect(unscoredOf('infantry officer')).toEqual([unscored[1]]);
  });
  it('a word of their titles is not split into two words of scored titles', () => {
    const truck = [occ('53-7051.00', 'Industrial Truck and Tractor Operators', 600_000)];
    const alts = [
      { soc_code: '53-7051.00', title: 'Air Lift Operator', short_title: null },
      { soc_code: '55-3011.00', title: 'Airlift Loadmaster', short_title: null },
    ];
    const crew = [{ soc_code: '55-3011.00', title: 'Air Crew Members', reason }];
    // Without the unscored occupations, "airlift" is split into "air lift".
    expect(searchOccupations(buildSearchIndex(truck, alts), 'airlift')).toEqual([0]);
    const ix = buildSearchIndex(truck, alts, crew);
    expect(searchOccupations(ix, 'airlift')).toEqual([]);
    expect(searchUnscored(ix, 'airlift')).toEqual([0]);
  });
  it('tells whether an official title holds the query, by word or prefix, never by alternate title or typo', () => {
    // "infant" is in Childcare Workers' alternate title only; "officer" in the patrol officers' own.
    expect(ownTitleHolds(withUnscored, 'infant')).toBe(false);
    expect(searchOccupations(withUnscored, 'infant')).toEqual([0]);
    expect(ownTitleHolds(withUnscored, 'officers')).toBe(true);
    expect(ownTitleHolds(withUnscored, 'patrol off')).toBe(true);
    expect(ownTitleHolds(withUnscored, 'patrol nurses')).toBe(false); // each word, but not in one title
    // "ofiicer" finds the patrol officers as a typo, which does not count here.
    expect(searchOccupations(withUnscored, 'ofiicer')).toEqual([1]);
    expect(ownTitleHolds(withUnscored, 'ofiicer')).toBe(false);
    const u = withUnscored.unscored!.index;
    expect(ownTitleHolds(u, 'infantry officers')).toBe(true);
    expect(ownTitleHolds(u, 'infantryman')).toBe(false); // an alternate title of Infantry
    expect(ownTitleHolds(u, '  ')).toBe(false);
  });
  it('a word of a served title is not taken for a typo in their titles either', () => {
    // "chef" is one letter from "chief" (an alternate title of an unscored occupation). Taken for
    // it, "assistant chef" named that occupation, and the search did not drop "assistant".
    const chefs = [occ('35-1011.00', 'Chefs and Head Cooks', 150_000)];
    const ix = buildSearchIndex(chefs, [{ soc_code: '55-1015.00', title: 'Assistant Chief of Staff', short_title: null }], [{ soc_code: '55-1015.00', title: 'Command and Control Center Officers', reason }]);
    expect(searchUnscored(ix, 'assistant chef')).toEqual([]);
    expect(searchOccupations(ix, 'assistant chef')).toEqual([0]);
    expect(searchUnscored(ix, 'assistant chief')).toEqual([0]);
  });
  it('their index is read only by a query that needs it (a shard of its own), with the same answers', () => {
    // As the function's shard "search" holds it: their words and titles, not their index.
    const { unscored: whole, ...served } = withUnscored;
    expect(served.unscored_words).toBe('artillery infantry infantryman leader missile unit'); // "Infantry Unit Leader" is an alternate title
    expect(served.unscored_titles).toEqual(['artillery and missile officer', 'infantry officer', 'infantry']);
    const split: SearchIndex = { ...served };
    // Served words, a typo, a word of theirs (not a typo of "infant"): answered without it.
    for (const q of ['nurses', 'nurce', 'infant', 'infantry', 'patrol officers', 'ofiicer']) {
      expect(searchOccupations(split, q), q).toEqual(searchOccupations(withUnscored, q));
      expect(takeMissing(split), q).toBeNull();
    }
    // No unscored title holds "nurse" or "patrol" (nor a typo): no without their index.
    for (const q of ['nurses', 'patrol officers', 'ofiicer']) expect(unscoredTitlesMayHold(split, q), q).toBe(false);
    // One title holds every word as typed, or (3 letters or more) as a word's start; a word inside
    // another or across two titles does not count. Held to the rule written title word by title word.
    const byWords = (q: string) => served.unscored_titles!.some((t) => words(q).every((w) => t.split(' ').some((tw) => tw === w || (w.length >= 3 && tw.startsWith(w)))));
    for (const q of ['infantry officer', 'infant', 'inf', 'in', 'officer artillery', 'fantry', 'missile infantry', 'and', 'an', 'artillery missile officer', 'officers', 'ry', 'infantry infantry', 'officer infantry', 'y', 'unit', 'artiller and']) {
      expect(unscoredTitlesMayHold(split, q), q).toBe(byWords(q));
    }
    expect(takeMissing(split)).toBeNull();
    // Naming them needs it: asked for, and nothing found meanwhile.
    expect(unscoredTitleHolds(split, 'infantry officers')).toBe(false);
    expect(takeMissing(split)).toEqual({ buckets: [], typos: [], unscored: true, titles: false, by_length: false });
    expect(searchUnscored(split, 'infantry')).toEqual([]);
    expect(searchOccupations(split, 'artillery officer')).toEqual([]);
    expect(takeMissing(split)).toEqual({ buckets: [], typos: [], unscored: true, titles: false, by_length: false });
    // Their index's postings are shards of their own too: asked for, then the same answers.
    const theirs: SearchIndex = { ...whole!.index, postings: whole!.index.postings.map(() => undefined) };
    split.unscored = { occupations: whole!.occupations, index: theirs };
    expect(searchUnscored(split, 'infantry')).toEqual([]);
    expect(takeMissing(theirs)).toEqual({ buckets: [0], typos: [], unscored: false, titles: false, by_length: false });
    theirs.postings[0] = whole!.index.postings[0];
    for (const q of ['infantry', 'infantry officers', 'artillery officer', 'officers', 'nurses', 'infantryman']) {
      expect(searchUnscored(split, q), q).toEqual(searchUnscored(withUnscored, q));
      expect(searchOccupations(split, q), q).toEqual(searchOccupations(withUnscored, q));
      expect(unscoredTitleHolds(split, q), q).toBe(ownTitleHolds(whole!.index, q));
    }
    expect(unscoredTitleHolds(split, 'infantry officers')).toBe(true);
    expect(unscoredTitleHolds(split, 'infantryman')).toBe(false);
    expect(takeMissing(split)).toBeNull();
    expect(takeMissing(theirs)).toBeNull();
  });
  it('names them only when every word matches; other searches are unchanged', () => {
    expect(unscoredOf('infantry nurse')).toEqual([]);
    expect(titlesOf(withUnscored, 'xyzzy nurses')).toEqual(['Registered Nurses']);
    expect(titlesOf(withUnscored, 'nurce')).toEqual(['Registered Nurses']);
    expect(titlesOf(withUnscored, 'infant')).toEqual(['Childcare Workers']);
    expect(searchUnscored(without, 'infantry')).toEqual([]);
  });
});

describe('query words that are names every object has', () => {
  // "constructor" was taken for an alias (a plain object's inherited member) and the search threw:
  // GET /api/v1/occupations?q=constructor answered 500. Every inherited name, as typed, lower-case
  // (as search folds it) and plural, alone and beside a real word, on both indexes.
  const inherited = [...Object.getOwnPropertyNames(Object.prototype), '__proto__'];
  const forms = [...new Set(inherited.flatMap((n) => [n, n.toLowerCase(), `${n}s`, `${n.toLowerCase()}s`]))];
  const unscored = [{ soc_code: '55-3016.00', title: 'Infantry', reason: 'No task statements.' }];
  const withUnscored = buildSearchIndex(records, titles, unscored);

  it('are plain words: alone they match nothing here, beside a real word that word still answers', () => {
    expect(forms).toContain('constructors');
    for (const w of forms) {
      for (const ix of [index, withUnscored]) {
        expect(searchOccupations(ix, w), w).toEqual([]);
        expect(searchUnscored(ix, w), w).toEqual([]);
        expect(ownTitleHolds(ix, w), w).toBe(false);
        expect(() => suggestOccupations(ix, w), w).not.toThrow();
        for (const q of [`nurse ${w}`, `${w} nurse`, `${w} ${w}`, `${w} cashier`, `${w} rn`]) {
          const found = searchOccupations(ix, q).map((i) => records[i]!.title);
          if (q.includes('nurse') || q.endsWith(' rn')) expect(found[0], q).toBe('Registered Nurses');
          if (q.endsWith(' cashier')) expect(found[0], q).toBe('Cashiers');
          if (q === `${w} ${w}`) expect(found, q).toEqual([]);
          expect(() => searchUnscored(ix, q)).not.toThrow();
          expect(() => ownTitleHolds(ix, q)).not.toThrow();
        }
      }
    }
  });

  it('are indexed like any other word when titles hold them', () => {
    const odd = [occ('47-0000.00', 'Constructor Operators', 10_000), occ('47-1000.00', 'Registered Nurses', 3_000_000)];
    const ix = buildSearchIndex(odd, [{ soc_code: '47-0000.00', title: 'ValueOf toString __proto__ Specialist', short_title: null }]);
    expect(searchOccupations(ix, 'constructor')).toEqual([0]);
    expect(searchOccupations(ix, 'constructors')).toEqual([0]);
    expect(searchOccupations(ix, 'tostring specialist')).toEqual([0]);
    expect(searchOccupations(ix, 'valueof')).toEqual([0]);
    expect(searchOccupations(ix, 'proto')).toEqual([0]);
    // No name holds both words: the names holding either answer.
    expect([...searchOccupations(ix, 'nurse constructor')].sort()).toEqual([0, 1]);
  });
});
