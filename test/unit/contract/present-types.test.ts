// Each presenter's return type is its response schema's (z.infer of the body in
// response-schemas.ts): a field missing or extra fails `npm run typecheck` (the @ts-expect-error
// lines below fail it if either stops being an error), and the bodies parse under the schemas.
import { describe, expect, it } from 'vitest';
import { responseSchemas, type OccupationDetail, type OccupationRisk, type OccupationTasks } from '../../../build/contract/response-schemas.ts';
import * as present from '../../../build/contract/present.ts';
import { versioned } from '../../../build/model/version.ts';
import { fixtureModel } from '../../fixtures/serving/model.ts';

const occ = fixtureModel().model.occupations[0]!;

describe('typed presenters', () => {
  it('refuse a field the schema lacks and a field it asks for, at compile time', () => {
    const risk = present.occupationRisk(occ, 'percentile');
    // @ts-expect-error a field the schema lacks
    const extra: OccupationRisk = { ...risk, extra_field: 1 };
    const { guidance: _, ...lacking } = risk;
    // @ts-expect-error a field the schema asks for is missing
    const missing: OccupationRisk<'percentile'> = lacking;
    expect([extra, missing].every((b) => b.soc_code === occ.soc_code)).toBe(true);
  });

  it('give bodies the schema of each shape parses, with the model version added', () => {
    for (const shape of ['percentile', 'timeline'] as const) {
      const schemas = responseSchemas(shape);
      const detail: OccupationDetail = present.occupationDetail(occ, shape);
      const tasks: OccupationTasks = present.occupationTasks(occ);
      expect(schemas.occupationDetail.parse(versioned(detail))).toEqual(versioned(detail));
      expect(schemas.occupationTasks.parse(versioned(tasks))).toEqual(versioned(tasks));
      expect(schemas.occupationRisk.parse(versioned(present.occupationRisk(occ, shape)))).toEqual(versioned(present.occupationRisk(occ, shape)));
    }
  });
});
