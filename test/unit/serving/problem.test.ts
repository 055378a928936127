import { describe, expect, it } from 'vitest';
import { problem, problemTypeDocs, PROBLEM_TYPES } from '../../../build/model/problem.ts';
import { ProblemSchema } from '../../../build/model/api-schemas.ts';

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
    expect(problem(500, 'x').model_version).toBe('2.0.0');
  });
});
