// SOC 2018 major groups: the names live in the contract (the list API filters by them).
import { SOC_MAJOR_GROUPS } from '../contract/soc-major-groups.ts';

export { SOC_MAJOR_GROUPS };

/** The major group of a SOC code: its code ("15-0000") and name; an unknown prefix still gets a name. */
export function majorGroup(socCode: string): { code: string; name: string } {
  const prefix = socCode.slice(0, 2);
  const name = SOC_MAJOR_GROUPS[prefix];
  return { code: `${prefix}-0000`, name: name ? `${name} Occupations` : `Major group ${prefix}` };
}
