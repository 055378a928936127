// /docs/: the API reference generated from the built OpenAPI document, every example a real
// answer of the built site (static files as served, everything else from the real function
// handler over the built shards, exactly as the local server routes it); plus "how to embed" and
// "how the score works" rendered from docs/EMBED.md and docs/METHODOLOGY.md. Each example is
// marked with data-example-* attributes so the tests can request it and compare.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Marked, type Tokens } from 'marked';
import { createHandler } from '../../functions/api.ts';
import type { VoteStore } from '../../functions/votes.ts';
import type { ModelOutput, Shape } from '../model/record-schemas.ts';
import { VOTE_CHOICES } from '../contract/votes.ts';
import { openSqliteVotes } from '../../functions/adapters/node/vote-store-sqlite.ts';
import { CONTENT_TYPE } from '../contract/http-policy.ts';
import { PARAM_EXAMPLES, routeById, routesFor, urlFor } from '../contract/routes.ts';
import { fileFor, shardFile } from '../contract/dist-layout.ts';
import { matchRoute } from '../contract/route-match.ts';
import type { EmittedFile } from './files.ts';
import { templates } from './embed.ts';
import { citeView } from './citation.ts';
import { EXAMPLE_ORIGIN, originMarked } from './example-origin.ts';

/** What a request to the built site answers. */
export interface Answer {
  status: number;
  contentType: string;
  body: string;
}

export interface ExampleRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** JSON text for POST. */
  body?: string;
  contentType?: string;
  /** Records something (a vote): shown from a throwaway database, and tested against one. */
  writes?: boolean;
}

/** The client address the examples come from (TEST-NET-1, reserved for documentation). */
export const DOCS_CLIENT = '192.0.2.1';

/** A file of the build as written, as text; null when the build has no such file. */
export type ReadBuilt = (path: string) => Promise<string | null>;

/**
 * Answers requests from the written files the way the local server does: static file, else the
 * function (with `votes` as its vote database, when given).
 */
export function siteOf(read: ReadBuilt, shape: Shape, votes?: VoteStore): (r: ExampleRequest) => Promise<Answer> {
  const handler = createHandler({
    loadShard: async (name) => {
      const text = await read(shardFile(name));
      if (text === null) throw new Error(`no shard ${name}`);
      return JSON.parse(text);
    },
  }, votes ? { votes: { store: votes } } : {});
  return async (r) => {
    const url = new URL(r.path, 'http://docs.invalid');
    if (r.method === 'GET' && url.search === '') {
      const m = matchRoute(url.pathname, shape);
      const text = m?.route.serve === 'static' ? await read(fileFor(url.pathname, m.route.body)) : null;
      if (m && text !== null) return { status: 200, contentType: CONTENT_TYPE[m.route.body], body: text };
    }
    const res = await handler(
      new Request(url, { method: r.method, body: r.body, headers: r.body !== undefined ? { 'Content-Type': r.contentType ?? 'application/json' } : {} }),
      { clientAddress: DOCS_CLIENT },
    );
    return { status: res.status, contentType: res.headers.get('Content-Type') ?? '', body: await res.text() };
  };
}

export const EXCERPT_ITEMS = 3;

/**
 * Pretty JSON where every array longer than EXCERPT_ITEMS shows its first items and a line
 * `// … N more`. Deleting those lines leaves valid JSON, which the tests compare with the answer.
 */
