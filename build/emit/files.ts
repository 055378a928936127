// Every file of dist/ except the function bundles and the docs, as (path -> body, schema) entries,
// produced one at a time: the pipeline validates, writes and drops each before the next is made,
// so the whole dist is never in memory. Pure apart from the archive's compression on the thread
// pool. Paths come from the route table (fileFor/fillPattern).
import { buildListOrders, LIST_ORDERS_SHARD } from '../contract/list-orders.ts';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ModelOutput, Shape } from '../model/record-schemas.ts';
import { responseSchemas, shardSchemaFor, ProblemSchema, type ResponseSchemaKey } from '../contract/response-schemas.ts';
import { PAGE_SHARD_SIZE, LIST_LIMIT, shardCount, pageShardName } from '../contract/paging.ts';
import * as present from '../contract/present.ts';
import { notFound, problemTypeDocs } from '../contract/problem.ts';
import { fileFor, shardFile, taskShardName, NOT_FOUND_FILES, SEARCH_PART_SHARDS, SLUGS_SHARD, UNSCORED_SHARD } from '../contract/dist-layout.ts';
import { fillPattern, releaseUrlFor, routeById, routesFor, urlFor, type RouteDef } from '../contract/routes.ts';
import { postingShardName, vocabulary, type SplitPart, type WholeSearchIndex } from '../contract/search-words.ts';
import { packedProblem } from '../contract/search-pack.ts';
import { buildIscoSearchIndex, buildTypoIndex } from '../search-index.ts';
import { typoShardName } from '../contract/search-typos.ts';
import { pageHashes } from '../contract/content-hash.ts';
import type { Meta } from '../contract/site-schemas.ts';
import { versioned } from '../model/version.ts';
import { buildOpenApi } from './openapi.ts';
import { cloudflareRoutes, headersFile, netlifyToml } from './deploy.ts';
import type { EmbedPages } from './embed.ts';
import { apiIndex } from './meta.ts';
import type { SitePages } from './site.ts';
import { iscoCards, iscoIndexPage, iscoPages } from './isco-pages.ts';
import { renderOverview } from './overview.ts';
import { changesPage } from './changes-page.ts';
import type { ReleaseContext } from '../releases/load.ts';
import type { RegisteredFile } from '../releases/registered.ts';
import { isFileBody, type Body, type FileBody } from './file-body.ts';

export interface EmittedFile {
  path: string;
  body: Body;
  /** JSON files are checked against this before anything is written (validateFile). */
  schema?: z.core.$ZodType;
  /**
   * The value a JSON body was stringified from, in the same expression (json()): the schema checks
   * it as it is instead of the body parsed back (validateFile).
   */
  value?: unknown;
  /** The URL path a static route serves this file at (absent for shards and configs). */
  urlPath?: string;
  routeId?: string;
  /**
   * Made without the shape (ShapeFree): the same bytes in every shape. Set on a file this emit
   * made, for a later shape of the build to copy (made again, it would be the same).
   */
  shapeFree?: true;
}

/**
 * Shape-free files an earlier shape of this build wrote and checked, by path: a later shape copies
 * them (their body a file of the earlier out folder) instead of making and checking them again,
 * when its schema for the file is the very one the earlier shape checked it against.
 */
export type ShapeFree = ReadonlyMap<string, { body: FileBody; schema: z.core.$ZodType | undefined }>;

/** What the files after the stream need to know about each emitted file (no body). */
export type FileInfo = Pick<EmittedFile, 'path' | 'urlPath' | 'routeId'>;

/** A JSON body and the value it is made from, kept together so the value checked is the value written. */
interface JsonBody {
  body: string;
  value: unknown;
}
const json = (value: unknown): JsonBody => ({ body: JSON.stringify(value), value });
/** A response body: the record cut plus the model version every JSON answer carries. */
const body = (v: object) => json(versioned(v));

/**
 * The files in a fixed order (the Netlify rewrites follow it). The deploy configs that list other
 * files (netlify.toml) are not among them: the pipeline makes them from the FileInfo of everything
 * written, docs included (deployConfigs).
 */
