// A small pool of xlsx worker threads. On this project's 2-core build machine the xlsx files are
// about half of loadSources' time; parsing them beside the main thread roughly halves it.
// Falls back to parsing in-process when workers cannot start.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import readXlsxFile from 'read-excel-file/node';
import type { SheetCell } from './table.ts';

export type Workbook = Array<{ sheet: string; data: SheetCell[][] }>;

interface Pending {
  resolve: (sheets: Workbook) => void;
  reject: (error: Error) => void;
}

export class XlsxPool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private turn = 0;

  /** One worker per spare core (the main thread parses the text files meanwhile), at most 3. */
  constructor(size = Math.max(1, Math.min(3, availableParallelism() - 1))) {
    for (let i = 0; i < size; i++) {
      try {
        const worker = new Worker(new URL('./xlsx-worker.mjs', import.meta.url));
        worker.on('message', (msg: { id: number; sheets?: Workbook; error?: string }) => {
          const job = this.pending.get(msg.id);
          if (!job) return;
          this.pending.delete(msg.id);
          if (msg.error !== undefined) job.reject(new Error(msg.error));
          else job.resolve(msg.sheets!);
        });
        worker.on('error', (error) => this.failAll(error));
        this.workers.push(worker);
      } catch {
        break;
      }
    }
  }

  read(file: string): Promise<Workbook> {
    if (this.workers.length === 0) return readXlsxFile(file) as unknown as Promise<Workbook>;
    const id = this.nextId++;
    const worker = this.workers[this.turn++ % this.workers.length]!;
    return new Promise<Workbook>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, file });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers.length = 0;
  }

  private failAll(error: Error): void {
    for (const job of this.pending.values()) job.reject(error);
    this.pending.clear();
  }
}
