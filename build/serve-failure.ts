// Why npm start could not serve, in words (the CLI's explainFailure and a server process share it).

/** A failure to start serving, in words: a port in use, a host that is not ours; otherwise the error. */
export function explainServeFailure(e: unknown): string {
  const err = e as NodeJS.ErrnoException & { address?: string; port?: number; hostname?: string };
  if (err?.syscall === 'listen' && (err.code === 'EADDRINUSE' || err.code === 'EACCES' || err.code === 'EADDRNOTAVAIL')) {
    const what = err.code === 'EADDRINUSE' ? 'is already in use' : err.code === 'EACCES' ? 'needs more privileges' : 'is not an address of this machine';
    return `cannot listen on ${err.address}:${err.port}: it ${what}; choose another with --port N / --host H (or PORT / HOST)`;
  }
  if (err?.syscall === 'getaddrinfo' && (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN')) {
    return `cannot listen on ${err.hostname ?? 'the host'}: no such host name; choose another with --host H (or HOST)`;
  }
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}
