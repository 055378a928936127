// ILO 2025 generative-AI exposure scores (Gmyrek et al., ILO Working Paper 140) moved from
// ISCO-08 unit groups to SOC 2018 detailed codes, for validation only (never a model input).
// Pure: load.ts reads the files.
//
// Path: ISCO-08 -> SOC 2010 (BLS ISCO-08 / SOC 2010 crosswalk, many-to-many) -> SOC 2018 (BLS
// SOC 2010 / 2018 crosswalk). Rule: each SOC 2010 code takes the unweighted mean of the scores
// of the ISCO-08 codes linked to it, then each SOC 2018 code the mean of its SOC 2010 parents
// (toSoc2018, the rule every SOC 2010 index here follows). Unweighted because neither crosswalk
// carries shares (the BLS "part" marker says a link covers part of an occupation, not how much)
// and no employment by ISCO-08 x SOC cell exists for the United States: any weight would be ours,
// not data. A link to a 3-digit ISCO-08 minor group (two rows of the BLS file) stands for the
// scored unit groups in it. Codes reached from a single ISCO-08 code (no averaging at all) are kept apart as a
// check that the averaging does not drive the result.
import { toSoc2018, type IloRefs, type ValidationRefs } from './refs.ts';


export interface IloMatch {
  /** SOC 2018 code -> ILO score (mean over the linked ISCO-08 codes, as above). */
  values: Map<string, number>;
  /** The subset of SOC 2018 codes whose every path leads back to one ISCO-08 code. */
  single: Map<string, number>;
  counts: {
    isco_scored: number;
    /** Links to a 3-digit minor group, expanded to its scored unit groups. */
    minor_group_links: number;
    isco_linked: number;
    isco_unlinked: number;
    soc2010_reached: number;
    soc2018_reached: number;
    soc2018_single_isco: number;
  };
}

export function iloToSoc2018(ilo: IloRefs, crosswalk: ValidationRefs['crosswalk']): IloMatch {
  const bySoc2010 = new Map<string, Set<string>>();
  const scored = [...ilo.scores.keys()].sort();
  let minor = 0;
  for (const { isco, soc2010 } of ilo.links) {
    if (isco.length === 3) minor++;
    const codes = isco.length === 3 ? scored.filter((c) => c.startsWith(isco)) : ilo.scores.has(isco) ? [isco] : [];
    for (const c of codes) bySoc2010.set(soc2010, (bySoc2010.get(soc2010) ?? new Set()).add(c));
  }
  const mean2010 = new Map([...bySoc2010].map(([soc, iscos]) => [soc, [...iscos].reduce((a, c) => a + ilo.scores.get(c)!, 0) / iscos.size]));
  const values = toSoc2018(mean2010, crosswalk);
  // ISCO-08 codes behind each SOC 2018 code, over every SOC 2010 parent.
  const origins = new Map<string, Set<string>>();
  for (const { soc2010, soc2018 } of crosswalk) for (const isco of bySoc2010.get(soc2010) ?? []) origins.set(soc2018, (origins.get(soc2018) ?? new Set()).add(isco));
  const single = new Map([...values].filter(([soc]) => origins.get(soc)?.size === 1));
  const linked = new Set([...bySoc2010.values()].flatMap((s) => [...s]));
  return {
    values,
    single,
    counts: {
      isco_scored: ilo.scores.size,
      minor_group_links: minor,
      isco_linked: linked.size,
      isco_unlinked: ilo.scores.size - linked.size,
      soc2010_reached: mean2010.size,
      soc2018_reached: values.size,
      soc2018_single_isco: single.size,
    },
  };
}
