// The API reference (/docs/) is generated with real examples: every example it shows is requested
// here against the built site, and the status and the JSON shown must be what the site answers
// (lists are cut to their first items, with a `// … N more` line saying how many were left out).
// Every documented operation of the OpenAPI document has a section with at least one example.
// Examples that record something (votes) are sent, in order and from the documented client, to the
// same build served with a fresh throwaway vote database, so they get the answers the docs show and
// the suite's own database is never written.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { startServer } from '../../functions/adapters/node/server.ts';
import { openSqliteVotes } from '../../functions/adapters/node/vote-store-sqlite.ts';
import { CLIENT_HEADER, SHAPES, TARGET, useSites, type Site } from './setup.ts';

const sites = useSites();

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

interface Example {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  writes: boolean;
  /** The client address a writing example was made from. */
  client?: string;
  status: number;
  shown: string | null;
}

function examplesOf(html: string): Example[] {
  const out: Example[] = [];
  const re = /<div class="example"([^>]*)>([\s\S]*?)<\/div>/g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    const attr = (name: string) => {
      const a = new RegExp(`\\s${name}="([^"]*)"`).exec(m![1]!);
      return a ? unescape(a[1]!) : undefined;
    };
    const pre = /<pre class="response"><code>([\s\S]*?)<\/code><\/pre>/.exec(m[2]!);
    out.push({ method: attr('data-example-method')!, path: attr('data-example-path')!, body: attr('data-example-body'), contentType: attr('data-example-content-type'), writes: attr('data-example-writes') === 'throwaway-database', client: attr('data-example-client'), status: Number(attr('data-example-status')), shown: pre ? unescape(pre[1]!) : null });
  }
  return out;
}

/** Compares a shown excerpt (lists cut, cuts counted) with the full answer; returns the differences. */
function compare(shown: string, actual: unknown): string[] {
  const counts = [...shown.matchAll(/^\s*\/\/ … (\d+) more$/gm)].map((m) => Number(m[1]));
  const parsed = JSON.parse(shown.replace(/^\s*\/\/ … \d+ more$\n/gm, ''));
  const problems: string[] = [];
  let cut = 0;
  const walk = (s: unknown, a: unknown, at: string) => {
    if (Array.isArray(s)) {
      if (!Array.isArray(a)) return void problems.push(`${at}: not an array`);
      if (a.length > s.length) cut += a.length - s.length;
      s.forEach((v, i) => walk(v, a[i], `${at}[${i}]`));
    } else if (s !== null && typeof s === 'object') {
      if (a === null || typeof a !== 'object') return void problems.push(`${at}: not an object`);
      expect(Object.keys(s), at).toEqual(Object.keys(a));
      for (const k of Object.keys(s)) walk((s as Record<string, unknown>)[k], (a as Record<string, unknown>)[k], `${at}.${k}`);
    } else if (s !== a) problems.push(`${at}: shown ${JSON.stringify(s)}, served ${JSON.stringify(a)}`);
  };
  walk(parsed, actual, '$');
  if (counts.reduce((x, y) => x + y, 0) !== cut) problems.push(`the "more" lines count ${counts.reduce((x, y) => x + y, 0)} items left out, the answer has ${cut} more`);
  return problems;
}

/** The same build with a fresh vote database that is discarded afterwards (local server + in-memory SQLite, or workerd + a scratch local D1). */
async function throwawaySite(site: Site): Promise<{ url: string; close(): Promise<void> }> {
  if (TARGET === 'cloudflare') {
    const scratch = mkdtempSync(path.join(tmpdir(), 'odr-docs-votes-'));
    const remove = () => rmSync(scratch, { recursive: true, force: true });
    // Loaded only here: the node target starts no runtime.
    const { cloudflareSites, freshLocalD1, startWrangler } = await import('../support/wrangler.ts');
    const w = await startWrangler(site.dir, scratch, freshLocalD1(await cloudflareSites(inject('cloudflare')!), path.join(scratch, 'd1')));
    return { url: w.url, close: async () => (await w.stop(), remove()) };
  }
  // In memory: nothing on disk, gone when closed.
  const db = openSqliteVotes(':memory:');
  const server = await startServer({ dir: site.dir, port: 0, host: '127.0.0.1', votes: { store: db.store }, trustProxy: true });
  return { url: server.url, close: async () => (await server.close(), db.close()) };
}

