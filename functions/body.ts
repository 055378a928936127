// Request-body helpers shared by the function's POST endpoints. Web-standard only (no node:*).
import { problemResponse, type Reply, type RequestLike } from './http.ts';

/** The media type of a request without parameters, lower-cased ('' when absent). */
export const mediaType = (req: RequestLike): string => (req.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * 415 for a body sent with a Content-Encoding (gzip, br...): it is not decoded, and read as plain
 * JSON it would be answered as if the client had sent bad JSON. Null when there is none (or identity).
 */
export function encodedBody(req: RequestLike): Reply | null {
  const coding = (req.headers.get('Content-Encoding') ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return null;
  return problemResponse(req, 415, 'Send the request body without a Content-Encoding: compressed bodies are not accepted.', [
    { location: 'header.Content-Encoding', message: `unsupported content coding "${coding}"`, allowed: ['identity'] },
  ]);
}

/** True when Content-Length announces more than `cap` bytes (it may also lie or be absent). */
export const declaredOver = (req: RequestLike, cap: number): boolean => {
  const declared = req.headers.get('Content-Length');
  return declared !== null && Number(declared) > cap;
};

/** Reads at most `cap` bytes; null when the body is longer (Content-Length can lie or be absent). */
export async function readCapped(req: RequestLike, cap: number): Promise<Uint8Array | null> {
  // The local server reads Node's stream itself (and closes cleanly what is left unread).
  if (req.readBody) return req.readBody(cap);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      // Not cancelled: the handler drops the rest (discardUnread), so the connection stays usable.
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Reads and drops what is left of a body (never read: 404, 405, 415, declared too large; or read
 * past its cap), up to `limit` bytes, then cancels. A body left half-read leaves the client's
 * keep-alive connection undefined: workerd hung the next request on it, Node's server reset it.
 */
export async function discardUnread(req: RequestLike, limit: number): Promise<void> {
  if (!req.body || req.body.locked) return;
  const reader = req.body.getReader();
  if (Number(req.headers.get('Content-Length') ?? 0) > limit) {
    await reader.cancel().catch(() => undefined);
    return;
  }
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > limit) break;
    }
  } catch {
    return; // the client went away: nothing left to keep clean
  }
  await reader.cancel().catch(() => undefined);
}

// One decoder for every request: a decode without `stream` starts afresh (even after an error),
// and making a TextDecoder costs more than decoding a small body.
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 text of the body, or null when the bytes are not valid UTF-8. */
export function utf8(bytes: Uint8Array): string | null {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    return null;
  }
}
