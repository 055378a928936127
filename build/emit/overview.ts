// The overview for people: every occupation in one treemap (area = its workers, the OEWS code's
// employment split evenly among the occupations sharing it, as the model counts them, so each
// worker counts once; colour and label = score), grouped by SOC major group; the same
// occupations in a table; summaries per major group and per industry, and a page per industry.
// The treemaps are laid out here, at build time, as positioned HTML: no script draws them.
// Pure apart from the templates read once.
import type { IndustryRecord, ModelOutput, OccupationRecord, RiskTier } from '../model/record-schemas.ts';
import { majorGroup } from './soc-groups.ts';
import { industryDetail, occupationsBySoc } from '../contract/present.ts';
import { templates } from './embed.ts';
import { TIER_NAME, TIER_WORDS } from './tier-words.ts';
import { grouped, scoreText } from './numbers.ts';
import { squarify, type Rect } from './treemap.ts';

/** The wide picture's size in CSS pixels: the site's content width at 1280 px (60rem less padding). */
export const WIDE = { w: 928, h: 580 };
/** The phone picture's width (360 px less the page's padding) and the height all groups share. */
export const NARROW = { w: 328, h: 1500 };
/** Smallest tile a finger can hit (WCAG 2.5.8), with a pixel to spare for rounding. */
export const TOUCH_MIN = 25;
/** A phone group's strip is never lower than this, so that its one tile can be touched. */
const STRIP_MIN = 32;

/**
 * Score colours, one per 10 points (ColorBrewer YlOrRd, extended by one darker step), each with
 * the text colour that contrasts with it most (checked in the unit test to be at least 4.5:1).
 */
export const SCORE_COLOURS: ReadonlyArray<{ bg: string; fg: string }> = [
  { bg: '#ffffcc', fg: '#000' },
  { bg: '#ffeda0', fg: '#000' },
  { bg: '#fed976', fg: '#000' },
  { bg: '#feb24c', fg: '#000' },
  { bg: '#fd8d3c', fg: '#000' },
  { bg: '#fc4e2a', fg: '#000' },
  { bg: '#e31a1c', fg: '#fff' },
  { bg: '#bd0026', fg: '#fff' },
  { bg: '#800026', fg: '#fff' },
  { bg: '#4d0013', fg: '#fff' },
];
export const colourBin = (score: number): number => Math.min(9, Math.max(0, Math.floor(score / 10)));

