import { describe, expect, it } from 'vitest';
import { problem, PROBLEM_TYPES } from '../../../build/contract/problem.ts';
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
  it('errors appear only when there are some, in a fixed key order', () => {
    expect('errors' in problem(400, 'x', [])).toBe(false);
    expect(Object.keys(problem(400, 'x', [{ location: 'query.limit', message: 'm' }]))).toEqual(['type', 'title', 'status', 'detail', 'errors', 'model_version']);
    expect(problem(500, 'x').model_version).toBe('2.0.0');
  });
});
