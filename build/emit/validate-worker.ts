// The validation thread: checks each JSON file it is sent (check-json.ts) and, when told the
// files have ended, answers with every failure, in the order the files came.
import { parentPort } from 'node:worker_threads';
import { checkJson } from './check-json.ts';
import type { CheckMessage } from './validate-pool.ts';

const problems: string[] = [];
parentPort!.on('message', (m: CheckMessage) => {
  if (m === 'end') parentPort!.postMessage(problems);
  else problems.push(...checkJson(m.path, m.schema, m.body));
});
