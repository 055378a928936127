// Prints the transition figures of issue 28 (item 1) for the current model on the real sources,
// and the options of a dozen occupations to check by hand:
//   npx tsx build/validation/transition-report.ts [--source DIR]
// The 2.0.0 figures it is compared with were measured by the same function (transition-figures.ts)
// on the 2.0.0 build; they are in docs/METHODOLOGY.md section 12.
import path from 'node:path';
import { loadSources, resolveSourceDir } from '../sources/index.ts';
import { loadSeeds } from '../seeds-load.ts';
import { computeModel } from '../model/index.ts';
import { REPO_ROOT } from '../repo-root.ts';
import { transitionFigures } from './transition-figures.ts';
import { noteWords } from '../model/transitions.ts';

const HAND_CHECKED = [
  '29-1141.00', // Registered Nurses
  '23-2011.00', // Paralegals and Legal Assistants
  '41-2011.00', // Cashiers
  '53-3032.00', // Heavy and Tractor-Trailer Truck Drivers
  '15-1252.00', // Software Developers
  '43-4051.00', // Customer Service Representatives
  '43-3031.00', // Bookkeeping, Accounting, and Auditing Clerks
  '11-1011.00', // Chief Executives
  '11-9021.00', // Construction Managers
  '25-2021.00', // Elementary School Teachers
  '13-2011.00', // Accountants and Auditors
  '43-9021.00', // Data Entry Keyers
  '43-3071.00', // Tellers
  '41-9041.00', // Telemarketers
];

async function main(): Promise<void> {
  const i = process.argv.indexOf('--source');
  const root = REPO_ROOT;
  const dir = resolveSourceDir({ cliSource: i > 0 ? process.argv[i + 1] : undefined, env: process.env, repoRoot: root });
  const { bundle } = await loadSources(dir);
  const seeds = await loadSeeds(path.join(root, 'seeds'));
  const { projections, related } = bundle;
  const model = computeModel(bundle, seeds);
  const f = transitionFigures(model.occupations, projections, related, seeds.params);
  console.log(`Transition options, model ${model.meta.model_version}`);
  for (const [k, v] of Object.entries(f)) console.log(`  ${k}: ${v}`);
  const notes = new Map<string, number>();
  for (const o of model.occupations) {
    if (!o.transition_note) continue;
    // The rule that removed the most of its field names the kind (or an empty field).
    const rules = o.transition_note.split(/; of (?:these|the other \d+), /)[1];
    const top = rules
      ?.replace(/\.$/, '')
      .split('; ')
      .map((p) => {
        const what = p.replace(/^\d+ /, '');
        // One wording per rule, whether one or several were removed.
        return { n: Number(p.match(/^(\d+)/)?.[1] ?? 0), what: Object.values(noteWords(seeds.params)).find((w) => w.includes(what))?.[1] ?? what };
      })
      .sort((a, b) => b.n - a.n)[0];
    const key = `${o.transition_options.length} option(s); ${top ? `most of its field ${top.what}` : 'nothing in its field'}`;
    notes.set(key, (notes.get(key) ?? 0) + 1);
  }
  console.log('Occupations with fewer than 2 options, by the rule that removed the most of their field:');
  for (const [k, n] of [...notes].sort((a, b) => b[1] - a[1])) console.log(`  ${n}  ${k}`);
  console.log('Hand-checked occupations:');
  for (const soc of HAND_CHECKED) {
    const o = model.occupations.find((x) => x.soc_code === soc);
    if (!o) continue;
    const opts = o.transition_options.map((t) => `${t.title} (${t.related_tier ?? `sim ${t.similarity}`}, ${t.entry_education ?? 'n/a'}, pay x${t.wage_ratio ?? '?'}, ${t.projected_employment_change_pct}%, safer by ${t.safer_by.low}-${t.safer_by.high})`);
    console.log(`  ${o.title} [${o.risk_score.final_score}, ${o.risk_score.risk_tier}]: ${opts.join('; ') || o.transition_note}`);
  }
}

await main();
