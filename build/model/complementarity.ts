// Complementarity theta (0..1) in the spirit of Pizzinelli, Panton, Mendes Tavares, Cazzaniga and
// Li (2023), "Labor Market Exposure to AI: Cross-country Differences and Distributional
// Implications" (IMF WP/23/216): occupations whose work is shielded by education and experience
// requirements, responsibility, physical context and interpersonal contact are more likely to be
// complemented than replaced by AI. Their theta averages six O*NET work-context and skill
// subdomains; the mirror has no Work Context file, so the subdomains here are built from the
// O*NET data it has (Job Zones, Education, Training, and Experience, and the protective factors
// computed from Skills, Abilities and Work Activities). The adjustment is theirs:
//   C-AIOE = AIOE * (1 - (theta - theta_min)).
import type { EducationRow } from './inputs.ts';
import { clamp } from './num.ts';

export interface ComplementarityParts {
  /** Job zone, required education (RL) and related experience (RW), each 0..1. */
  education_experience: number;
  /** Complex judgment and leadership (decision rights and accountability). */
  responsibility: number;
  /** Physical presence and manual dexterity (work bound to a place and the hands). */
  physical: number;
  /** Social intelligence (face-to-face, caring, persuading). */
  interpersonal: number;
  /** AI-complementary technology work (programming, technology design, computer knowledge). */
  technology: number;
}

/**
 * Expected category of an O*NET category scale (percent of incumbents per category), mapped
 * linearly from 1..maxCategory onto 0..1; null without usable rows.
 */
export function expectedCategory(rows: ReadonlyArray<Pick<EducationRow, 'category' | 'pct' | 'recommend_suppress'>>, maxCategory: number): number | null {
  let s = 0;
  let w = 0;
  for (const r of rows) {
    if (r.recommend_suppress) continue;
    s += r.category * r.pct;
    w += r.pct;
  }
  return w > 0 ? clamp((s / w - 1) / (maxCategory - 1), 0, 1) : null;
}

/** Education and experience: mean of (job zone - 1) / 4 and the available RL and RW expectations. */
export function educationExperience(jobZone: number, rl: number | null, rw: number | null): number {
  const parts = [(jobZone - 1) / 4, rl, rw].filter((x): x is number => x !== null);
  return parts.reduce((a, b) => a + b, 0) / parts.length;
}

export function complementarityParts(
  jobZone: number,
  rl: number | null,
  rw: number | null,
  protective: Readonly<Record<string, number>>,
): ComplementarityParts {
  const f = (k: string) => protective[k] ?? 0;
  return {
    education_experience: educationExperience(jobZone, rl, rw),
    responsibility: (f('complex_judgment') + f('leadership')) / 2,
    physical: (f('physical_presence') + f('manual_dexterity')) / 2,
    interpersonal: f('social_intelligence'),
    technology: f('technology'),
  };
}

/** theta = equal-weight mean of the five subdomains, as Pizzinelli et al. average theirs. */
export const theta = (p: ComplementarityParts): number =>
  (p.education_experience + p.responsibility + p.physical + p.interpersonal + p.technology) / 5;

/** The Pizzinelli et al. multiplier 1 - kappa * (theta - theta_min), kept in 0..1. */
export const complementarityMultiplier = (th: number, thetaMin: number, kappa: number): number =>
  clamp(1 - kappa * (th - thetaMin), 0, 1);
