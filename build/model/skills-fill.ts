// Skills: the chosen O*NET release, filled from a newer release for served occupations it does
// not rate; each occupation's skill gaps name the release their skills come from.
import type { ModelInputs } from './inputs.ts';
import { indexDescriptors, type DescriptorIndex } from './protective.ts';

export interface FilledDescriptors {
  descriptors: DescriptorIndex;
  /** Served occupations whose skills come from the newer release. */
  filled: Set<string>;
  /** The O*NET release an occupation's skills come from. */
  skillRelease: (soc: string) => string;
}

export function descriptorsWithSkillsFill(inputs: ModelInputs, servedSocs: ReadonlySet<string>): FilledDescriptors {
  const ownSkills = new Set(inputs.skills.map((s) => s.soc_code));
  const fillRows = (inputs.skills_fill?.rows ?? []).filter((r) => !ownSkills.has(r.soc_code) && servedSocs.has(r.soc_code));
  const filled = new Set(fillRows.map((r) => r.soc_code));
  const descriptors = indexDescriptors({ ...inputs, skills: [...inputs.skills, ...fillRows] });
  return { descriptors, filled, skillRelease: (soc) => (filled.has(soc) ? inputs.skills_fill!.release : inputs.onet_version) };
}
