// validateFile: a JSON file made by the emitter is checked through the value its body was
// stringified from; any other body is parsed back. Either way a wrong file is named.
import { describe, expect, it } from 'vitest';
import { validateFile } from '../../../build/emit/files.ts';
import { PageShard } from '../../../build/contract/response-schemas.ts';
import { hash53, itemHashAt, pageHashes } from '../../../build/contract/content-hash.ts';

/** A page shard of these items at offset 0, hashed as the build writes it. */
const page = (items: unknown[]) => ({ offset: 0, items, ...pageHashes(0, items.map(String)) });

const withValue = (value: unknown) => ({ path: 'p.json', body: JSON.stringify(value), schema: PageShard, value });

describe('validateFile', () => {
  it('passes a conforming value and names each field of a wrong one', () => {
    expect(validateFile(withValue(page([])))).toEqual([]);
    const problems = validateFile(withValue({ offset: -1 }));
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^p\.json: offset: /);
    expect(problems[1]).toMatch(/^p\.json: items: /);
    expect(problems[2]).toMatch(/^p\.json: item_hashes: /);
    expect(problems[3]).toMatch(/^p\.json: hash: /);
  });

  it('is stricter on the value than on its JSON: NaN fails here, where the body would say null', () => {
    const f = withValue({ ...page([]), offset: Number.NaN });
    expect(f.body).toBe(`{"offset":null,"items":[],"item_hashes":"","hash":"${page([]).hash}"}`);
    expect(validateFile(f)).toEqual([expect.stringMatching(/^p\.json: offset: /)]);
  });

  it('a body without its value is parsed back: broken JSON and a wrong shape are named, no schema means no check', () => {
    expect(validateFile({ path: 'b.json', body: '{"offset":', schema: PageShard })).toEqual([expect.stringMatching(/^b\.json: not JSON \(/)]);
    expect(validateFile({ path: 'b.json', body: new TextEncoder().encode(`{"offset":0,"item_hashes":"","hash":"${page([]).hash}"}`), schema: PageShard })).toEqual([expect.stringMatching(/^b\.json: items: /)]);
    expect(validateFile({ path: 'b.html', body: '<not json' })).toEqual([]);
  });
});

describe('page shards', () => {
  const item = { id: 11101100, soc_code: '11-1011.00', title: 'Chief Executives', slug: 'chief-executives', job_zone: 5, description: 'Determine policies.', final_score: 12.5, risk_tier: 'low', major_group: '11' };
  const check = (items: unknown[]) => validateFile(withValue(page(items)));

  it("hold each item's JSON as a body holds it: exactly what JSON.stringify writes, of a list item", () => {
    expect(check([JSON.stringify(item)])).toEqual([]);
    // The object itself (the form before items were strings), other spacing, a field missing, not JSON.
    expect(check([item])).toEqual([expect.stringMatching(/^p\.json: items\.0: /)]);
    expect(check([JSON.stringify(item, null, 1)])).toEqual(['p.json: items.0: not as JSON.stringify writes it']);
    const { slug: _slug, ...noSlug } = item;
    expect(check([JSON.stringify(noSlug)])).toEqual([expect.stringMatching(/^p\.json: items\.0: slug: /)]);
    expect(check(['{"id":'])).toEqual(['p.json: items.0: not JSON']);
  });

  it("hold each item's hash and the shard's as content-hash.ts makes them (the ETags' parts)", () => {
    const good = page([JSON.stringify(item), JSON.stringify({ ...item, id: 11101200 })]);
    expect(validateFile(withValue(good))).toEqual([]);
    // Read back as the ETags hash them: each item's hash53, 14 hex digits.
    expect([0, 1].map((i) => itemHashAt(good.item_hashes, i))).toEqual(good.items.map((j) => hash53(String(j))));
    expect(hash53(String(good.items[0]))).toMatch(/^[0-9a-f]{14}$/);
    const swapped = good.item_hashes.slice(9) + good.item_hashes.slice(0, 9);
    expect(validateFile(withValue({ ...good, item_hashes: swapped }))).toEqual(['p.json: (root): item_hashes or hash is not what content-hash.ts makes of the items']);
    expect(validateFile(withValue({ ...good, offset: 50 }))).toEqual(['p.json: (root): item_hashes or hash is not what content-hash.ts makes of the items']);
  });
});
