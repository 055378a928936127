// A cluster worker of npm start: serves only. The primary (main.ts) bundles this file with
// esbuild and forks it on plain node (no tsx: its module-hook thread would be much of a worker's
// memory), passing what it resolved in ODR_SERVE_WORKER; the vote settings come from the same argv
// and environment as the primary's (the secret from the environment only, never from here).
import { serveHere, WORKER_ENV, type WorkerStart } from './serve-here.ts';
import { splitVoteArgs } from './vote-args.ts';

const start = JSON.parse(process.env[WORKER_ENV] ?? 'null') as WorkerStart | null;
if (!start) throw new Error(`${WORKER_ENV} is not set: this file is run by npm start's primary, not by hand`);
await serveHere(start.dir, start.repoRoot, start.args, splitVoteArgs(process.argv.slice(2), process.env).votes, (url) => process.send!({ url }));
