// The one registry of sources: every public source the build can read, with its publisher, official
// URLs and file names, license and attribution text, and the attribution notices the published
// data carry. Everything else derives from here: the fetch manifest (build/fetch/manifest.ts
// validates this list with its schema), the loader's official file names (catalog.ts), the
// model's attribution list, /api/v1/meta's sources, and through meta the downloads' headers and
// the site pages. Pure data, no I/O.
import type { z } from 'zod';
import type { Manifest } from './registry-schema.ts';

export type RegistrySource = z.input<typeof Manifest>[number];

/** O*NET database tables by the loader's key: the base name of the official .txt / .xlsx file. */
export const ONET_TABLES = {
  readMe: 'Read Me',
  occupations: 'Occupation Data',
  jobZones: 'Job Zones',
  tasks: 'Task Statements',
  taskRatings: 'Task Ratings',
  taskDwas: 'Tasks to DWAs',
  dwaReference: 'DWA Reference',
  alternateTitles: 'Alternate Titles',
  reportedTitles: 'Sample of Reported Titles',
  related: 'Related Occupations',
  skills: 'Skills',
  knowledge: 'Knowledge',
  education: 'Education, Training, and Experience',
  abilities: 'Abilities',
  workActivities: 'Work Activities',
  levelAnchors: 'Level Scale Anchors',
  jobZoneReference: 'Job Zone Reference',
} as const;

/** Official names of single files that the fetcher downloads and the loader looks for. */
export const FILE = {
  eloundou: 'full_labelset.tsv',
  msft: 'soc_ai_applicability_scores.csv',
  msftIwaMetrics: 'iwa_metrics.csv',
  projections: 'occupation.xlsx',
  aeiUsage20250210: 'onet_task_mappings.csv',
  aeiTaskStatements: 'onet_task_statements.csv',
  aeiUsage20250327: 'task_pct_v2.csv',
  aeiCollaboration20250327: 'automation_vs_augmentation_by_task.csv',
  iscoSoc: 'ISCO_SOC_Crosswalk.xls',
  socCrosswalk: 'soc_2010_to_2018_crosswalk.xlsx',
} as const;

const ONET_DB = 'https://www.onetcenter.org/dl_files/database/';
const OEWS = 'https://www.bls.gov/oes/special-requests/';
const AEI = 'https://huggingface.co/datasets/Anthropic/EconomicIndex';
const AEI_FILES = `${AEI}/resolve/main/`;
// Commit-pinned raw URLs: their bytes never change, so we can pin size and sha256.
const ELOUNDOU_COMMIT = '0471612fef3cc22b74fb884d27bff9dbd3770582';
const MSFT_COMMIT = '84c4ebacaa39d1c11e26e16c2f2c98aa89a11834';

const ONET_LICENSE = 'CC BY 4.0';
// One O*NET notice, per source and in the published list: O*NET's license terms ask for the
// notice, the statement that the information was modified, and that USDOL/ETA has not endorsed it.
const ONET_ATTRIBUTION =
  'This product includes information from the O*NET 29.3 Database by the U.S. Department of Labor, Employment and ' +
  'Training Administration (USDOL/ETA). Used under the CC BY 4.0 license. O*NET is a trademark of USDOL/ETA. The O*NET ' +
  'information was modified: task statements, ratings and links were combined with other sources and rescored by this ' +
  'project; USDOL/ETA has not approved, endorsed, or tested these modifications.';
const BLS_LICENSE = 'Public domain (U.S. federal government work)';
/** AEI releases that publish only all-facet raw files: the build reads the mirror's per-task extracts. */
const MIRROR_ONLY_AEI = ['2025_09_15', '2026_01_15', '2026_03_24'] as const;
const AEI_LICENSE = 'MIT (Hugging Face dataset card of Anthropic/EconomicIndex)';
const AEI_ATTRIBUTION =
  'Anthropic Economic Index (Handa et al. 2025, "Which Economic Tasks are Performed with AI? ' +
  'Evidence from Millions of Claude Conversations"), Hugging Face dataset Anthropic/EconomicIndex.';

