// The embeddable risk card: one self-contained HTML page per occupation (inline CSS, inline SVG
// gauge, no script, no other host), plus the /embed/ index and the 404 card. Rendered at build
// time from eta templates; everything here is pure apart from reading templates/ and the
// protective-factor labels (seeds/) once, so the same model gives the same bytes.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { Eta } from 'eta';
import { ProtectiveFactorsSeed } from '../model/params.ts';
import type { ModelOutput, OccupationRecord, RiskTier, Shape } from '../model/record-schemas.ts';
import { patternOf, urlFor } from '../contract/routes.ts';
import { CARD_VOTE_STATES } from '../contract/votes.ts';
import { majorGroup } from './soc-groups.ts';
import { iscoMajorName } from '../model/isco.ts';
import { mostProtective } from '../model/explanation.ts';
import { REPO_ROOT } from '../repo-root.ts';
import { SCOPE } from '../model/scope.ts';
import { scoreText } from './numbers.ts';
import { TIER_WORDS } from './tier-words.ts';

export interface EmbedPages<P extends Iterable<{ slug: string; html: string }> = Array<{ slug: string; html: string }>> {
  /** One card per occupation; the build takes them lazily (embedPages), one at a time. */
  pages: P;
  index: string;
  notFound: string;
}

const TEMPLATES_DIR = join(REPO_ROOT, 'templates');
const PROTECTIVE_SEED = join(REPO_ROOT, 'seeds', 'protective-factors.json');

let engine: Eta | undefined;
let factorLabels: Record<string, string> | undefined;

/** Factor names as the seed spells them for readers: one source for the card and the methodology. */
function labels(): Record<string, string> {
  if (factorLabels) return factorLabels;
  const seed = ProtectiveFactorsSeed.parse(JSON.parse(readFileSync(PROTECTIVE_SEED, 'utf8')));
  factorLabels = Object.fromEntries(Object.entries(seed.factors).map(([key, f]) => [key, f.label]));
  return factorLabels;
}

/** Reads every template once and registers it under '@<path without .eta>', e.g. '@partials/gauge'. */
export function templates(): Eta {
  if (engine) return engine;
  // autoEscape is the default; stated so nobody turns it off by accident: every value in these
  // pages comes from data.
  // Every template gets `url(id, params)`, the route table's URL builder, and `routePattern(id)`
  // (for the script to fill in) as locals: links are made from route ids, never typed as paths.
  const config = { autoEscape: true, autoTrim: [false, 'nl'] as [false, 'nl'], cache: true, functionHeader: 'const url = this.config.url, routePattern = this.config.routePattern;', url: urlFor, routePattern: patternOf };
  const eta = new Eta(config);
  for (const file of listTemplates(TEMPLATES_DIR)) {
    const name = relative(TEMPLATES_DIR, file).split(sep).join('/').replace(/\.eta$/, '');
    eta.loadTemplate(`@${name}`, readFileSync(file, 'utf8'));
  }
  engine = eta;
  return eta;
}

function listTemplates(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.isDirectory() ? listTemplates(join(dir, e.name)) : e.name.endsWith('.eta') ? [join(dir, e.name)] : []));
}

