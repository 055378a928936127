// Reads and validates every seed file (seeds/*.json). I/O lives here so build/model stays pure.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SEED_FILES, Seeds } from './model/params.ts';

export class SeedError extends Error {
  override name = 'SeedError';
}

export async function loadSeeds(dir: string): Promise<Seeds> {
  const raw: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, file] of Object.entries(SEED_FILES)) {
    const full = path.join(dir, file);
    try {
      raw[key] = JSON.parse(await readFile(full, 'utf8'));
    } catch (e) {
      problems.push(`${file}: ${(e as Error).message}`);
    }
  }
  if (problems.length) throw new SeedError(`Cannot read seeds:\n  ${problems.join('\n  ')}`);
  const parsed = Seeds.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const [key, ...rest] = i.path.map(String);
      return `${SEED_FILES[key as keyof Seeds] ?? key}: ${rest.join('.') || '(root)'}: ${i.message}`;
    });
    throw new SeedError(`Invalid seeds:\n  ${lines.join('\n  ')}`);
  }
  checkConsistency(parsed.data);
  return parsed.data;
}

/** Cross-field rules zod cannot express per file. */
export function checkConsistency(seeds: Seeds): void {
  const issues: string[] = [];
  const tiers = seeds.tiers.tiers.map((t) => t.tier);
  if (new Set(tiers).size !== tiers.length) issues.push('tiers.json: a tier appears twice');
  const order = seeds.task_categories.tie_break_order.value;
  if (new Set(order).size !== order.length) issues.push('task-categories.json: tie_break_order repeats a category');
  if (seeds.params.timeline.fast_10_90_years.value >= seeds.params.timeline.slow_10_90_years.value)
    issues.push('model-params.json: the fast diffusion curve must be faster than the slow one');
  if (seeds.params.skill_gaps.viable_similarity.value > seeds.params.skill_gaps.highly_viable_similarity.value)
    issues.push('model-params.json: viable_similarity must not exceed highly_viable_similarity');
  for (const [name, cut] of Object.entries(seeds.params.confidence))
    if (cut.value.high < cut.value.medium) issues.push(`model-params.json: confidence.${name} high must not be below medium`);
  if (seeds.params.interval.high_max_width.value > seeds.params.interval.medium_max_width.value)
    issues.push('model-params.json: high_max_width must not exceed medium_max_width');
  if (issues.length) throw new SeedError(`Inconsistent seeds:\n  ${issues.join('\n  ')}`);
}

