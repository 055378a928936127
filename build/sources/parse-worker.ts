// A parse-pool thread: runs each job it is sent and answers with its outcome (parse-jobs.ts).
import { parentPort } from 'node:worker_threads';
import { runJob, type ParseJob } from './parse-jobs.ts';

parentPort!.on('message', (job: ParseJob) => {
  void runJob(job).then((outcome) => parentPort!.postMessage(outcome));
});