export async function* emitFiles(
  model: ModelOutput,
  shape: Shape,
  /** Made with the model (build/model-stage.ts): the search index, and /meta (whose build id is the records' digest's). */
  { search, meta, releases, registered = [] }: { search: WholeSearchIndex; meta: Meta; releases: ReleaseContext; registered?: ReadonlyArray<Pick<RegisteredFile, 'name' | 'body'>> },
  embed: EmbedPages<Iterable<{ slug: string; html: string }>> | null,
  site: SitePages | null = null,
  /** Files an earlier shape of this build made that are the same in this one (none: all are made). */
  madeBefore: ShapeFree = new Map(),
): AsyncGenerator<EmittedFile> {
  const routes = new Map(routesFor(shape).map((r) => [r.id, r]));
  const { file, shapeFree } = routeFiles(shape, routes, madeBefore);

  const occ = model.occupations;
  const items = occ.map(present.listItem);
  yield file('occupation-list', {}, json(present.listPage(items.slice(0, LIST_LIMIT.default), items.length, LIST_LIMIT.default, 0)));
  for (const r of occ) {
    const p = { soc_code: r.soc_code };
    yield file('occupation-detail', p, body(present.occupationDetail(r, shape)));
    yield shapeFree('occupation-tasks', p, () => body(present.occupationTasks(r)));
    yield file('occupation-risk', p, body(present.occupationRisk(r, shape)));
    if (routes.has('occupation-votes')) yield file('occupation-votes', p, body(present.occupationVotes(r)));
  }
  const industryList = present.industryList(model.industries.map(present.industryListItem));
  yield shapeFree('industry-list', {}, () => body(industryList));
  const bySoc = present.occupationsBySoc(occ);
  for (const r of model.industries) yield shapeFree('industry-detail', { naics_code: r.naics_code }, () => body(present.industryDetail(r, bySoc)));
  const iscoItems = model.isco.units.map(present.iscoListItem);
  yield shapeFree('isco-list', {}, () => body(present.iscoListPage(iscoItems.slice(0, LIST_LIMIT.default), iscoItems.length, LIST_LIMIT.default, 0)));
  for (const r of model.isco.units) yield shapeFree('isco-detail', { isco_code: r.isco_code }, () => body(present.iscoDetail(r)));
  yield file('factors', {}, body({ factors: model.factors, notes: model.factor_notes }));
  for (const { name, doc } of problemTypeDocs()) yield shapeFree('problem-type', { problem: name }, () => json(doc));
  yield file('openapi', {}, json(buildOpenApi(shape, model.meta.data_version)));
  // The committed bytes themselves (never re-serialized), so the sha256 in /meta and releases/ holds.
  for (const r of registered) yield { ...file('registered-file', { registered_file: r.name }, r.body), value: JSON.parse(Buffer.from(r.body).toString('utf8')) };
  yield file('api-index', {}, json(apiIndex(model, shape)));
  yield file('changes', {}, body(present.changes(releases.changes)));

  if (embed) {
    yield file('embed-index', {}, embed.index);
    for (const p of embed.pages) yield file('embed-card', { slug: p.slug }, p.html);
    for (const p of iscoCards(model, { dataVersion: model.meta.data_version })) yield file('embed-isco-card', { isco_slug: p.slug }, p.html);
    yield { path: NOT_FOUND_FILES.embed, body: embed.notFound };
  }
  if (site) yield* siteFiles(file, shapeFree, model, releases, meta, site);
  else yield file('meta', {}, json(meta));
  yield { path: NOT_FOUND_FILES.api, ...json(notFound(`${urlFor('api-index')}/`)), schema: ProblemSchema };

  // Function shards.
  const servedTypos = buildTypoIndex(vocabulary(search), search.width);
  // A third element true: a shard made without the shape (see shapeFree above).
  const shards: Array<[string, () => unknown, true?]> = [
    ['meta', () => ({ data_version: model.meta.data_version, shape, occupation_count: items.length, page_shard_size: PAGE_SHARD_SIZE, page_shards: shardCount(items.length, PAGE_SHARD_SIZE) })],
    // The search index without its postings, which follow as shards of their own, a bucket each,
    // without its titles and ids by length, a shard each, and without the unscored occupations'
    // index, a shard of its own (a cold search mostly needs none of them: search-words.ts).
    // Its typo index too (search-typos.ts), a shard per two characters, loaded as queries need them.
    ['search', () => ({ ...servedIndex(search), typo_shards: servedTypos.parts, postings: [] })],
    ['assess', () => ({
      factors: model.factors,
      tiers: model.tiers,
      occupations: Object.fromEntries(occ.map((r) => [r.soc_code, [r.title, r.risk_score.final_score, r.risk_score.exposure_score, r.risk_score.score_low, r.risk_score.score_high]])),
      task_scale: model.task_scale,
    })],
    ['industries', () => industryList],
    [SLUGS_SHARD, () => ({ slugs: Object.fromEntries(occ.map((r) => [r.slug, r.soc_code])) })],
    [LIST_ORDERS_SHARD, () => buildListOrders(occ.map((r, i) => ({ ...items[i]!, employment: r.labor_data.employment })))],
    ['isco', () => ({ items: iscoItems, unscored: model.isco.unscored })],
    ['isco-search', () => buildIscoSearchIndex(model.isco.units, model.isco.alternate_titles)],
  ];
  const problem = packedProblem(search);
  if (problem) throw new Error(`search index: ${problem}`);
  search.postings.forEach((postings, b) => shards.push([postingShardName('search', b), () => ({ postings }), true]));
  for (const [part, name] of Object.entries(SEARCH_PART_SHARDS) as Array<[SplitPart, string]>) shards.push([name, () => ({ [part]: search[part] })]);
  // Every build has them (the schema of "search" asks for unscored_words): a missing one is a bug.
  if (!search.unscored) throw new Error('search index: no unscored occupations index');
  const { occupations, index: unscored } = search.unscored;
  const unscoredTypos = buildTypoIndex(vocabulary(unscored), unscored.width);
  shards.push([UNSCORED_SHARD, () => ({ occupations, index: { ...unscored, typo_shards: unscoredTypos.parts, postings: [] } })]);
  unscored.postings.forEach((postings, b) => shards.push([postingShardName(UNSCORED_SHARD, b), () => ({ postings }), true]));
  for (const [name, typos] of [['search', servedTypos], [UNSCORED_SHARD, unscoredTypos]] as const) {
    for (const [part, keys] of typos.shards) shards.push([typoShardName(name, part), () => ({ typos: keys }), true]);
  }
  for (let n = 0; n < shardCount(items.length, PAGE_SHARD_SIZE); n++) {
    shards.push([pageShardName(n), () => {
      const json = items.slice(n * PAGE_SHARD_SIZE, (n + 1) * PAGE_SHARD_SIZE).map((i) => JSON.stringify(i));
      return { offset: n * PAGE_SHARD_SIZE, items: json, ...pageHashes(n * PAGE_SHARD_SIZE, json) };
    }, true]);
  }
  if (routes.has('occupation-votes')) {
    shards.push(['votes', () => ({ occupations: Object.fromEntries(occ.map((r) => [r.soc_code, [r.slug, r.votes.agree, r.votes.too_high, r.votes.too_low]])) })]);
  }
  for (const r of occ) {
    const basis = model.task_bases[r.soc_code];
    // Every scored occupation has one (computeModel makes them together): a missing one is a bug, not data.
    if (!basis) throw new Error(`no task basis for ${r.soc_code}`);
    shards.push([taskShardName(r.soc_code), () => basis, true]);
  }
  if (embed) shards.push(['embed-404', () => ({ html: embed.notFound })]);
  if (site) shards.push(['page-404', () => ({ html: site.notFound })]);
  for (const [name, value, free] of shards) yield shardFileOf(name, value, free === true, madeBefore);

  // Deploy configs that list no files.
  yield { path: '_headers', body: headersFile(shape, model.meta.data_version) };
  yield { path: '_routes.json', body: cloudflareRoutes(shape) };
}

