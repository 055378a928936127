// Every file of dist/ except the function bundles, as (path -> body, schema) entries. Pure: the
// pipeline validates and writes them. Paths come from the route table (fileFor/fillPattern).
import { z } from 'zod';
import type { OccupationTitle } from '../model/inputs.ts';
import type { ModelOutput, Shape } from '../model/records.ts';
import { responseSchemas, shardSchemaFor, ProblemSchema, type ResponseSchemaKey } from '../model/api-schemas.ts';
import { PAGE_SHARD_SIZE, LIST_LIMIT, shardCount, pageShardName } from '../model/paging.ts';
import * as present from '../model/present.ts';
import { notFound, problemTypeDocs } from '../model/problem.ts';
import { fileFor, fillPattern, routesFor, shardFile, urlFor, NOT_FOUND_FILES, type RouteDef } from '../model/routes.ts';
import { buildSearchIndex } from '../model/search.ts';
import { versioned } from '../model/version.ts';
import { buildOpenApi } from './openapi.ts';
import { cloudflareRoutes, headersFile, netlifyToml } from './deploy.ts';
import { apiIndex, metaDocument } from './meta.ts';
import type { SitePages } from './site.ts';

export interface EmittedFile {
  path: string;
  body: string | Uint8Array;
  /** JSON files are parsed back and checked against this before anything is written. */
  schema?: z.core.$ZodType;
  /** The URL path a static route serves this file at (absent for shards and configs). */
  urlPath?: string;
  routeId?: string;
}

export interface EmbedPages {
  pages: Array<{ slug: string; html: string }>;
  index: string;
  notFound: string;
}

const json = (v: unknown) => JSON.stringify(v);
/** A response body: the record cut plus the model version every JSON answer carries. */
const body = (v: object) => JSON.stringify(versioned(v));

export function emitFiles(model: ModelOutput, shape: Shape, titles: OccupationTitle[], embed: EmbedPages | null, site: SitePages | null = null): EmittedFile[] {
  const schemas = responseSchemas(shape);
  const routes = new Map(routesFor(shape).map((r) => [r.id, r]));
  const files: EmittedFile[] = [];
  const add = (routeId: string, params: Record<string, string>, body: string | Uint8Array) => {
    const route: RouteDef = routes.get(routeId)!;
    const urlPath = fillPattern(route.pattern, params);
    const schema = route.schema ? (schemas[route.schema as ResponseSchemaKey] as z.core.$ZodType) : undefined;
    files.push({ path: fileFor(urlPath, route.body), body, schema, urlPath, routeId });
  };

  const occ = model.occupations;
  const items = occ.map(present.listItem);
  add('occupation-list', {}, json(present.listPage(items.slice(0, LIST_LIMIT.default), items.length, LIST_LIMIT.default, 0)));
  for (const r of occ) {
    const p = { soc_code: r.soc_code };
    add('occupation-detail', p, body(present.occupationDetail(r, shape)));
    add('occupation-tasks', p, body(present.occupationTasks(r)));
    add('occupation-risk', p, body(present.occupationRisk(r, shape)));
    if (routes.has('occupation-votes')) add('occupation-votes', p, body(present.occupationVotes(r)));
  }
  const industryList = present.industryList(model.industries);
  add('industry-list', {}, body(industryList));
  for (const r of model.industries) add('industry-detail', { naics_code: r.naics_code }, body(present.industryDetail(r)));
  add('factors', {}, body({ factors: model.factors }));
  for (const { name, doc } of problemTypeDocs()) add('problem-type', { problem: name }, json(doc));
  add('openapi', {}, json(buildOpenApi(shape, model.meta.data_version)));
  add('api-index', {}, json(apiIndex(model, shape)));
  add('meta', {}, json(metaDocument(model, shape)));

  if (embed) {
    add('embed-index', {}, embed.index);
    for (const p of embed.pages) add('embed-card', { slug: p.slug }, p.html);
    files.push({ path: NOT_FOUND_FILES.embed, body: embed.notFound });
  }
  if (site) {
    add('home', {}, site.home);
    for (const p of site.occupations) add('occupation-page', { slug: p.slug }, p.html);
    add('site-script', {}, site.script);
    add('downloads', {}, site.downloadsPage);
    for (const d of site.downloads) add(d.routeId, {}, d.body);
    files.push({ path: NOT_FOUND_FILES.page, body: site.notFound });
  }
  files.push({ path: NOT_FOUND_FILES.api, body: json(notFound(`${urlFor('api-index')}/`)), schema: ProblemSchema });

  // Function shards.
  const shards: Array<[string, unknown]> = [
    ['meta', { data_version: model.meta.data_version, shape, occupation_count: items.length, page_shard_size: PAGE_SHARD_SIZE, page_shards: shardCount(items.length, PAGE_SHARD_SIZE) }],
    ['search', buildSearchIndex(occ, titles)],
    ['assess', { factors: model.factors, tiers: model.tiers, occupations: Object.fromEntries(occ.map((r) => [r.soc_code, [r.title, r.risk_score.final_score]])) }],
    ['industries', industryList],
  ];
  for (let n = 0; n < shardCount(items.length, PAGE_SHARD_SIZE); n++) {
    shards.push([pageShardName(n), { offset: n * PAGE_SHARD_SIZE, items: items.slice(n * PAGE_SHARD_SIZE, (n + 1) * PAGE_SHARD_SIZE) }]);
  }
  if (routes.has('occupation-votes')) {
    shards.push(['votes', { occupations: Object.fromEntries(occ.map((r) => [r.soc_code, [r.slug, r.votes.agree, r.votes.too_high, r.votes.too_low]])) }]);
  }
  if (embed) shards.push(['embed-404', { html: embed.notFound }]);
  if (site) shards.push(['page-404', { html: site.notFound }]);
  for (const [name, value] of shards) files.push({ path: shardFile(name), body: json(value), schema: shardSchemaFor(name) });

  // Deploy configs.
  files.push({ path: '_headers', body: headersFile(shape) });
  files.push({ path: '_routes.json', body: cloudflareRoutes(shape) });
  files.push({ path: 'netlify.toml', body: netlifyToml(shape, staticPathsOf(files, shape)) });
  return files;
}