async function ask(site: Site, ex: Example, throwaway: { url: string } | null): Promise<Response> {
  const headers: Record<string, string> = ex.body !== undefined ? { 'Content-Type': ex.contentType ?? 'application/json' } : {};
  if (ex.writes) {
    if (!throwaway || !ex.client) throw new Error('an example that writes needs the throwaway site and its client');
    return fetch(throwaway.url + ex.path, { method: ex.method, body: ex.body, headers: { ...headers, [CLIENT_HEADER]: ex.client } });
  }
  // Reads of the vote counts go where the example votes are written: the counts the docs show
  // are those of a fresh database, which the shared site's is not once another file has voted
  // (on Cloudflare every file shares one local D1, and readme.test.ts runs the docs' POST).
  if (ex.method === 'GET' && throwaway && ex.path.endsWith('/votes')) return fetch(throwaway.url + ex.path);
  if (ex.method === 'GET') return site.get(ex.path);
  return site.get(ex.path, { method: ex.method, ...(ex.body !== undefined ? { body: ex.body, headers } : {}) });
}

describe.each(SHAPES)('docs (%s)', (shape) => {
  it('every example in the API reference is what the site answers', async () => {
    const site = sites[shape];
    const html = await (await site.get('/docs/')).text();
    const examples = examplesOf(html);
    expect(examples.length).toBeGreaterThan(20);
    const failures: string[] = [];
    let compared = 0;
    const writes = examples.filter((e) => e.writes);
    // Only the timeline shape records votes; its docs show a real one (201, the counts after it).
    expect(writes.some((e) => e.status === 201 && e.shown !== null)).toBe(shape === 'timeline');
    const votePaths = [...new Set(writes.map((e) => e.path))];
    const countsBefore = await Promise.all(votePaths.map(async (p) => (await site.get(p)).text()));
    const throwaway = writes.length > 0 ? await throwawaySite(site) : null;
    try {
      for (const ex of examples) {
        const res = await ask(site, ex, throwaway);
        const label = `${ex.method} ${ex.path}${ex.body !== undefined ? ` ${ex.body}` : ''}`;
        if (res.status !== ex.status) failures.push(`${label}: docs say ${ex.status}, site answers ${res.status}`);
        const text = await res.text();
        if (ex.shown !== null) {
          failures.push(...compare(ex.shown, JSON.parse(text)).map((p) => `${label}: ${p}`));
          compared += 1;
        }
      }
    } finally {
      await throwaway?.close();
    }
    expect(failures).toEqual([]);
    // The suite's own vote database saw none of it.
    expect(await Promise.all(votePaths.map(async (p) => (await site.get(p)).text()))).toEqual(countsBefore);
    expect(compared).toBeGreaterThan(20);
  });

  it('every API operation of the OpenAPI document has a section, and each documented error is shown', async () => {
    const site = sites[shape];
    const html = await (await site.get('/docs/')).text();
    const doc = await site.json('/api/v1/openapi.json');
    const examples = examplesOf(html);
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>)) {
      if (!path.startsWith('/api/')) continue;
      for (const op of Object.values(ops)) expect(html, path).toContain(`id="${op.operationId}"`);
    }
    const statuses = new Set(examples.map((e) => e.status));
    for (const s of [200, 400, 404, 405, 415, 422, ...(shape === 'timeline' ? [201, 409] : [])]) expect(statuses, String(s)).toContain(s);
    // Every POST operation (the vote included) has POST examples in its own section.
    // (/mcp is documented in docs/MCP.md: its POST bodies are JSON-RPC, not API examples.)
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>)) {
      if (!ops.post || !path.startsWith('/api/')) continue;
      const at = html.indexOf(`id="${ops.post.operationId}"`);
      const section = html.slice(at, html.indexOf('</section>', at));
      expect(examplesOf(section).filter((e) => e.method === 'POST').length, ops.post.operationId).toBeGreaterThan(2);
    }
  });

  it('the embed, methodology and MCP pages are served and link within the site', async () => {
    const site = sites[shape];
    for (const [p, heading] of [['/docs/embed', 'Embed a risk card'], ['/docs/methodology', 'Methodology'], ['/docs/mcp', 'The API as an MCP server']]) {
      const res = await site.get(p!);
      expect(res.status, p).toBe(200);
      const html = await res.text();
      expect(html, p).toContain(heading!);
      expect(html, p).not.toMatch(/href="[^"/#h][^"]*\.md/);
    }
  });
});
