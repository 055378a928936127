// A small pool of xlsx worker threads. On this project's 2-core build machine the xlsx files are
// about half of loadSources' time; parsing them beside the main thread roughly halves it.
// Falls back to parsing in-process when workers cannot start.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import readXlsxFile from 'read-excel-file/node';
import type { SheetCell } from './table.ts';

export type Workbook = Array<{ sheet: string; data: SheetCell[][] }>;

interface Pending {
  file: string;
  resolve: (sheets: Workbook) => void;
  reject: (error: Error) => void;
}

const readInProcess = (file: string) => readXlsxFile(file) as unknown as Promise<Workbook>;

export class XlsxPool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private turn = 0;
  private started = false;

  /** One worker per spare core (the main thread parses the text files meanwhile), at most 3. */
  constructor(private readonly size = Math.max(1, Math.min(3, availableParallelism() - 1))) {}

  /** Workers start on the first xlsx, so a source tree without workbooks costs nothing. */
  private start(): void {
    for (let i = 0; i < this.size; i++) {
      try {
        const worker = new Worker(new URL('./xlsx-worker.mjs', import.meta.url));
        worker.on('message', (msg: { id: number; sheets?: Workbook; error?: string }) => {
          const job = this.pending.get(msg.id);
          if (!job) return;
          this.pending.delete(msg.id);
          if (msg.error !== undefined) job.reject(new Error(msg.error));
          else job.resolve(msg.sheets!);
        });
        worker.on('error', () => this.fallBack());
        this.workers.push(worker);
      } catch {
        break;
      }
    }
  }

  read(file: string): Promise<Workbook> {
    if (!this.started) {
      this.started = true;
      this.start();
    }
    if (this.workers.length === 0) return readInProcess(file);
    const id = this.nextId++;
    const worker = this.workers[this.turn++ % this.workers.length]!;
    return new Promise<Workbook>((resolve, reject) => {
      this.pending.set(id, { file, resolve, reject });
      worker.postMessage({ id, file });
    });
  }

  async close(): Promise<void> {
    // Emptied first, so no job is posted to a worker that is shutting down.
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.terminate()));
  }

  /**
   * A crashed worker (not a bad workbook: that comes back as a message) must not fail the build:
   * stop the workers and parse what was pending, and everything after, in-process.
   */
  private fallBack(): void {
    const jobs = [...this.pending.values()];
    this.pending.clear();
    void this.close();
    for (const job of jobs) readInProcess(job.file).then(job.resolve, job.reject);
  }
}
