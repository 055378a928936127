// The ISCO-08 unit groups for people: a page per unit group (/isco/<slug>) and an embeddable card
// (/embed/isco/<slug>), rendered with the card's engine. Both say that the tasks and the weights
// are American, and neither shows a U.S. wage. Pure apart from the templates read once.
import type { IscoRecord, JobEvidence, ModelOutput } from '../model/record-schemas.ts';
import { urlFor } from '../contract/routes.ts';
import { SCOPE } from '../model/scope.ts';
import { iscoMajorName as majorName } from '../model/isco.ts';
import { attributeText, cardTitleSize, dataDate, gaugeView, templates } from './embed.ts';
import { TIER_WORDS } from './tier-words.ts';
import { scoreText } from './numbers.ts';

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const range = (u: IscoRecord) => `${scoreText(u.score_low)}–${scoreText(u.score_high)}`;

/** One card per scored unit group, each rendered when it is reached. */
export function* iscoCards(model: ModelOutput, opts: { dataVersion: string }): Generator<{ slug: string; html: string }> {
  const eta = templates();
  for (const u of model.isco.units) {
    const score = scoreText(u.final_score);
    const tierWords = TIER_WORDS[u.risk_tier];
    yield {
      slug: u.slug,
      html: eta.render('@embed-isco-card', {
        code: u.isco_code,
        title: u.title,
        titleSize: cardTitleSize(u.title),
        tier: u.risk_tier,
        tierWords,
        score,
        confidence: capital(u.confidence),
        range: range(u),
        scope: SCOPE.short,
        usCount: u.us_occupations.length,
        gauge: gaugeView(u.final_score, u.risk_tier),
        fullDataHref: urlFor('isco-page', { isco_slug: u.slug }),
        dataDate: dataDate(model.meta),
        dataVersion: opts.dataVersion,
      }),
    };
  }
}

/** The U.S. occupation's evidence in two cells (issue 44): Table 1.12 statements by direction, the 2024-34 change. */
function evidenceCells(e: JobEvidence): { statements: string; change: string } {
  const rise = e.bls_statements.filter((s) => s.share === 'rises').length;
  const fall = e.bls_statements.length - rise;
  const c = e.projection.change_pct;
  return { statements: e.bls_statements.length === 0 ? 'none' : [rise > 0 ? `${rise} rises` : '', fall > 0 ? `${fall} falls` : ''].filter(Boolean).join(', '), change: c === null ? 'n/a' : `${c > 0 ? '+' : ''}${c}%` };
}

/** /isco/: every scored unit group under its major group (in code order), with the alternate titles that find it. */
export function iscoIndexPage(model: ModelOutput): string {
  const alternates = alternatesByCode(model);
  const groups = new Map<string, IscoRecord[]>();
  for (const u of model.isco.units) groups.set(u.major_group, [...(groups.get(u.major_group) ?? []), u]);
  return templates().render('@site/isco-index', {
    meta: model.meta,
    count: model.isco.units.length,
    unscored: model.isco.unscored.length,
    scope: SCOPE.sentence,
    examples: model.isco.alternate_titles.slice(0, 6).map((a) => a.title),
    groups: [...groups.keys()].sort((a, b) => (a === '0' ? 1 : b === '0' ? -1 : a < b ? -1 : 1)).map((digit) => ({
      digit,
      name: majorName(digit),
      units: groups.get(digit)!.map((u) => ({ code: u.isco_code, title: u.title, slug: u.slug, score: scoreText(u.final_score), tier: u.risk_tier, tierWords: TIER_WORDS[u.risk_tier], also: (alternates.get(u.isco_code) ?? []).map((a) => a.title) })),
    })),
  });
}

function alternatesByCode(model: ModelOutput) {
  const out = new Map<string, ModelOutput['isco']['alternate_titles']>();
  for (const a of model.isco.alternate_titles) out.set(a.isco_code, [...(out.get(a.isco_code) ?? []), a]);
  return out;
}

/** One page per scored unit group, each rendered when its html() is called (a build of both shapes renders it once). */
export function* iscoPages(model: ModelOutput): Generator<{ slug: string; html: () => string }> {
  const eta = templates();
  const bySoc = new Map(model.occupations.map((o) => [o.soc_code, o]));
  const alternates = alternatesByCode(model);
  for (const u of model.isco.units) {
    yield {
      slug: u.slug,
      html: () => eta.render('@site/isco', {
        meta: model.meta,
        code: u.isco_code,
        major: u.major_group,
        majorName: majorName(u.major_group),
        also: (alternates.get(u.isco_code) ?? []).map((a) => ({ title: a.title, note: a.note, source: a.source_title, url: a.source_url })),
        title: u.title,
        titleAttr: attributeText(u.title),
        slug: u.slug,
        scope: SCOPE.sentence,
        rangeWord: SCOPE.range,
        score: { value: scoreText(u.final_score), range: range(u), tier: u.risk_tier, tierWords: TIER_WORDS[u.risk_tier], confidence: capital(u.confidence) },
        occupations: [...u.us_occupations]
          .sort((a, b) => b.weight - a.weight || (a.soc_code < b.soc_code ? -1 : 1))
          .map((o) => {
            const rec = bySoc.get(o.soc_code);
            return { title: o.title, soc: o.soc_code, slug: rec?.slug ?? null, weight: `${(o.weight * 100).toFixed(1)}%`, score: rec ? scoreText(rec.risk_score.final_score) : 'n/a', ...(rec ? evidenceCells(rec.evidence) : { statements: 'n/a', change: 'n/a' }) };
          }),
        note: u.mapping.note,
        jsonHref: urlFor('isco-detail', { isco_code: u.isco_code }),
      }),
    };
  }
}
