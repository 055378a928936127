// Transition options over the real build (issue 28, item 1): the moves the review named are gone,
// and the targets hold on every occupation of the build, read through the API as a client would.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSeeds } from '../../build/seeds-load.ts';
import type { Seeds } from '../../build/model/params.ts';
import { licenceAllows } from '../../build/model/transitions.ts';
import { everyOccupation } from './every-occupation.ts';
import { REPO_ROOT, TARGET, useSites } from './setup.ts';
import path from 'node:path';

const sites = useSites();

/** Origin -> options the 2.0.0 and 3.0.0 reviews found infeasible or unwise; none may come back. */
const NAMED_MOVES: Record<string, string[]> = {
  '29-1141.00': ['29-1211.00', '29-1229.04', '29-1022.00', '29-1131.00'], // Registered Nurses -> Anesthesiologists, Physical Medicine Physicians, Oral Surgeons, Veterinarians
  '23-2011.00': ['13-1011.00', '27-2012.04', '31-9099.01'], // Paralegals -> Agents of Artists, Talent Directors, Speech-Language Pathology Assistants
  '43-4051.00': ['41-9091.00', '43-3041.00'], // Customer Service Representatives -> street vendors, gambling cage workers
  // Bookkeeping clerks -> Substitute Teachers; (3.0.0) Couriers and Messengers: another field, a step down in skill
  '43-3031.00': ['25-3031.00', '43-5021.00'],
  '43-3071.00': ['43-5021.00'], // (3.0.0) Tellers -> Couriers and Messengers
  // Chief Executives -> Ophthalmologists; (3.0.0) Biofuels Production Managers: an O*NET specialty with no
  // employment or projection of its own (its SOC occupation's), which O*NET does not relate to chief executives
  '11-1011.00': ['29-1241.00', '11-3051.03'],
  '11-9021.00': ['29-1021.00', '11-3051.03'], // Construction Managers -> Dentists; (3.0.0) Biofuels Production Managers
};

interface Occ {
  soc: string;
  tier: string;
  education: string | null;
  employment: number | null;
  change: number | null;
  options: Array<{ soc_code: string; similarity: number; related_tier: string | null; safer_by: { low: number; high: number }; entry_education: string | null; employment: number | null; projected_employment_change_pct: number | null }>;
  note: string | null;
  gaps: Array<{ toward: string[]; needed_by: string[]; kind: string; importance: number; current_level: number; target_level: number; current_anchor: string | null; target_anchor: string | null }>;
  routes: string[];
  /** Titles of the moves and routes shown, by SOC code. */
  titles: Map<string, string>;
}

const occs = new Map<string, Occ>();
let seeds: Seeds;

// The options are the build's static files, which Cloudflare's runtime serves as they are (the
// headers suite checks that it serves every route and file): reading all 1,846 again through
// workerd would check the same bytes, so this suite runs against the local server only.
const ON_NODE = TARGET === 'node';

beforeAll(async () => {
  if (!ON_NODE) return;
  seeds = await loadSeeds(path.join(REPO_ROOT, 'seeds'));
  for (const { soc, detail, risk } of await everyOccupation(sites.percentile)) {
    occs.set(soc, {
      soc,
      tier: detail.risk_score.risk_tier,
      education: detail.labor_data.entry_education,
      employment: detail.labor_data.employment,
      change: detail.labor_data.projected_employment_change_pct,
      options: risk.transition_options,
      note: risk.transition_note,
      gaps: risk.skill_gaps,
      routes: risk.guidance.routes.map((r) => r.soc_code),
      titles: new Map([...risk.transition_options, ...risk.guidance.routes].map((t) => [t.soc_code, t.title])),
    });
  }
}, 300_000);

const DOCTORAL = 'Doctoral or professional degree';
const all = () => [...occs.values()].flatMap((o) => o.options.map((t) => ({ o, t })));