/** How a route's files are made: `file` from its content, `shapeFree` from a maker that does not depend on the shape. */
function routeFiles(shape: Shape, routes: ReadonlyMap<string, RouteDef>, madeBefore: ShapeFree) {
  const schemas = responseSchemas(shape);
  const placed = (routeId: string, params: Record<string, string>) => {
    const route = routes.get(routeId)!;
    const urlPath = fillPattern(route.pattern, params);
    const schema = route.schema ? (schemas[route.schema as ResponseSchemaKey] as z.core.$ZodType) : undefined;
    return { path: fileFor(urlPath, route.body), schema, urlPath, routeId };
  };
  const file = (routeId: string, params: Record<string, string>, content: Body | JsonBody): EmittedFile => {
    const made = typeof content === 'string' || content instanceof Uint8Array || isFileBody(content) ? { body: content } : content;
    return { ...placed(routeId, params), ...made };
  };
  /**
   * A file made without the shape: `make` must not depend on it (test/unit/build/emit/shape-free.test.ts
   * checks that each such file is the same in both shapes). Taken from an earlier shape that made it.
   */
  const shapeFree = (routeId: string, params: Record<string, string>, make: () => Body | JsonBody): EmittedFile => {
    const at = placed(routeId, params);
    const before = madeBefore.get(at.path);
    if (before && before.schema === at.schema) return { path: at.path, body: before.body, urlPath: at.urlPath, routeId };
    return { ...file(routeId, params, make()), shapeFree: true };
  };
  return { file, shapeFree };
}