const pct = (v: number, of: number) => `${Number(((v / of) * 100).toFixed(3))}%`;
const box = (r: Rect, of: { w: number; h: number }) => `left:${pct(r.x, of.w)};top:${pct(r.y, of.h)};width:${pct(r.w, of.w)};height:${pct(r.h, of.h)}`;
const shortGroup = (name: string) => name.replace(/ Occupations$/, '');
const signed = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x).toFixed(1)}%`;
const share = (x: number) => `${Math.round(x * 100)}%`;

interface Occ {
  rec: OccupationRecord;
  group: string;
  /** The occupation's own share of its OEWS code's employment (null: no current figure). */
  workers: number | null;
}

/** Employment, employment-weighted score and the share of workers in each tier, over occupations with workers. */
export function summarize(items: ReadonlyArray<{ workers: number | null; score: number; tier: RiskTier }>) {
  let workers = 0;
  let weighted = 0;
  const tiers: Record<RiskTier, number> = { low: 0, medium: 0, high: 0 };
  for (const i of items) {
    if (i.workers === null) continue;
    workers += i.workers;
    weighted += i.workers * i.score;
    tiers[i.tier] += i.workers;
  }
  return {
    workers,
    score: workers > 0 ? weighted / workers : null,
    tierShares: workers > 0 ? { low: tiers.low / workers, medium: tiers.medium / workers, high: tiers.high / workers } : null,
  };
}

/**
 * Tiles of one phone group, `width` wide and laid out in `height`: each occupation on its own
 * where its tile is at least TOUCH_MIN square, the rest merged into one tile that leads to the
 * group's rows of the table. The merged tile grows with what it takes in; if it is still too small,
 * the whole group becomes that one tile.
 */
export function phoneTiles(weights: readonly number[], width: number, height: number): { own: Array<{ index: number; rect: Rect }>; more: { indices: number[]; rect: Rect } | null } {
  const bounds = { x: 0, y: 0, w: width, h: height };
  let kept = weights.map((_, i) => i);
  let merged: number[] = [];
  for (;;) {
    const ws = kept.map((i) => weights[i]!);
    const mergedWeight = merged.reduce((a, i) => a + weights[i]!, 0);
    const rects = squarify(merged.length ? [...ws, mergedWeight] : ws, bounds);
    const small = kept.filter((_, k) => rects[k]!.w < TOUCH_MIN || rects[k]!.h < TOUCH_MIN);
    const moreRect = merged.length ? rects[rects.length - 1]! : null;
    if (small.length === 0) {
      if (moreRect && (moreRect.w < TOUCH_MIN || moreRect.h < TOUCH_MIN)) return { own: [], more: { indices: weights.map((_, i) => i), rect: bounds } };
      return { own: kept.map((index, k) => ({ index, rect: rects[k]! })), more: moreRect ? { indices: merged, rect: moreRect } : null };
    }
    merged = [...merged, ...small].sort((a, b) => a - b);
    kept = kept.filter((i) => !small.includes(i));
  }
}

function occupations(model: ModelOutput): Occ[] {
  return model.occupations.map((rec) => ({ rec, group: rec.soc_code.slice(0, 2), workers: rec.labor_data.employment_own_share }));
}

/**
 * How a tile's label is set (the overview's CSS: 11px text, line height 1.2, padding 2px 3px, the
 * wide picture's top tiles 1.1rem lower under their group's name), and a character's width taken
 * an average one's (each line also ends in an ellipsis in CSS, should a font run wider). The pictures
 * shrink with the page: lines are counted at the lowest each tile is drawn (the wide picture from
 * 48rem, the phone one at 320 px), so that none is cut through; their width at the page's full width.
 */
export const LABEL = { line: 13.2, padX: 6, padY: 4, topPad: 17.6, charPx: 6.4 } as const;
const WIDE_MIN_SCALE = (768 - 32) / WIDE.w;
const NARROW_MIN_SCALE = (320 - 32) / NARROW.w;

/**
 * The lines of a title that fit a tile of w x h pixels under its score line, whole words only
 * (an ellipsis ends a title cut short); none when not one word fits.
 */
export function labelLines(title: string, w: number, h: number, top = false): string[] {
  // (The small sum keeps an exact fit whole against floating-point rounding.)
  const perLine = Math.floor((w - LABEL.padX) / LABEL.charPx + 1e-9);
  const lines = Math.floor((h - LABEL.padY - LABEL.line - (top ? LABEL.topPad : 0)) / LABEL.line + 1e-9);
  const out: string[] = [];
  const words = title.split(/\s+/);
  let k = 0;
  while (out.length < lines && k < words.length) {
    let line = words[k]!;
    if (line.length > perLine) break;
    k++;
    while (k < words.length && line.length + 1 + words[k]!.length <= perLine) line += ` ${words[k++]}`;
    out.push(line);
  }
  if (k < words.length && out.length) {
    // Cut short: the last line ends with an ellipsis, dropping its last words until it fits.
    let last = out.pop()!;
    while (last.length + 1 > perLine && last.includes(' ')) last = last.slice(0, last.lastIndexOf(' '));
    last = last.replace(/[,;:]$/, '');
    out.push(last.length + 1 <= perLine ? `${last}…` : last);
  }
  return out;
}

/** A tile; `labelled`: large enough to show its score and what of its title fits; `top`: at its group's top edge, under the group's name in the wide picture. */
function tile(o: Occ, rect: Rect, of: { w: number; h: number }, labelled: boolean, heightScale: number, top = false) {
  const s = o.rec.risk_score;
  const shown = labelled ? labelLines(o.rec.title, rect.w, rect.h * heightScale, top) : [];
  // A title cut short: its ellipsis drawn by CSS, its other words kept for screen readers (hidden).
  const cut = shown.at(-1)?.endsWith('…') ?? false;
  const lines = shown.map((l) => l.replace(/…$/, ''));
  const rest = o.rec.title.split(/\s+/).slice(lines.join(' ').split(' ').filter(Boolean).length).join(' ');
  return { href: o.rec.slug, title: o.rec.title, lines, cut, rest, score: scoreText(s.final_score), bin: colourBin(s.final_score), style: box(rect, of), labelled, top };
}

/** The view of /overview/: both treemaps, the table, the group and industry summaries. */
export function overviewView(model: ModelOutput) {
  const occ = occupations(model);
  const byGroup = new Map<string, Occ[]>();
  for (const o of [...occ].sort((a, b) => b.rec.risk_score.final_score - a.rec.risk_score.final_score || (a.rec.soc_code < b.rec.soc_code ? -1 : 1))) {
    const list = byGroup.get(o.group) ?? [];
    list.push(o);
    byGroup.set(o.group, list);
  }
  const groups = [...byGroup.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([code, list]) => {
      const name = majorGroup(`${code}-0000`).name;
      const sum = summarize(list.map((o) => ({ workers: o.workers, score: o.rec.risk_score.final_score, tier: o.rec.risk_score.risk_tier })));
      return { code, name, short: shortGroup(name), list, drawn: list.filter((o) => o.workers !== null && o.workers > 0), ...sum };
    });
  const total = summarize(occ.map((o) => ({ workers: o.workers, score: o.rec.risk_score.final_score, tier: o.rec.risk_score.risk_tier })));
  const drawnGroups = groups.filter((g) => g.drawn.length > 0);

  // The wide picture: groups by their workers, then each group's occupations inside it.
  const groupRects = squarify(drawnGroups.map((g) => g.workers), { x: 0, y: 0, ...WIDE });
  const wide = drawnGroups.map((g, gi) => {
    const r = groupRects[gi]!;
    const inner = squarify(g.drawn.map((o) => o.workers!), { x: 0, y: 0, w: r.w, h: r.h });
    return {
      code: g.code,
      short: g.short,
      style: box(r, WIDE),
      tiles: g.drawn.map((o, k) => tile(o, inner[k]!, r, inner[k]!.w >= 64 && inner[k]!.h >= 30, WIDE_MIN_SCALE, inner[k]!.y < 0.5)),
    };
  });

  // The phone picture: one strip per group, the full width, as high as its workers need at one
  // scale for all (so areas compare across groups), with untouchable tiles merged.
  const perPixel = (NARROW.w * NARROW.h) / total.workers;
  const narrow = drawnGroups.map((g) => {
    const height = Math.max(STRIP_MIN, (g.workers * perPixel) / NARROW.w);
    const of = { w: NARROW.w, h: height };
    const t = phoneTiles(g.drawn.map((o) => o.workers!), NARROW.w, height);
    return {
      code: g.code,
      short: g.short,
      ratio: `${NARROW.w}/${Number(height.toFixed(1))}`,
      tiles: t.own.map(({ index, rect }) => tile(g.drawn[index]!, rect, of, rect.w >= 64 && rect.h >= 30, NARROW_MIN_SCALE)),
      more: t.more ? { count: t.more.indices.length, style: box(t.more.rect, of), wide: t.more.rect.w >= 64 && t.more.rect.h >= 30 } : null,
    };
  });

  const notDrawn = occ.filter((o) => o.workers === null || o.workers <= 0).map((o) => ({ slug: o.rec.slug, title: o.rec.title }));
  const tierShares = (t: typeof total.tierShares) => (t ? { low: share(t.low), medium: share(t.medium), high: share(t.high) } : null);

  const bySoc = occupationsBySoc(model.occupations);
  const sectors = model.industries
    .filter((i) => i.level === 2)
    .map((i) => {
      const d = industryDetail(i, bySoc);
      const sum = summarize(d.occupations.map((o) => ({ workers: o.employment, score: o.final_score, tier: o.risk_tier })));
      return { code: i.naics_code, title: i.title, employment: grouped(i.employment), score: i.weighted_risk_score === null ? 'n/a' : scoreText(i.weighted_risk_score), tiers: tierShares(sum.tierShares) };
    });

  return {
    meta: model.meta,
    count: occ.length,
    drawnCount: occ.length - notDrawn.length,
    notDrawn,
    totalWorkers: Math.round(total.workers),
    totalText: grouped(Math.round(total.workers)),
    totalScore: total.score === null ? 'n/a' : scoreText(total.score),
    totalTiers: tierShares(total.tierShares),
    colours: SCORE_COLOURS.map((c, i) => ({ ...c, from: i * 10, to: i === 9 ? 100 : i * 10 + 10 })),
    tiers: model.tiers.map((t, i) => ({ words: TIER_WORDS[t.tier], min: t.min, last: i === model.tiers.length - 1 })),
    size: WIDE,
    wide,
    narrow,
    groups: groups.map((g) => ({
      code: g.code,
      name: g.name,
      short: g.short,
      count: g.list.length,
      workers: grouped(Math.round(g.workers)),
      workerShare: `${((g.workers / total.workers) * 100).toFixed(1)}%`,
      score: g.score === null ? 'n/a' : scoreText(g.score),
      tiers: tierShares(g.tierShares),
      rows: g.list.map((o) => {
        const s = o.rec.risk_score;
        const change = o.rec.labor_data.projected_employment_change_pct;
        return {
          slug: o.rec.slug,
          title: o.rec.title,
          score: scoreText(s.final_score),
          scoreValue: s.final_score,
          range: `${scoreText(s.score_low)}–${scoreText(s.score_high)}`,
          tier: s.risk_tier,
          tierWords: TIER_NAME[s.risk_tier],
          workers: o.workers === null ? null : Math.round(o.workers),
          workersText: o.workers === null ? 'n/a' : grouped(Math.round(o.workers)),
          change,
          changeText: change === null ? 'n/a' : signed(change),
        };
      }),
    })),
    sectors,
  };
}

/** The NAICS code of an industry's parent on the site: a 4-digit group's 3-digit subsector, a subsector's sector. */
function parentOf(i: IndustryRecord, all: readonly IndustryRecord[]): IndustryRecord | null {
  if (i.level === 2) return null;
  if (i.level === 4) return all.find((p) => p.naics_code === i.naics_code.slice(0, 3)) ?? null;
  const two = Number(i.naics_code.slice(0, 2));
  return (
    all.find((p) => {
      if (p.level !== 2) return false;
      const [a, b] = p.naics_code.split('-').map(Number);
      return two >= a! && two <= (b ?? a!);
    }) ?? null
  );
}

/** The view of one industry's page. */
export function industryView(i: IndustryRecord, model: ModelOutput, bySoc: ReturnType<typeof occupationsBySoc>) {
  const d = industryDetail(i, bySoc);
  const sum = summarize(d.occupations.map((o) => ({ workers: o.employment, score: o.final_score, tier: o.risk_tier })));
  const parent = parentOf(i, model.industries);
  const children = model.industries.filter((c) => c !== i && parentOf(c, model.industries) === i).map((c) => ({ code: c.naics_code, title: c.title }));
  return {
    meta: model.meta,
    code: i.naics_code,
    title: i.title,
    level: i.level,
    employment: grouped(i.employment),
    score: i.weighted_risk_score === null ? 'n/a' : scoreText(i.weighted_risk_score),
    tiers: sum.tierShares ? { low: share(sum.tierShares.low), medium: share(sum.tierShares.medium), high: share(sum.tierShares.high) } : null,
    source: i.occupations_source.note,
    parent: parent ? { code: parent.naics_code, title: parent.title } : null,
    children,
    rows: [...d.occupations]
      .sort((a, b) => b.employment - a.employment || (a.soc_code < b.soc_code ? -1 : 1))
      .map((o) => ({ slug: o.slug, title: o.title, score: scoreText(o.final_score), tier: o.risk_tier, tierWords: TIER_NAME[o.risk_tier], employment: grouped(o.employment), share: `${(o.share * 100).toFixed(1)}%` })),
  };
}

/** The overview page and one page per industry, rendered when reached. */
export function renderOverview(model: ModelOutput): { page: () => string; industries: Iterable<{ code: string; html: () => string }> } {
  const eta = templates();
  // Each page rendered when its html() is called: a build of both shapes renders it once.
  return {
    page: () => eta.render('@site/overview', overviewView(model)),
    industries: (function* () {
      const bySoc = occupationsBySoc(model.occupations);
      for (const i of model.industries) yield { code: i.naics_code, html: () => eta.render('@site/industry', industryView(i, model, bySoc)) };
    })(),
  };
}
