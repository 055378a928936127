// npm run stress -- [--only NAME,...]: the long runs of issue 42, apart from the suite's budget
// (.ci/run runs them as their own step after npm test). Loopback only; each scenario is bounded
// (well under 2 minutes) and stops what it started. Each prints its figures and fails (exit 1)
// when its bound is not met:
//   fresh-starts    npm start --workers 4 on a new vote database, up to 50 times in 100 s: 0 failures
//   worker-kill     a worker killed with SIGKILL under vote load: replaced, >= 99% of probes
//                   answered, every acknowledged vote in the database
//   slow-readers    150 clients ask for the largest download and do not read: each worker < 300 MB
//   vote-counts     1 million votes on one occupation: GET votes p99 < 5 ms
//   idle-conns      2,000 idle connections, 1,000 over the cap (2 workers x 500): 20 of 20 other
//                   clients answered within 1 s (each evicts an idle connection)
import { parseFlags } from '../../build/cli.ts';
import { SCENARIOS } from './scenarios.ts';

const flags = parseFlags(process.argv.slice(2), ['--only'], 'usage: npm run stress -- [--only NAME,...]');
const only = flags['--only']?.split(',');
let failed = 0;
for (const s of SCENARIOS) {
  if (only && !only.includes(s.name)) continue;
  const t0 = performance.now();
  try {
    const figures = await s.run();
    console.log(`ok   ${s.name} (${((performance.now() - t0) / 1000).toFixed(1)} s): ${figures}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${s.name} (${((performance.now() - t0) / 1000).toFixed(1)} s): ${(e as Error).message}`);
  }
}
process.exit(failed ? 1 : 0);
