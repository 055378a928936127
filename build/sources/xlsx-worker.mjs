// Worker thread that parses one xlsx workbook per message, so the large O*NET and BLS workbooks
// are unzipped and parsed off the main thread (and in parallel with the text files).
// Plain JavaScript on purpose: a worker does not inherit the tsx / vitest TypeScript loaders.
import { parentPort } from 'node:worker_threads';
import readXlsxFile from 'read-excel-file/node';

parentPort.on('message', async ({ id, file }) => {
  try {
    const sheets = await readXlsxFile(file);
    parentPort.postMessage({ id, sheets });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
