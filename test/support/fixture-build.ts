// A build of the fixture model in a process of its own, for tests that stop a build as a crash
// would (ODR_TEST_CRASH_AT, build/emit/swap.ts):
//   node --import tsx test/support/fixture-build.ts OUT [SHAPE]
import path from 'node:path';
import { runBuild } from '../../build/pipeline.ts';
import type { Shape } from '../../build/model/record-schemas.ts';
import { fixtureModel } from '../fixtures/serving/model.ts';

const [out, shape = 'percentile'] = process.argv.slice(2);
if (!out) throw new Error('usage: fixture-build.ts OUT [SHAPE]');
const repoRoot = path.resolve(import.meta.dirname, '..', '..');
await runBuild({ shape: shape as Shape, out, repoRoot, inputs: fixtureModel(), log: (l) => console.log(l) });
