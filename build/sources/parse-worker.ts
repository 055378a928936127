// A parse-pool thread: runs the jobs it is sent one at a time, in order, and answers each with its
// outcome (parse-jobs.ts), its rows in slices. The pool may send the next job before this one is done; it waits here.
// The pool bundles a thread's code from serveJobs and, when the jobs are cached, the cache's store (parse-pool.ts).
import { parentPort } from 'node:worker_threads';
import { runJob, type JobOutcome, type ParseJob, type StoreParsed } from './parse-jobs.ts';
import { splitSlices } from './sliced-message.ts';

export function serveJobs(store?: StoreParsed): void {
  let last: Promise<unknown> = Promise.resolve();
  parentPort!.on('message', (job: ParseJob) => {
    last = last
      .then(() => runJob(job, store))
      .then((outcome: JobOutcome) => {
        // Large arrays go ahead in slices (sliced-message.ts); the outcome follows with markers.
        if (outcome.ok) outcome.value = splitSlices(outcome.value, (rows) => parentPort!.postMessage({ slice: rows }));
        parentPort!.postMessage(outcome);
      });
  });
}