/** A function shard's file; a shape-free one (`free`) taken from an earlier shape that made it. */
function shardFileOf(name: string, value: () => unknown, free: boolean, madeBefore: ShapeFree): EmittedFile {
  const at = { path: shardFile(name), schema: shardSchemaFor(name) as z.core.$ZodType | undefined };
  const before = free ? madeBefore.get(at.path) : undefined;
  if (before && before.schema === at.schema) return { path: at.path, body: before.body };
  return { ...at, ...json(value()), ...(free ? { shapeFree: true as const } : {}) };
}

/** The site's pages and downloads, then /meta, which lists every download's sha256. */
async function* siteFiles(
  file: (routeId: string, params: Record<string, string>, content: Body | JsonBody) => EmittedFile,
  shapeFree: (routeId: string, params: Record<string, string>, make: () => Body | JsonBody) => EmittedFile,
  model: ModelOutput,
  releases: ReleaseContext,
  meta: Meta,
  site: SitePages,
): AsyncGenerator<EmittedFile> {
  yield file('home', {}, site.home);
  for (const p of site.occupations) yield file('occupation-page', { slug: p.slug }, p.html);
  yield shapeFree('isco-index', {}, () => iscoIndexPage(model));
  for (const p of iscoPages(model)) yield shapeFree('isco-page', { isco_slug: p.slug }, p.html);
  yield file('docs-changes', {}, changesPage(model, releases));
  const overview = renderOverview(model);
  yield shapeFree('overview', {}, overview.page);
  for (const p of overview.industries) yield shapeFree('industry-page', { naics_code: p.code }, p.html);
  yield file('site-script', {}, site.script);
  const { page, files } = await site.downloads();
  // /meta lists every download's sha256; each body is let go once it is handed on (the database
  // and the tables' texts are the emit's largest files).
  const versioned = (id: string) => (routeById(id).release ? { release_url: releaseUrlFor(id, model.meta.data_version) } : {});
  const listed = files.map((d) => ({ url: urlFor(d.routeId), ...versioned(d.routeId), bytes: d.bytes, sha256: d.sha256 }));
  yield file('downloads', {}, page);
  for (let d = files.shift(); d; d = files.shift()) yield file(d.routeId, {}, d.body);
  yield { path: NOT_FOUND_FILES.page, body: site.notFound };
  yield file('meta', {}, json({ ...meta, downloads: listed }));
}

/** The served occupations' index without the unscored ones' (their shard is UNSCORED_SHARD) and the parts that are shards of their own. */
function servedIndex({ unscored: _, titles: _t, by_length: _b, ...served }: WholeSearchIndex): Omit<WholeSearchIndex, 'unscored' | SplitPart> {
  return served;
}

