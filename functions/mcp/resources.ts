// The MCP resources (the methodology in brief, the data release) and the one prompt. Every fact is
// read from where the API keeps it: the scope sentence (build/model/scope.ts), /api/v1/meta's
// versions, licence and attribution; each resource is named by the URL of the page or file it sums up.
import { SCOPE } from '../../build/model/scope.ts';
import { urlFor } from '../../build/contract/routes.ts';
import { fileJson, type ToolContext } from './api-client.ts';

const METHODOLOGY = urlFor('docs-methodology');
const META = urlFor('meta');

export function resourceList(origin: string) {
  return [
    { uri: origin + METHODOLOGY, name: 'methodology', title: 'How the score works (summary)', description: 'What the displacement risk score measures, what it leaves out, and where the full methodology is.', mimeType: 'text/markdown' },
    { uri: origin + META, name: 'data-release', title: 'Data release: versions, licence, attribution', description: 'The data and model versions of this release, its licence and the attribution to reproduce with the data (GET /api/v1/meta).', mimeType: 'application/json' },
  ];
}

export async function readResource(ctx: ToolContext, origin: string, uri: string): Promise<{ uri: string; mimeType: string; text: string } | null> {
  if (uri === origin + METHODOLOGY) {
    const meta = await fileJson<{ data_version: string; model_version: string }>(ctx, META);
    const text = [
      `# Occupation displacement risk: the score in brief (model ${meta.model_version})`,
      '',
      SCOPE.sentence,
      '',
      `Each occupation has a score, its ${SCOPE.range} (score_low..score_high: the spread of the score under alternative modelling choices, not a probability interval), a tier and the share of modelling alternatives that give that tier. The explanation lists the task exposure, the complementarity that moderates it and the evidence behind both.`,
      '',
      `Data release ${meta.data_version}. The full methodology: ${origin}${METHODOLOGY}; the API: ${origin}${urlFor('docs')}.`,
    ].join('\n');
    return { uri, mimeType: 'text/markdown', text };
  }
  if (uri === origin + META) {
    const meta = await fileJson<Record<string, unknown>>(ctx, META);
    const release = { data_version: meta.data_version, model_version: meta.model_version, build_id: meta.build_id, scope: meta.scope, data: meta.data, license: meta.license, attribution: meta.attribution, sources: meta.sources };
    return { uri, mimeType: 'application/json', text: JSON.stringify(release) };
  }
  return null;
}

export const PROMPTS = [
  {
    name: 'check_my_job',
    title: 'Check my job',
    description: 'Is my job exposed to generative AI, and what can I do? Finds the occupation, reads its score with its range and scope, and its guidance.',
    arguments: [{ name: 'job_title', description: 'Your job title, in your own words.', required: true }],
  },
];

export function promptMessages(name: string, args: Record<string, string>) {
  const title = args.job_title;
  if (name !== 'check_my_job' || typeof title !== 'string' || title.trim() === '') return null;
  const text =
    `My job is "${title.slice(0, 200)}". Use find_occupation to find the occupation that fits it best (ask me if several fit), then occupation_score and occupation_guidance. ` +
    `Tell me the score with its range and tier, say plainly what the score measures and leaves out (${SCOPE.sentence}), and summarize the best next step, the moves and the focus within my job.`;
  return [{ role: 'user' as const, content: { type: 'text' as const, text } }];
}
