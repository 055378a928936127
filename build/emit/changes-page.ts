// /docs/changes: GET /api/v1/changes for people. The release compared with, the counts, and every
// occupation whose score moved, was added or removed, biggest move first; the unchanged ones are
// counted, not listed. Pure apart from the templates read once.
import type { ModelOutput } from '../model/record-schemas.ts';
import type { ReleaseContext } from '../releases/load.ts';
import { templates } from './embed.ts';
import { TIER_WORDS } from './tier-words.ts';
import { scoreText } from './numbers.ts';

export function changesPage(model: ModelOutput, releases: ReleaseContext): string {
  const c = releases.changes;
  const slugOf = new Map(model.occupations.map((o) => [o.soc_code, o.slug]));
  const moved = c.data
    .filter((d) => d.status !== 'unchanged')
    .sort((a, b) => Math.abs(b.difference ?? 0) - Math.abs(a.difference ?? 0) || (a.soc_code < b.soc_code ? -1 : 1))
    .map((d) => ({
      soc: d.soc_code,
      title: d.title,
      slug: slugOf.get(d.soc_code) ?? null,
      before: d.previous_final_score === null ? '–' : scoreText(d.previous_final_score),
      after: d.final_score === null ? '–' : scoreText(d.final_score),
      tier: d.risk_tier ? TIER_WORDS[d.risk_tier] : '–',
      reason: d.reason,
    }));
  return templates().render('@site/changes', { meta: model.meta, previous: c.previous, current: c.current, counts: c.counts, moved });
}
