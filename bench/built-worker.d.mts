// Types of built-worker.mjs (plain JavaScript, run by bare node in the cold bench).
export function copyBuiltWorker(dist: string, prefix: string): { entry: string; tmp: string };
export function memoryAssets(files: Map<string, string>): { fetch(req: Request | string): Promise<Response | { ok: true; status: 200; json(): Promise<unknown> }> };