export const SOURCES: RegistrySource[] = [
  {
    id: 'onet-db-text',
    title: 'O*NET 29.3 Database, tab-delimited text files',
    publisher: 'U.S. Department of Labor, Employment and Training Administration (O*NET Resource Center)',
    license: ONET_LICENSE,
    attribution: ONET_ATTRIBUTION,
    required: true,
    homepage: 'https://www.onetcenter.org/database.html',
    files: [
      {
        url: `${ONET_DB}db_29_3_text.zip`,
        name: 'db_29_3_text.zip',
        extract: {
          format: 'zip',
          expect: (
            ['occupations', 'jobZones', 'jobZoneReference', 'tasks', 'taskRatings', 'taskDwas', 'dwaReference', 'skills', 'knowledge', 'abilities', 'workActivities', 'alternateTitles', 'reportedTitles', 'related'] as const
          ).map((t) => `${ONET_TABLES[t]}.txt`),
        },
      },
    ],
  },
  {
    id: 'onet-db-excel',
    title: 'O*NET 29.3 Database, Excel files',
    publisher: 'U.S. Department of Labor, Employment and Training Administration (O*NET Resource Center)',
    license: ONET_LICENSE,
    attribution: ONET_ATTRIBUTION,
    required: false,
    homepage: 'https://www.onetcenter.org/database.html',
    note: 'Same content as the text release; the loader reads either form, so the text zip is enough.',
    files: [
      {
        url: `${ONET_DB}db_29_3_excel.zip`,
        name: 'db_29_3_excel.zip',
        extract: {
          format: 'zip',
          expect: (['skills', 'knowledge', 'alternateTitles', 'taskDwas'] as const).map((t) => `${ONET_TABLES[t]}.xlsx`),
        },
      },
    ],
  },
  {
    id: 'oews-national-2025',
    title: 'OEWS national cross-industry estimates, May 2025',
    publisher: 'U.S. Bureau of Labor Statistics, Occupational Employment and Wage Statistics',
    license: BLS_LICENSE,
    attribution: 'U.S. Bureau of Labor Statistics, Occupational Employment and Wage Statistics, May 2025.',
    required: true,
    homepage: 'https://www.bls.gov/oes/tables.htm',
    files: [
      {
        url: `${OEWS}oesm25nat.zip`,
        name: 'oesm25nat.zip',
        extract: { format: 'zip', expect: ['national_M2025_dl.xlsx'] },
      },
    ],
  },
  {
    id: 'oews-national-2024',
    title: 'OEWS national cross-industry estimates, May 2024',
    publisher: 'U.S. Bureau of Labor Statistics, Occupational Employment and Wage Statistics',
    license: BLS_LICENSE,
    attribution: 'U.S. Bureau of Labor Statistics, Occupational Employment and Wage Statistics, May 2024.',
    required: true,
    homepage: 'https://www.bls.gov/oes/tables.htm',
    note: 'Same reference year as the industry file, so wages and industry staffing line up.',
    files: [
      {
        url: `${OEWS}oesm24nat.zip`,
        name: 'oesm24nat.zip',
        extract: { format: 'zip', expect: ['national_M2024_dl.xlsx'] },
      },
    ],
  },
  {
    id: 'oews-industry-2024',
    title: 'OEWS national industry-specific estimates (sector, 3-, 4-, 5/6-digit NAICS), May 2024',
    publisher: 'U.S. Bureau of Labor Statistics, Occupational Employment and Wage Statistics',
    license: BLS_LICENSE,
    attribution: 'U.S. Bureau of Labor Statistics, Occupational Employment and Wage Statistics, May 2024.',
    required: true,
    homepage: 'https://www.bls.gov/oes/tables.htm',
    files: [
      {
        url: `${OEWS}oesm24in4.zip`,
        name: 'oesm24in4.zip',
        extract: {
          format: 'zip',
          expect: [
            'natsector_M2024_dl.xlsx',
            'nat3d_M2024_dl.xlsx',
            'nat4d_M2024_dl.xlsx',
            'nat5d_6d_M2024_dl.xlsx',
          ],
        },
      },
    ],
  },
  {
    id: 'bls-ep-occupation',
    title: 'Employment Projections occupational data (Tables 1.1-1.12), 2024-34',
    publisher: 'U.S. Bureau of Labor Statistics, Employment Projections',
    license: BLS_LICENSE,
    attribution: 'U.S. Bureau of Labor Statistics, Employment Projections program, 2024-34.',
    required: true,
    homepage: 'https://www.bls.gov/emp/data/occupational-data.htm',
    note: 'BLS replaces this file with each projections round (every September); no sha256 is pinned.',
    files: [{ url: `https://www.bls.gov/emp/ind-occ-matrix/${FILE.projections}`, name: FILE.projections }],
  },
  {
    id: 'bls-isco-soc-crosswalk',
    title: 'ISCO-08 to 2010 SOC crosswalk (with ISCO-08 titles)',
    publisher: 'U.S. Bureau of Labor Statistics, on behalf of the Standard Occupational Classification Policy Committee',
    license: BLS_LICENSE,
    attribution: 'U.S. Bureau of Labor Statistics, ISCO-08 / 2010 SOC crosswalk (August 2012, updated June 2015).',
    required: false,
    homepage: 'https://www.bls.gov/soc/soccrosswalks.htm',
    note: 'Carries the scores to ISCO-08 unit groups (GET /api/v1/isco); without it the ISCO-08 endpoints list nothing.',
    files: [{ url: `https://www.bls.gov/soc/${FILE.iscoSoc}`, name: FILE.iscoSoc }],
  },
  {
    id: 'bls-soc-2010-2018-crosswalk',
    title: '2010 SOC to 2018 SOC crosswalk',
    publisher: 'U.S. Bureau of Labor Statistics, on behalf of the Office of Management and Budget and the Standard Occupational Classification Policy Committee',
    license: BLS_LICENSE,
    attribution: 'U.S. Bureau of Labor Statistics, 2010 SOC to 2018 SOC crosswalk (November 2017).',
    required: false,
    homepage: 'https://www.bls.gov/soc/2018/crosswalks_used_by_agencies.htm',
    note: 'Takes the ISCO-08 links (to SOC 2010 codes) to the SOC 2018 codes the O*NET occupations sit under.',
    files: [{ url: `https://www.bls.gov/soc/2018/${FILE.socCrosswalk}`, name: FILE.socCrosswalk }],
  },
  {
    id: 'census-naics-2022',
    title: 'NAICS 2022 codes and titles, 2 to 6 digits',
    publisher: 'U.S. Census Bureau',
    license: 'Public domain (U.S. federal government work)',
    attribution: 'U.S. Census Bureau, North American Industry Classification System, 2022.',
    required: true,
    homepage: 'https://www.census.gov/naics/',
    files: [
      {
        url: 'https://www.census.gov/naics/2022NAICS/2-6%20digit_2022_Codes.xlsx',
        name: '2-6 digit_2022_Codes.xlsx',
      },
    ],
  },
  {
    id: 'eloundou-2023',
    title: 'GPTs are GPTs: task-level LLM exposure labels (full_labelset.tsv)',
    publisher: 'OpenAI and the paper authors (Eloundou, Manning, Mishkin, Rock)',
    license: 'MIT (Copyright (c) 2024 OpenAI)',
    attribution:
      'Eloundou, T., Manning, S., Mishkin, P., Rock, D. (2024). GPTs are GPTs: Labor market impact ' +
      'potential of LLMs. Science 384(6702). Data: github.com/openai/GPTs-are-GPTs (MIT).',
    required: true,
    homepage: 'https://github.com/openai/GPTs-are-GPTs',
    files: [
      {
        url: `https://raw.githubusercontent.com/openai/GPTs-are-GPTs/${ELOUNDOU_COMMIT}/data/${FILE.eloundou}`,
        name: FILE.eloundou,
        bytes: 3_893_248,
        sha256: '094378905e1f3349e50a9a83dc69643a2ef227954d611c8316a46da08cb3d8de',
      },
    ],
  },
  {
    id: 'aei-2025-02-10',
    title: 'Anthropic Economic Index, release 2025-02-10: O*NET task usage',
    publisher: 'Anthropic',
    license: AEI_LICENSE,
    attribution: AEI_ATTRIBUTION,
    required: true,
    homepage: `${AEI}/tree/main/release_2025_02_10`,
    files: [
      { url: `${AEI_FILES}release_2025_02_10/${FILE.aeiUsage20250210}`, name: FILE.aeiUsage20250210 },
      { url: `${AEI_FILES}release_2025_02_10/${FILE.aeiTaskStatements}`, name: FILE.aeiTaskStatements },
    ],
  },
  {
    id: 'aei-2025-03-27',
    title: 'Anthropic Economic Index, release 2025-03-27: task usage and collaboration patterns',
    publisher: 'Anthropic',
    license: AEI_LICENSE,
    attribution: AEI_ATTRIBUTION,
    required: true,
    homepage: `${AEI}/tree/main/release_2025_03_27`,
    files: [
      { url: `${AEI_FILES}release_2025_03_27/${FILE.aeiUsage20250327}`, name: FILE.aeiUsage20250327 },
      { url: `${AEI_FILES}release_2025_03_27/${FILE.aeiCollaboration20250327}`, name: FILE.aeiCollaboration20250327 },
    ],
  },
  {
    id: 'msft-working-with-ai',
    title: 'Working with AI: AI applicability score per SOC code; user-goal and AI-action shares per IWA',
    publisher: 'Microsoft Research (Tomlinson, Jaffe, Wang, Counts, Suri)',
    license: 'CC BY 4.0',
    attribution:
      'Tomlinson, K., Jaffe, S., Wang, W., Counts, S., Suri, S. (2025). Working with AI: Measuring ' +
      'the Occupational Implications of Generative AI. arXiv:2507.07935. Data: github.com/microsoft/working-with-ai (CC BY 4.0).',
    required: true,
    homepage: 'https://github.com/microsoft/working-with-ai',
    files: [
      {
        url: `https://raw.githubusercontent.com/microsoft/working-with-ai/${MSFT_COMMIT}/${FILE.msft}`,
        name: FILE.msft,
        bytes: 49_995,
        sha256: '2a077dbe90ff377813adac04b2acef6aee51c4b13505a4760ea84ca3efc9039a',
      },
      {
        url: `https://raw.githubusercontent.com/microsoft/working-with-ai/${MSFT_COMMIT}/${FILE.msftIwaMetrics}`,
        name: FILE.msftIwaMetrics,
        bytes: 72_575,
        sha256: '524f718dba31c987f0d04b55d81fac84f95533a143dfb780e04e63fb831abcf2',
      },
    ],
  },
  // Below: sources the build can use but that the publishers do not ship in a form we can
  // download file by file. They come only from the project's data mirror (derived files).
  ...MIRROR_ONLY_AEI.map((release) => ({
    id: `aei-${release.replaceAll('_', '-')}`,
    title: `Anthropic Economic Index, release ${release.replaceAll('_', '-')}: per-task usage and collaboration (derived extracts)`,
    publisher: 'Anthropic (raw data); per-task GLOBAL extracts by third parties',
    license: `${AEI_LICENSE}; extracts: not stated by their authors`,
    attribution: AEI_ATTRIBUTION,
    required: false,
    homepage: `${AEI}/tree/main/release_${release}`,
    note:
      'The release ships only large all-facet raw files (aei_raw_*); the build reads per-task ' +
      `extracts named aei_${release}_derived_*.csv from the data mirror when present.`,
    files: [],
  })),
  {
    id: 'onet-30-derived',
    title: 'O*NET 30.0 Abilities, Work Activities and Knowledge (IM/LV), derived tables',
    publisher: 'U.S. Department of Labor, Employment and Training Administration; compiled by dot-org-ai',
    license: 'CC BY 4.0 (O*NET); compilation CC BY-SA 4.0',
    attribution: ONET_ATTRIBUTION.replace('29.3', '30.0'),
    required: false,
    homepage: 'https://www.onetcenter.org/database.html',
    note:
      'Only in the data mirror (ONET30.0_*_IM_LV.derived.tsv). The fetched 29.3 text release already ' +
      'contains the official Abilities.txt and Work Activities.txt.',
    files: [],
  },
  {
    id: 'onet-30-1-skills',
    title: 'O*NET 30.1 Database, Skills (fills occupations the 29.3 release does not rate)',
    publisher: 'U.S. Department of Labor, Employment and Training Administration (O*NET Resource Center)',
    license: ONET_LICENSE,
    attribution: ONET_ATTRIBUTION.replace('29.3', '30.1'),
    required: false,
    homepage: 'https://www.onetcenter.org/database.html',
    note:
      'Only in the data mirror (db_30_1_excel/Skills.xlsx); the build reads it when present, for occupations ' +
      'the 29.3 release does not rate.',
    files: [],
  },
];