describe.runIf(ON_NODE)('transition options on the real build', () => {
  it('reads every occupation', () => {
    expect(occs.size).toBeGreaterThan(900);
  });

  it('offers none of the moves the review named', () => {
    for (const [origin, bad] of Object.entries(NAMED_MOVES)) {
      const listed = occs.get(origin)!.options.map((t) => t.soc_code);
      expect(listed.filter((s) => bad.includes(s)), origin).toEqual([]);
    }
  });

  it('leads into no licensed profession and no doctoral entry from outside', () => {
    const outside = all().filter(({ o, t }) => !licenceAllows(o.soc, t.soc_code, seeds.params) || (t.entry_education === DOCTORAL && o.education !== DOCTORAL));
    expect(outside.map(({ o, t }) => `${o.soc} -> ${t.soc_code}`)).toEqual([]);
  });

  it('at most 10% of options are projected to decline, at most 5% have fewer than 10,000 jobs', () => {
    const options = all();
    const declining = options.filter(({ t }) => t.projected_employment_change_pct !== null && t.projected_employment_change_pct < 0).length;
    const small = options.filter(({ t }) => t.employment === null || t.employment < 10_000).length;
    expect(declining / options.length).toBeLessThanOrEqual(0.1);
    expect(small / options.length).toBeLessThanOrEqual(0.05);
    // The option's numbers are the target's own published ones.
    for (const { t } of options) {
      const target = occs.get(t.soc_code)!;
      expect([t.employment, t.projected_employment_change_pct]).toEqual([target.employment, target.change]);
    }
  });

  it('every option scores lower under every alternative of the interval (safer_by.low > 0)', () => {
    const options = all();
    // Model 3.1 (issue 43) removed most of 3.0.0's 2,676: measurably safer stays, the count gives way.
    expect(options.length).toBeGreaterThan(300);
    expect(options.filter(({ t }) => !(t.safer_by.low > 0 && t.safer_by.high >= t.safer_by.low)).map(({ o, t }) => `${o.soc} -> ${t.soc_code}`)).toEqual([]);
  });

  it('offers an O*NET specialty only where O*NET relates it to the origin, and never a partly similar occupation', () => {
    const related = new Set<string>();
    for (const o of occs.values()) for (const t of o.options) if (t.related_tier !== null) related.add(`${o.soc}>${t.soc_code}`);
    const options = all();
    expect(options.filter(({ t }) => !t.soc_code.endsWith('.00') && t.related_tier === null).map(({ o, t }) => `${o.soc} -> ${t.soc_code}`)).toEqual([]);
    const viable = seeds.params.skill_gaps.viable_similarity.value;
    expect(options.filter(({ t }) => t.related_tier === null && t.similarity < viable).map(({ o, t }) => `${o.soc} -> ${t.soc_code}`)).toEqual([]);
    // Model 3.1: a specialty shares its SOC occupation's job pool, so it is no move from that occupation
    // (Industrial Production Managers -> Biofuels Production Managers, listed by 3.0.0, is one pool).
    expect(related.has('11-3051.00>11-3051.03')).toBe(false);
  });

  it('every occupation with fewer than two options says why, from its field', () => {
    // Issue 43 decided that the count of occupations with two options gives way to measurably
    // safer moves; guidance.test.ts checks that every high-tier worker has a next step or a reason.
    for (const o of occs.values()) {
      if (o.options.length < 2)
        expect(o.note, o.soc).toMatch(
          /^(No transition option|Only 1 transition option): (none of the \d+ other scored occupations is in its field \(|\d+ of the \d+ other scored occupations are in its field \(\d+ O\*NET related, \d+ of its major group with similarity >= [\d.]+\); of (these|the other \d+), \d+ )/,
        );
      else expect(o.note, o.soc).toBeNull();
    }
    // Paralegals: every occupation of its field is ruled out, most because it does not score lower.
    expect(occs.get('23-2011.00')!.options).toEqual([]);
    expect(occs.get('23-2011.00')!.note).toMatch(/of these, \d+ do not score lower under 95% of model alternatives/);
  });

  it('skill gaps point toward the options shown', () => {
    for (const o of occs.values()) {
      // Moves and (model 3.1) routes.
      const shown = new Set([...o.options.map((t) => t.soc_code), ...o.routes]);
      for (const g of o.gaps) for (const s of g.toward) expect(shown.has(s), `${o.soc}: ${s}`).toBe(true);
      if (shown.size === 0) expect(o.gaps).toEqual([]);
    }
  });

  it('skill gaps name each option that needs them, only where the options rate the element important, in O*NET\'s level words', () => {
    const minImportance = seeds.params.skill_gaps.min_target_importance.value;
    let gaps = 0;
    let knowledge = 0;
    for (const o of occs.values()) {
      for (const g of o.gaps) {
        gaps++;
        if (g.kind === 'knowledge') knowledge++;
        // needed_by is the titles of toward's options, every one a move or route shown.
        expect(g.needed_by, o.soc).toEqual(g.toward.map((s) => o.titles.get(s)));
        // The mean of importances each >= the floor (a Knowledge area the options do not rate important never appears).
        expect(g.importance, `${o.soc} ${g.kind}`).toBeGreaterThanOrEqual(minImportance);
        // The anchors are in the sources: every level from 1.5 up has its words (O*NET's first anchors are at 1 to 3).
        if (g.target_level >= 1.5) expect(g.target_anchor, `${o.soc} target`).toEqual(expect.any(String));
        if (g.current_level >= 1.5) expect(g.current_anchor, `${o.soc} current`).toEqual(expect.any(String));
      }
    }
    expect(gaps).toBeGreaterThan(0);
    expect(knowledge, 'knowledge areas fill short lists somewhere').toBeGreaterThan(0);
  });
});