export function excerptJson(value: unknown, indent = ''): string {
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const shown = value.slice(0, EXCERPT_ITEMS).map((v) => inner + excerptJson(v, inner));
    const more = value.length - shown.length;
    return `[\n${shown.join(',\n')}${more > 0 ? `\n${inner}// … ${more} more` : ''}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${excerptJson(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

type OpenApiDoc = {
  info: { description: string };
  paths: Record<string, Record<string, { operationId: string; summary: string; parameters?: Array<{ name: string; in: string; required: boolean; description?: string; schema: Record<string, unknown> }>; requestBody?: unknown; responses: Record<string, { description: string; content?: Record<string, unknown> }> }>>;
};

/** The route table's example values, or the build's first occupation and industry where it lacks them. */
function sampleValues(model: ModelOutput): Record<string, string> {
  const occ = model.occupations.find((o) => o.soc_code === PARAM_EXAMPLES.soc_code!.example) ?? model.occupations[0];
  const ind = model.industries.find((i) => i.naics_code === PARAM_EXAMPLES.naics_code!.example) ?? model.industries[0];
  const isco = model.isco.units.find((u) => u.isco_code === PARAM_EXAMPLES.isco_code!.example) ?? model.isco.units[0];
  return { soc_code: occ?.soc_code ?? '00-0000.00', slug: occ?.slug ?? 'none', naics_code: ind?.naics_code ?? '00', isco_code: isco?.isco_code ?? '0000', problem: PARAM_EXAMPLES.problem!.example };
}
const MISSING: Record<string, string> = Object.fromEntries(Object.entries(PARAM_EXAMPLES).map(([name, v]) => [name, v.missing]));

/** The example requests of one operation: its success case(s), then each error it documents that we can provoke. */
function examplesFor(template: string, method: string, op: OpenApiDoc['paths'][string][string], model: ModelOutput): Array<{ label: string; req: ExampleRequest }> {
  const values = sampleValues(model);
  const pathOf = (v: Record<string, string>) => template.replace(/\{([a-z_]+)\}/g, (_, n: string) => v[n]!);
  const p = pathOf(values);
  const out: Array<{ label: string; req: ExampleRequest }> = [];
  const has = (status: string) => op.responses[status] !== undefined;
  if (method === 'post' && op.operationId === 'occupation-vote') {
    // Real votes into the build's throwaway database (renderDocs): recorded, then the same client again.
    const post = (body: string, contentType?: string): ExampleRequest => ({ method: 'POST', path: p, body, ...(contentType ? { contentType } : {}), writes: true });
    out.push({ label: 'Record a vote', req: post(JSON.stringify({ vote: 'agree' })) });
    if (has('409')) out.push({ label: 'The same client again within 24 hours', req: post(JSON.stringify({ vote: 'too_high' })) });
    if (has('400')) out.push({ label: 'Invalid JSON', req: post('{"vote":') });
    if (has('404')) out.push({ label: 'Unknown occupation', req: { ...post(JSON.stringify({ vote: 'agree' })), path: pathOf({ ...values, ...MISSING }) } });
    if (has('415')) out.push({ label: 'Wrong Content-Type', req: post('{"vote":"agree"}', 'text/plain') });
    if (has('422')) out.push({ label: 'Unknown vote', req: post(JSON.stringify({ vote: 'about_right' })) });
    return out;
  }
  // POST examples need a body only the operation knows: the assessment and the vote. Another POST
  // operation is documented without examples until it gets its own here.
  if (method === 'post' && op.operationId !== 'assess') return [];
  if (method === 'post') {
    const factors = Object.keys(model.factors).sort().slice(0, 2);
    const personal = Object.fromEntries(factors.map((f) => [f, model.factors[f]!.at(-1)!.value]));
    out.push({ label: 'Assess with two personal factors', req: { method: 'POST', path: p, body: JSON.stringify({ soc_code: values.soc_code, personal_factors: personal }) } });
    if (has('400')) out.push({ label: 'Invalid JSON', req: { method: 'POST', path: p, body: '{"soc_code":' } });
    if (has('404')) out.push({ label: 'Unknown occupation', req: { method: 'POST', path: p, body: JSON.stringify({ soc_code: MISSING.soc_code }) } });
    if (has('415')) out.push({ label: 'Wrong Content-Type', req: { method: 'POST', path: p, body: '{}', contentType: 'text/plain' } });
    if (has('422')) out.push({ label: 'Unknown factor', req: { method: 'POST', path: p, body: JSON.stringify({ soc_code: values.soc_code, personal_factors: { star_sign: 'leo' } }) } });
    out.push({ label: 'Wrong method', req: { method: 'DELETE', path: p } });
    return out;
  }
  out.push({ label: 'Request', req: { method: 'GET', path: p } });
  const q = new Set((op.parameters ?? []).filter((x) => x.in === 'query').map((x) => x.name));
  if (q.has('q')) out.push({ label: 'Title search, two per page', req: { method: 'GET', path: `${p}?q=nurse&limit=2` } });
  if (q.has('level')) out.push({ label: 'Sectors only', req: { method: 'GET', path: `${p}?level=2` } });
  if (q.has('major')) out.push({ label: 'Professionals (major group 2), two per page', req: { method: 'GET', path: `${p}?major=2&limit=2` } });
  if (q.has('limit')) out.push({ label: 'Invalid limit', req: { method: 'GET', path: `${p}?limit=0` } });
  if (q.has('level')) out.push({ label: 'Invalid level', req: { method: 'GET', path: `${p}?level=9` } });
  if (template.includes('{')) out.push({ label: 'Unknown value', req: { method: 'GET', path: pathOf({ ...values, ...MISSING }) } });
  out.push({ label: 'Wrong method', req: { method: 'DELETE', path: p } });
  return out;
}

function curlOf(r: ExampleRequest): string {
  const url = `${EXAMPLE_ORIGIN}${r.path}`;
  if (r.method === 'GET') return `curl '${url}'`;
  if (r.body === undefined) return `curl -X ${r.method} '${url}'`;
  return `curl -X ${r.method} '${url}' -H 'Content-Type: ${r.contentType ?? 'application/json'}' -d '${r.body}'`;
}

const schemaText = (s: Record<string, unknown>): string =>
  [s.type, s.enum ? `one of ${(s.enum as unknown[]).join(', ')}` : '', s.minimum !== undefined ? `min ${s.minimum}` : '', s.maximum !== undefined ? `max ${s.maximum}` : '', s.default !== undefined ? `default ${s.default}` : '', s.maxLength !== undefined ? `at most ${s.maxLength} characters` : '']
    .filter(Boolean)
    .join(', ');

/** What the request body of an operation is, in words. */
const BODY_TEXT: Record<string, string> = {
  assess: 'JSON: soc_code (required) and personal_factors (factor name to option value; see displacement/factors).',
  'occupation-vote': `JSON {"vote": one of ${VOTE_CHOICES.join(', ')}}, or the embed card's form post (vote=<choice>).`,
};

async function referenceView(read: ReadBuilt, model: ModelOutput, shape: Shape, votes: VoteStore | undefined) {
  const openapi = await read(fileFor(urlFor('openapi'), routeById('openapi').body));
  if (openapi === null) throw new Error('the docs need the OpenAPI document, and the build wrote none');
  const doc = JSON.parse(openapi) as OpenApiDoc;
  const ask = siteOf(read, shape, votes);
  const operations = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    // The reference covers the API; pages and downloads have their own pages.
    if (!template.startsWith('/api/')) continue;
    for (const [method, op] of Object.entries(ops)) {
      const examples = [];
      for (const { label, req } of examplesFor(template, method, op, model)) {
        const a = await ask(req);
        const isJson = /json/.test(a.contentType);
        examples.push({ label, req, curl: originMarked(curlOf(req)), status: a.status, contentType: a.contentType, shown: isJson ? excerptJson(JSON.parse(a.body)) : null });
      }
      operations.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path: template,
        summary: op.summary,
        params: (op.parameters ?? []).map((x) => ({ name: x.name, in: x.in, required: x.required, description: x.description ?? '', schema: schemaText(x.schema) })),
        body: op.requestBody ? (BODY_TEXT[op.operationId] ?? null) : null,
        responses: Object.entries(op.responses).map(([status, r]) => ({ status, description: r.description, types: Object.keys(r.content ?? {}).join(', ') })),
        examples,
      });
    }
  }
  return { operations, description: doc.info.description, client: DOCS_CLIENT };
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens ("13b. ISCO-08 unit groups" -> "13b-isco-08-unit-groups"). */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/**
 * Markdown from docs/ with links fixed for the site: the two docs map to their pages; other
 * relative links become text. Headings get GitHub's anchors, and the sections and subsections are
 * listed after the title ("On this page"), so a long document can be read by its parts.
 */