/** The deploy configs made from the list of files: Netlify needs one rewrite per static file. */
export function deployConfigs(files: readonly FileInfo[], shape: Shape, dataVersion: string): EmittedFile[] {
  return [{ path: 'netlify.toml', body: netlifyToml(shape, staticPathsOf(files, shape, dataVersion)) }];
}

/**
 * Every file a static route serves, with its URL path, in emission order; a release file twice,
 * by its path and by its versioned name (the same file: a rewrite, not a copy).
 */
function staticPathsOf(files: readonly FileInfo[], shape: Shape, dataVersion: string): { path: string; file: string }[] {
  const routes = new Map(routesFor(shape).map((r) => [r.id, r]));
  return files.flatMap((f) => {
    const r = f.urlPath ? routes.get(f.routeId!) : undefined;
    if (r?.serve !== 'static') return [];
    const own = { path: f.urlPath!, file: f.path };
    return r.release ? [own, { path: releaseUrlFor(r.id, dataVersion), file: f.path }] : [own];
  });
}

/**
 * The table decides which routes have files: every static route at least one, a function route
 * exactly when it declares a default file (its no-query answer, for static previews), and no other.
 */
/**
 * Routes with one file per ISCO-08 unit group: a build without the optional BLS crosswalks (the
 * source report names them missing) has no unit group, so these routes have no file.
 */
export const ISCO_UNIT_ROUTES: ReadonlySet<string> = new Set(['isco-detail', 'embed-isco-card', 'isco-page']);

/** Every static route has a file (but `mayBeEmpty`, whose data the build lacks) and no function-only route has one. */
export function checkRouteFiles(files: Array<{ path: string; routeId?: string }>, shape: Shape, mayBeEmpty: ReadonlySet<string> = new Set()): string[] {
  const counts = new Map<string, number>();
  for (const f of files) if (f.routeId) counts.set(f.routeId, (counts.get(f.routeId) ?? 0) + 1);
  const problems: string[] = [];
  for (const r of routesFor(shape)) {
    const wants = r.serve === 'static' || r.defaultFile === true;
    const n = counts.get(r.id) ?? 0;
    if (wants && n === 0 && !mayBeEmpty.has(r.id)) problems.push(`route ${r.id} (${r.pattern}) has no file`);
    if (!wants && n > 0) problems.push(`route ${r.id} is answered by the function only, yet ${n} file(s) were emitted for it`);
  }
  return problems;
}

/** Paths must be relative, normalized and unique: a duplicate slug or code is a build error. */
export function checkPaths(files: { path: string }[]): string[] {
  const seen = new Set<string>();
  return files.flatMap((f) => pathProblems(f.path, seen));
}

/** checkPaths for one more file; `seen` holds the paths before it. */
export function pathProblems(p: string, seen: Set<string>): string[] {
  const problems: string[] = [];
  const segs = p.split('/');
  if (p.startsWith('/') || segs.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\'))) problems.push(`unsafe output path: ${p}`);
  if (seen.has(p)) problems.push(`two files at ${p}`);
  seen.add(p);
  return problems;
}

/**
 * Checks a JSON file against its schema; the failures (none for a file without schema). A file
 * made by json() is checked through the value its body was stringified from: parsing every body
 * back cost time and as much garbage, and the schema is at least as strict on the value
 * as on its JSON round trip (NaN, Infinity, a Date or undefined in an array fail here, where the
 * round trip would have turned them into null or a string). Any other body is parsed back.
 */
export function validateFile(f: EmittedFile): string[] {
  if (!f.schema) return [];
  let value: unknown;
  if ('value' in f) value = f.value;
  else {
    try {
      value = JSON.parse(typeof f.body === 'string' ? f.body : isFileBody(f.body) ? readFileSync(f.body.file, 'utf8') : new TextDecoder().decode(f.body));
    } catch (e) {
      return [`${f.path}: not JSON (${(e as Error).message})`];
    }
  }
  const r = z.safeParse(f.schema, value);
  return r.success ? [] : r.error.issues.slice(0, 5).map((i) => `${f.path}: ${i.path.join('.') || '(root)'}: ${i.message}`);
}