/** Every file a static route serves, with its URL path (Netlify needs one rewrite per file). */
function staticPathsOf(files: EmittedFile[], shape: Shape): { path: string; file: string }[] {
  const routes = new Map(routesFor(shape).map((r) => [r.id, r]));
  return files.filter((f) => f.urlPath && routes.get(f.routeId!)?.serve === 'static').map((f) => ({ path: f.urlPath!, file: f.path }));
}

/** Files added after emitFiles (the docs) need their Netlify rewrites too. */
export function refreshNetlifyToml(files: EmittedFile[], shape: Shape): void {
  const toml = files.find((f) => f.path === 'netlify.toml');
  if (toml) toml.body = netlifyToml(shape, staticPathsOf(files, shape));
}

/**
 * The table decides which routes have files: every static route at least one, a function route
 * exactly when it declares a default file (its no-query answer, for static previews), and no other.
 */
export function checkRouteFiles(files: Array<{ path: string; routeId?: string }>, shape: Shape): string[] {
  const counts = new Map<string, number>();
  for (const f of files) if (f.routeId) counts.set(f.routeId, (counts.get(f.routeId) ?? 0) + 1);
  const problems: string[] = [];
  for (const r of routesFor(shape)) {
    const wants = r.serve === 'static' || r.defaultFile === true;
    const n = counts.get(r.id) ?? 0;
    if (wants && n === 0) problems.push(`route ${r.id} (${r.pattern}) has no file`);
    if (!wants && n > 0) problems.push(`route ${r.id} is answered by the function only, yet ${n} file(s) were emitted for it`);
  }
  return problems;
}

/** Paths must be relative, normalized and unique: a duplicate slug or code is a build error. */
export function checkPaths(files: { path: string }[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const segs = f.path.split('/');
    if (f.path.startsWith('/') || segs.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\'))) problems.push(`unsafe output path: ${f.path}`);
    if (seen.has(f.path)) problems.push(`two files at ${f.path}`);
    seen.add(f.path);
  }
  return problems;
}

/** Parses every JSON body back and checks it against its schema; returns all failures. */
export function validateFiles(files: EmittedFile[]): string[] {
  const problems: string[] = [];
  for (const f of files) {
    if (!f.schema) continue;
    let value: unknown;
    try {
      value = JSON.parse(typeof f.body === 'string' ? f.body : new TextDecoder().decode(f.body));
    } catch (e) {
      problems.push(`${f.path}: not JSON (${(e as Error).message})`);
      continue;
    }
    const r = z.safeParse(f.schema, value);
    if (!r.success) {
      for (const i of r.error.issues.slice(0, 5)) problems.push(`${f.path}: ${i.path.join('.') || '(root)'}: ${i.message}`);
    }
  }
  return problems;
}
