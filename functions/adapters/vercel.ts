// Vercel Node runtime, Web-standard method exports. vercel.json rewrites to /api/_fn.
import { originHandler } from './shards-over-http.ts';

const handle = originHandler();
export const GET = handle;
export const HEAD = handle;
export const POST = handle;
export const OPTIONS = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
