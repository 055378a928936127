import { describe, expect, it } from 'vitest';
import { MODEL_VERSION } from '../../../build/model/version.ts';
import { MAX_PROBLEM_ERRORS, problem, problemTypeDocs, PROBLEM_TYPES } from '../../../build/contract/problem.ts';
import { ProblemSchema } from '../../../build/contract/response-schemas.ts';

describe('problem details', () => {
  it('every status has a distinct type and a valid body', () => {
    const types = new Set<string>();
    for (const s of Object.keys(PROBLEM_TYPES).map(Number) as (keyof typeof PROBLEM_TYPES)[]) {
      const p = problem(s, 'why');
      expect(ProblemSchema.parse(p)).toEqual(p);
      expect(p.status).toBe(s);
      types.add(p.type);
    }
    expect(types.size).toBe(Object.keys(PROBLEM_TYPES).length);
  });
  it('a variant keeps its status with a type of its own, and is documented like the others', () => {
    const p = problem('vote-secret-missing', 'why');
    expect(ProblemSchema.parse(p)).toEqual(p);
    expect(p).toMatchObject({ status: 503, type: '/api/v1/problems/vote-secret-missing' });
    expect(p.type).not.toBe(problem(503, 'why').type);
    const docs = problemTypeDocs();
    expect(docs.map((d) => d.doc.type)).toContain(p.type);
    expect(new Set(docs.map((d) => d.name)).size).toBe(docs.length);
  });
  it('errors appear only when there are some, in a fixed key order', () => {
    expect('errors' in problem(400, 'x', [])).toBe(false);
    expect(Object.keys(problem(400, 'x', [{ location: 'query.limit', message: 'm' }]))).toEqual(['type', 'title', 'status', 'detail', 'errors', 'model_version']);
    expect(problem(500, 'x').model_version).toBe(MODEL_VERSION);
  });
  it(`lists the first ${MAX_PROBLEM_ERRORS} errors, counts the rest, and gives each allowed list once`, () => {
    const names = ['a', 'b', 'c'];
    const errors = [
      { location: 'body.personal_factors.x', message: 'unknown option "z" for x', allowed: ['p', 'q'] },
      ...Array.from({ length: 1800 }, (_, i) => ({ location: `body.personal_factors.f${i}`, message: `unknown factor "f${i}"`, allowed: names })),
    ];
    const p = problem(422, 'x', errors);
    expect(ProblemSchema.parse(p)).toEqual(p);
    expect(Object.keys(p)).toEqual(['type', 'title', 'status', 'detail', 'errors', 'errors_omitted', 'model_version']);
    expect(p.errors).toHaveLength(MAX_PROBLEM_ERRORS);
    expect(p.errors_omitted).toBe(1801 - MAX_PROBLEM_ERRORS);
    expect(p.errors!.slice(0, 3)).toEqual([errors[0], errors[1], { location: 'body.personal_factors.f1', message: 'unknown factor "f1"' }]);
    expect(p.errors!.filter((e) => e.allowed)).toEqual([errors[0], errors[1]]);
    expect(JSON.stringify(p).length).toBeLessThan(2500);
    // Within the bound nothing is counted, and the caller's errors are left as they were.
    const few = problem(400, 'x', errors.slice(0, 3));
    expect(few.errors).toHaveLength(3);
    expect('errors_omitted' in few).toBe(false);
    expect(errors[2]!.allowed).toBe(names);
  });
});