export function markdownPage(file: string): string {
  const toc: Array<{ depth: number; id: string; html: string }> = [];
  const used = new Map<string, number>();
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const html = this.parser.parseInline(tokens);
        const base = headingSlug(html);
        const n = used.get(base) ?? 0;
        used.set(base, n + 1);
        const id = n === 0 ? base : `${base}-${n}`;
        if (depth === 2 || depth === 3) toc.push({ depth, id, html });
        return `<h${depth} id="${id}">${html}</h${depth}>\n`;
      },
      link({ href, text, tokens }: Tokens.Link) {
        const inner = this.parser.parseInline(tokens);
        const mapped: Record<string, string> = { 'EMBED.md': '/docs/embed', 'docs/EMBED.md': '/docs/embed', 'METHODOLOGY.md': '/docs/methodology', 'docs/METHODOLOGY.md': '/docs/methodology', 'MCP.md': '/docs/mcp', 'docs/MCP.md': '/docs/mcp' };
        const [base, hash] = href.split('#');
        const target = mapped[base!] !== undefined ? mapped[base!] + (hash ? `#${hash}` : '') : /^https?:\/\//.test(href) || href.startsWith('#') ? href : null;
        return target === null ? `<span>${inner || text}</span>` : `<a href="${target.replace(/"/g, '&quot;')}">${inner || text}</a>`;
      },
      table(token: Tokens.Table) {
        const head = `<tr>${token.header.map((c) => `<th>${this.parser.parseInline(c.tokens)}</th>`).join('')}</tr>`;
        const rows = token.rows.map((r) => `<tr>${r.map((c) => `<td>${this.parser.parseInline(c.tokens)}</td>`).join('')}</tr>`).join('\n');
        // A wide table scrolls inside its frame; the frame takes the keyboard focus so it can be scrolled without a mouse.
        const name = token.header.map((c) => c.text).join(', ').replace(/[`*"<>&]/g, '').slice(0, 80);
        return `<div class="table-wrap" tabindex="0" role="region" aria-label="Table: ${name}"><table>\n<thead>${head}</thead>\n<tbody>${rows}</tbody>\n</table></div>\n`;
      },
    },
  });
  const body = marked.parse(literalAsterisks(readFileSync(file, 'utf8')), { async: false }) as string;
  if (toc.length < 3) return body;
  const items: string[] = [];
  toc.forEach((h, i) => {
    if (h.depth === 3) return;
    const subs = [];
    for (let j = i + 1; j < toc.length && toc[j]!.depth === 3; j++) subs.push(`<li><a href="#${toc[j]!.id}">${toc[j]!.html}</a></li>`);
    items.push(`<li><a href="#${h.id}">${h.html}</a>${subs.length ? `<ul>${subs.join('')}</ul>` : ''}</li>`);
  });
  const nav = `<nav class="toc" aria-label="On this page"><details open><summary>On this page</summary><ul>${items.join('\n')}</ul></details></nav>\n`;
  const end = body.indexOf('</h1>');
  return end < 0 ? nav + body : body.slice(0, end + 6) + nav + body.slice(end + 6);
}

/**
 * "O*NET" twice in a paragraph would turn the text between into emphasis: an asterisk between two
 * letters or digits is a literal one (outside code, where it is left alone).
 */
export function literalAsterisks(md: string): string {
  return md
    .split(/(```[\s\S]*?```|`[^`\n]*`)/g)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/([A-Za-z0-9])\*(?=[A-Za-z0-9])/g, '$1\\*')))
    .join('');
}