/**
 * The attribution notices published with the data (/api/v1/meta `attribution`, the downloads'
 * headers, the home and downloads pages), each with the registry sources it covers; references
 * cover none (methods and parameters, not data). A test holds every source to some notice.
 */
/** Every AEI release in the registry, oldest first (ids aei-YYYY-MM-DD). */
const AEI_RELEASES = SOURCES.filter((s) => s.id.startsWith('aei-')).map((s) => s.id.slice('aei-'.length));

export const NOTICES: Array<{ text: string; covers: string[] }> = [
  { text: ONET_ATTRIBUTION, covers: ['onet-db-text', 'onet-db-excel'] },
  {
    text: 'O*NET 30.0 Abilities, Work Activities and Knowledge ratings (USDOL/ETA, CC BY 4.0), as re-tabulated by the standards.org.ai project (CC BY-SA 4.0).',
    covers: ['onet-30-derived'],
  },
  {
    text: 'U.S. Bureau of Labor Statistics: Occupational Employment and Wage Statistics (May 2025, May 2024), Employment Projections 2024-34, the ISCO-08 / 2010 SOC and 2010 / 2018 SOC crosswalks (public domain).',
    covers: ['oews-national-2025', 'oews-national-2024', 'oews-industry-2024', 'bls-ep-occupation', 'bls-isco-soc-crosswalk', 'bls-soc-2010-2018-crosswalk'],
  },
  { text: 'U.S. Census Bureau: North American Industry Classification System 2022 (public domain).', covers: ['census-naics-2022'] },
  {
    text: 'Eloundou, Manning, Mishkin and Rock (2023/2024), "GPTs are GPTs", task exposure labels (MIT License, Copyright (c) 2024 OpenAI).',
    covers: ['eloundou-2023'],
  },
  {
    text: `Anthropic Economic Index, releases ${AEI_RELEASES[0]} to ${AEI_RELEASES.at(-1)} (Anthropic, MIT License per the dataset card).`,
    covers: AEI_RELEASES.map((r) => `aei-${r}`),
  },
  {
    text: 'Tomlinson, Jaffe, Wang, Counts and Suri (2025), "Working with AI", Microsoft Research (CC BY 4.0): per-occupation IWA weights used as task time weights; the AI applicability score and the per-IWA user-goal and AI-action shares are used for validation only.',
    covers: ['msft-working-with-ai'],
  },
  {
    text: 'O*NET 30.1 Skills (USDOL/ETA, CC BY 4.0), only for occupations the O*NET 29.3 release does not rate; O*NET 29.3 Education, Training, and Experience.',
    covers: ['onet-30-1-skills'],
  },
  {
    text: 'Method references: Pizzinelli et al. (2023, IMF WP/23/216) complementarity-adjusted exposure; Kanders et al. (2020, Nesta) Mapping Career Causeways; Bick, Blandin and Deming (2024) and Comin and Hobijn (2010) on adoption.',
    covers: [],
  },
  {
    text: 'Adoption start share: McKinsey Global Institute (2023), "The economic potential of generative AI: The next productivity frontier".',
    covers: [],
  },
];

/** The published attribution list, in notice order. */
export const ATTRIBUTION: string[] = NOTICES.map((n) => n.text);
