// Every occupation of a build (percentile unless told), read as a client would (the list, page by page, then each
// occupation's detail and risk), parsed with the served schemas: the guidance and transition tests
// check their rules over all of them.
import { responseSchemas } from '../../build/contract/response-schemas.ts';
import type { Shape } from '../../build/model/record-schemas.ts';
import type { Site } from './setup.ts';

export async function everyOccupation(site: Site, shape: Shape = 'percentile') {
  const s = responseSchemas(shape);
  const socs: string[] = [];
  const zones = new Map<string, number>();
  for (let offset = 0; ; offset += 100) {
    const page = (await site.json(`/api/v1/occupations?limit=100&offset=${offset}`)) as { data: Array<{ soc_code: string; job_zone: number }>; count: number };
    socs.push(...page.data.map((o) => o.soc_code));
    for (const o of page.data) zones.set(o.soc_code, o.job_zone);
    if (socs.length >= page.count || page.data.length === 0) break;
  }
  // A few requests at a time (not all 1,846 at once: the servers under test cap their connections).
  const read = async (soc: string) => {
    const [detail, risk] = await Promise.all([site.json(`/api/v1/occupations/${soc}`), site.json(`/api/v1/occupations/${soc}/risk`)]);
    return { soc, job_zone: zones.get(soc)!, detail: s.occupationDetail.parse(detail), risk: s.occupationRisk.parse(risk) };
  };
  const fetched: Array<Awaited<ReturnType<typeof read>>> = [];
  for (let i = 0; i < socs.length; i += 8) fetched.push(...(await Promise.all(socs.slice(i, i + 8).map(read))));
  return fetched;
}