/** The docs pages; their examples are answered from the files already written (`read`). */
export async function renderDocs(read: ReadBuilt, model: ModelOutput, shape: Shape, repoRoot: string): Promise<EmittedFile[]> {
  const eta = templates();
  const page = (routeId: string, body: string): EmittedFile => {
    const urlPath = urlFor(routeId);
    return { path: fileFor(urlPath, 'page'), body, urlPath, routeId };
  };
  // Vote examples are real votes, so they need a database: a throwaway one in memory, with the
  // project's migrations, that lives only while the examples are made (never a real database).
  const throwaway = routesFor(shape).some((r) => r.id === 'occupation-votes') ? openSqliteVotes(':memory:') : null;
  let ref;
  try {
    ref = await referenceView(read, model, shape, throwaway?.store);
  } finally {
    throwaway?.close();
  }
  return [
    page('docs', eta.render('@site/docs', { meta: model.meta, shape, cite: citeView(), ...ref })),
    page('docs-embed', eta.render('@site/markdown', { meta: model.meta, pageTitle: 'How to embed a risk card', html: markdownPage(path.join(repoRoot, 'docs', 'EMBED.md')) })),
    page('docs-methodology', eta.render('@site/markdown', { meta: model.meta, pageTitle: 'How the score works: methodology', html: markdownPage(path.join(repoRoot, 'docs', 'METHODOLOGY.md')) })),
    page('docs-mcp', eta.render('@site/markdown', { meta: model.meta, pageTitle: 'The API as an MCP server', html: markdownPage(path.join(repoRoot, 'docs', 'MCP.md')) })),
  ];
}
