// The tier as a person reads it on every page (occupation, ISCO, card, overview, home, changes, the
// verdict): the score measures exposure to AI doing the work, so the tier says "exposure", never
// "risk" (docs/METHODOLOGY.md, "In brief"). The API's field risk_tier and its values are unchanged.
import type { RiskTier } from '../model/record-schemas.ts';

/** "Low", "Medium", "High": a tier column whose heading already says what it is. */
export const TIER_NAME: Record<RiskTier, string> = { low: 'Low', medium: 'Medium', high: 'High' };

/** "Low exposure", "Medium exposure", "High exposure". */
export const TIER_WORDS = Object.fromEntries(Object.entries(TIER_NAME).map(([tier, name]) => [tier, `${name} exposure`])) as Record<RiskTier, string>;
