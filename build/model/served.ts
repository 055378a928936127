// Who is served: an occupation needs task statements, at least one task with an exposure label,
// and a job zone. Everyone else is listed as unscored with the reason (the build report names them).
import type { ModelInputs, TaskStatement } from './inputs.ts';
import type { EvidenceIndex } from './evidence.ts';
import { groupBy } from './num.ts';
import type { UnscoredOccupation } from './record-schemas.ts';
import { compareText } from './text.ts';

export interface ServedOccupation {
  soc: string;
  title: string;
  description: string;
  job_zone: number;
  /** Its task statements by Task ID. */
  tasks: TaskStatement[];
}

export function selectServed(
  inputs: Pick<ModelInputs, 'occupations' | 'tasks' | 'job_zones' | 'onet_version'>,
  labels: EvidenceIndex['labels'],
): { served: ServedOccupation[]; unscored: UnscoredOccupation[] } {
  const tasksBySoc = groupBy(inputs.tasks, (t) => t.soc_code);
  const jobZone = new Map(inputs.job_zones.map((j) => [j.soc_code, j.job_zone]));
  const unscored: UnscoredOccupation[] = [];
  const served: ServedOccupation[] = [];
  for (const o of [...inputs.occupations].sort((a, b) => compareText(a.soc_code, b.soc_code))) {
    const tasks = tasksBySoc.get(o.soc_code) ?? [];
    const jz = jobZone.get(o.soc_code);
    let reason: string | null = null;
    if (tasks.length === 0) reason = `No task statements in O*NET ${inputs.onet_version} (O*NET has not collected task data for this occupation).`;
    else if (!tasks.some((t) => labels.has(t.task_id))) reason = `None of its ${tasks.length} tasks has an exposure label (Eloundou et al. labelled O*NET 27 tasks).`;
    else if (jz === undefined) reason = 'No O*NET Job Zone.';
    if (reason) unscored.push({ soc_code: o.soc_code, title: o.title, reason });
    else served.push({ soc: o.soc_code, title: o.title, description: o.description, job_zone: jz!, tasks: [...tasks].sort((a, b) => a.task_id - b.task_id) });
  }
  return { served, unscored };
}