/** The seed's label; a key the seed does not know is humanised, so a new factor never breaks a card. */
export function factorLabel(key: string): string {
  const known = labels()[key];
  if (known) return known;
  const words = key.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The card's short words for what can lower a score (explanation keys: complementarity parts and the task mix). */
export const PROTECTIVE_WORDS: Record<string, string> = {
  education_experience: 'Education and experience',
  responsibility: 'Judgment and leadership',
  physical: 'Physical, hands-on work',
  interpersonal: 'Interpersonal work',
  technology: 'Technology work',
  exposure: 'Tasks AI cannot do',
  substitution: 'AI assists more than replaces',
};
/** What the card says when nothing it could name lowers the score. */
export const NOTHING_PROTECTIVE = 'Nothing lowers this score';

/** What lowers this score most in the model (explanation.mostProtective), in the card's words. */
export function protectiveWords(o: Pick<OccupationRecord, 'explanation'>): string {
  const best = mostProtective(o.explanation);
  return best ? (PROTECTIVE_WORDS[best.key] ?? best.label) : NOTHING_PROTECTIVE;
}

export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** Longer titles get a smaller type size so the longest O*NET titles (~105 characters) are shown whole (up to four lines). */
export function cardTitleSize(title: string): 'l' | 'm' | 's' | 'xs' {
  if (title.length <= 34) return 'l';
  if (title.length <= 70) return 'm';
  if (title.length <= 88) return 's';
  return 'xs';
}


function cardView(o: OccupationRecord, shape: Shape, meta: ModelOutput['meta'], dataVersion: string) {
  const r = o.risk_score;
  const tierWords = TIER_WORDS[r.risk_tier];
  const score = scoreText(r.final_score);
  // The shape decides which outlook the card gives: the years, or where the score ranks.
  const outlook =
    shape === 'timeline'
      ? {
          label: 'Adoption window',
          value:
            r.displacement_year_low === r.displacement_year_high
              ? String(r.displacement_year_low)
              : `${r.displacement_year_low}–${r.displacement_year_high}`,
        }
      : { label: 'Risk percentile', value: ordinal(r.risk_percentile) };
  return {
    title: o.title,
    titleSize: cardTitleSize(o.title),
    slug: o.slug,
    tier: r.risk_tier,
    tierWords,
    score,
    range: `${scoreText(r.score_low)}–${scoreText(r.score_high)}`,
    scope: SCOPE.short,
    confidence: r.confidence.charAt(0).toUpperCase() + r.confidence.slice(1),
    outlook,
    factor: protectiveWords(o),
    nextStep: nextStepWords(o),
    gauge: gaugeView(r.final_score, r.risk_tier),
    // The occupation's page, for people (it links the JSON). Absolute path on the site host: the
    // frame's own origin, so it works on every deployment.
    fullDataHref: urlFor('occupation-page', { slug: o.slug }),
    dataDate: dataDate(meta),
    dataVersion,
    // The timeline shape collects votes: a plain form posting to the votes endpoint on this origin.
    vote: shape === 'timeline' ? { action: urlFor('occupation-votes', { soc_code: o.soc_code }), states: CARD_VOTE_STATES } : null,
  };
}


/**
 * The guidance's one best next step in a few words for the card: the move or route by its title,
 * or what kind of advice it is (the page says the rest).
 */
export function nextStepWords(o: Pick<OccupationRecord, 'guidance' | 'transition_options'>): string {
  const s = o.guidance.next_step;
  const title = (list: ReadonlyArray<{ soc_code: string; title: string }>) => list.find((t) => t.soc_code === s.soc_code)?.title ?? s.text;
  switch (s.kind) {
    case 'move':
      return `Move: ${title(o.transition_options)}`;
    case 'route':
      return `Route: ${title(o.guidance.routes)}`;
    case 'focus':
      return 'Focus within the job';
    case 'stay':
      return 'Staying is the advice';
    case 'none':
      return 'None passes the rules';
  }
}

/** The card's gauge: the arc, the number, and the label read out in place of the drawing ("Exposure score 51 out of 100: high exposure"). */
export function gaugeView(score: number, tier: RiskTier) {
  const number = scoreText(score);
  // The arc is drawn with pathLength=100, so the dash length is simply the score.
  return { dash: Math.min(100, Math.max(0, score)).toFixed(1), number, label: `Exposure score ${number} out of 100: ${TIER_WORDS[tier].toLowerCase()}` };
}

export function dataDate(meta: ModelOutput['meta']): string {
  return `O*NET ${meta.onet_version} · OEWS ${meta.oews_period}`;
}

/** Plain code-unit order on lower-cased titles: locale-independent, so the index is byte-stable. */
export function byTitle(a: OccupationRecord, b: OccupationRecord): number {
  const x = a.title.toLowerCase();
  const y = b.title.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}

/** Text as it must appear inside a double-quoted HTML attribute. */
export function attributeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Every card, the index and the 404 card, rendered at once. */
export function renderEmbed(model: ModelOutput, shape: Shape, opts: { dataVersion: string }): EmbedPages {
  const lazy = embedPages(model, shape, opts);
  return { ...lazy, pages: [...lazy.pages] };
}

/** The same, with each card rendered only when it is reached (the build writes one and lets it go). */
export function embedPages(model: ModelOutput, shape: Shape, opts: { dataVersion: string }): EmbedPages<Iterable<{ slug: string; html: string }>> {
  const eta = templates();
  const pages = (function* () {
    for (const o of model.occupations) yield { slug: o.slug, html: eta.render('@embed-card', cardView(o, shape, model.meta, opts.dataVersion)) };
  })();
  const rows = [...model.occupations].sort(byTitle).map((o) => ({
    slug: o.slug,
    title: o.title,
    // What the gallery's filter matches: the title and the SOC code, lower-cased.
    search: `${o.title.toLowerCase()} ${o.soc_code}`,
    group: majorGroup(o.soc_code),
    score: scoreText(o.risk_score.final_score),
    tier: o.risk_score.risk_tier,
    tierWords: TIER_WORDS[o.risk_score.risk_tier],
  }));
  // Groups in SOC order, each listing its cards by title.
  const groups = new Map<string, { code: string; name: string; rows: typeof rows }>();
  for (const r of rows) {
    const g = groups.get(r.group.code) ?? { ...r.group, rows: [] };
    g.rows.push(r);
    groups.set(r.group.code, g);
  }
  // The ISCO-08 unit groups' cards after the U.S. ones, one section per major group.
  const iscoGroups = new Map<string, Array<{ slug: string; title: string; code: string; search: string; score: string; tier: string; tierWords: string }>>();
  for (const u of model.isco.units)
    iscoGroups.set(u.major_group, [
      ...(iscoGroups.get(u.major_group) ?? []),
      { slug: u.slug, title: u.title, code: u.isco_code, search: `${u.title.toLowerCase()} ${u.isco_code}`, score: scoreText(u.final_score), tier: u.risk_tier, tierWords: TIER_WORDS[u.risk_tier] },
    ]);
  const index = eta.render('@embed-index', {
    count: rows.length,
    iscoCount: model.isco.units.length,
    iscoGroups: [...iscoGroups.keys()].sort().map((digit) => ({ code: `isco-${digit}`, name: `ISCO-08 ${digit}: ${iscoMajorName(digit)}`, rows: [...iscoGroups.get(digit)!].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0)) })),
    groups: [...groups.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)),
    meta: model.meta,
    dataDate: dataDate(model.meta),
    dataVersion: opts.dataVersion,
    // The snippet is shown as text to be pasted into HTML, so the title inside its title="..."
    // must already be attribute-escaped (eta then escapes it once more for display).
    example: rows[0] ? { slug: rows[0].slug, titleAttr: attributeText(rows[0].title) } : null,
  });
  const notFound = eta.render('@embed-404', { dataVersion: opts.dataVersion });
  return { pages, index, notFound };
}
