// What `npm run data:fetch` downloads: every public source the build reads, with its publisher's
// official URL and file name. The loader (build/sources) finds files by these official names
// anywhere under the source directory, so nothing here may rename a file.
import { z } from 'zod';

/** A file name as the publisher ships it: no directories, nothing that could escape data/raw/<id>/. */
const OfficialName = z
  .string()
  .min(1)
  .refine((n) => !/[\\/\0]/.test(n) && n !== '.' && n !== '..', 'must be a bare file name');

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const ZipExtract = z.object({
  format: z.literal('zip'),
  /**
   * Official names (matched case-insensitively, in any folder of the archive) that must be
   * inside; a missing one fails the source, since it means the publisher changed the release.
   * Every file of the archive is extracted, not only these.
   */
  expect: z.array(OfficialName).default([]),
});

export const SourceFile = z.object({
  /** The publisher's URL, percent-encoded as it would be typed into a browser. */
  url: z.url({ protocol: /^https?$/ }),
  /** Official file name, saved as data/raw/<source id>/<name>. */
  name: OfficialName,
  /** Only for immutable URLs (a pinned commit): a different download is rejected. */
  sha256: Sha256.optional(),
  bytes: z.number().int().positive().optional(),
  extract: ZipExtract.optional(),
});

export const Source = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
    title: z.string().min(1),
    publisher: z.string().min(1),
    license: z.string().min(1),
    /** Text to reproduce where the data are used, or the citation to give. */
    attribution: z.string().min(1),
    /** A required source that fails makes the command exit non-zero. */
    required: z.boolean(),
    /** Official landing or release page (also for sources we cannot download). */
    homepage: z.url(),
    /** Empty = not downloadable from its publisher; the build uses the mirror's derived files. */
    files: z.array(SourceFile),
    note: z.string().optional(),
  })
  .refine((s) => s.files.length > 0 || !s.required, {
    message: 'a required source needs at least one downloadable file',
  })
  .refine((s) => s.files.length > 0 || s.note !== undefined, {
    message: 'a source without files needs a note saying where its data come from',
  });

export const Manifest = z.array(Source).superRefine((sources, ctx) => {
  const seen = new Set<string>();
  for (const s of sources) {
    if (seen.has(s.id)) ctx.addIssue({ code: 'custom', message: `duplicate source id ${s.id}` });
    seen.add(s.id);
    const names = new Set<string>();
    for (const f of s.files) {
      if (names.has(f.name)) ctx.addIssue({ code: 'custom', message: `${s.id}: duplicate file ${f.name}` });
      names.add(f.name);
    }
  }
});

export type Source = z.infer<typeof Source>;
export type SourceFile = z.infer<typeof SourceFile>;
export type Manifest = z.infer<typeof Manifest>;

const ONET_DB = 'https://www.onetcenter.org/dl_files/database/';
const OEWS = 'https://www.bls.gov/oes/special-requests/';
const AEI = 'https://huggingface.co/datasets/Anthropic/EconomicIndex';
const AEI_FILES = `${AEI}/resolve/main/`;
// Commit-pinned raw URLs: their bytes never change, so we can pin size and sha256.
const ELOUNDOU_COMMIT = '0471612fef3cc22b74fb884d27bff9dbd3770582';
const MSFT_COMMIT = '84c4ebacaa39d1c11e26e16c2f2c98aa89a11834';

const ONET_LICENSE = 'CC BY 4.0';
const ONET_ATTRIBUTION =
  'This product includes information from the O*NET 29.3 Database by the U.S. Department of Labor, ' +
  'Employment and Training Administration (USDOL/ETA). Used under the CC BY 4.0 license. O*NET is a ' +
  'trademark of USDOL/ETA. The project modified the information (selected, joined and scored it).';
const BLS_LICENSE = 'Public domain (U.S. federal government work)';
const AEI_LICENSE = 'MIT (Hugging Face dataset card of Anthropic/EconomicIndex)';
const AEI_ATTRIBUTION =
  'Anthropic Economic Index (Handa et al. 2025, "Which Economic Tasks are Performed with AI? ' +
  'Evidence from Millions of Claude Conversations"), Hugging Face dataset Anthropic/EconomicIndex.';

const rawManifest: z.input<typeof Manifest> = [
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
          expect: [
            'Occupation Data.txt',
            'Job Zones.txt',
            'Task Statements.txt',
            'Task Ratings.txt',
            'Tasks to DWAs.txt',
            'DWA Reference.txt',
            'Skills.txt',
            'Knowledge.txt',
            'Abilities.txt',
            'Work Activities.txt',
            'Alternate Titles.txt',
            'Sample of Reported Titles.txt',
            'Related Occupations.txt',
          ],
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
          expect: ['Skills.xlsx', 'Knowledge.xlsx', 'Alternate Titles.xlsx', 'Tasks to DWAs.xlsx'],
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
    files: [{ url: 'https://www.bls.gov/emp/ind-occ-matrix/occupation.xlsx', name: 'occupation.xlsx' }],
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
        url: `https://raw.githubusercontent.com/openai/GPTs-are-GPTs/${ELOUNDOU_COMMIT}/data/full_labelset.tsv`,
        name: 'full_labelset.tsv',
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
      { url: `${AEI_FILES}release_2025_02_10/onet_task_mappings.csv`, name: 'onet_task_mappings.csv' },
      { url: `${AEI_FILES}release_2025_02_10/onet_task_statements.csv`, name: 'onet_task_statements.csv' },
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
      { url: `${AEI_FILES}release_2025_03_27/task_pct_v2.csv`, name: 'task_pct_v2.csv' },
      {
        url: `${AEI_FILES}release_2025_03_27/automation_vs_augmentation_by_task.csv`,
        name: 'automation_vs_augmentation_by_task.csv',
      },
    ],
  },
  {
    id: 'msft-working-with-ai',
    title: 'Working with AI: AI applicability score per SOC code',
    publisher: 'Microsoft Research (Tomlinson, Jaffe, Wang, Counts, Suri)',
    license: 'CC BY 4.0',
    attribution:
      'Tomlinson, K., Jaffe, S., Wang, W., Counts, S., Suri, S. (2025). Working with AI: Measuring ' +
      'the Occupational Implications of Generative AI. arXiv:2507.07935. Data: github.com/microsoft/working-with-ai (CC BY 4.0).',
    required: true,
    homepage: 'https://github.com/microsoft/working-with-ai',
    files: [
      {
        url: `https://raw.githubusercontent.com/microsoft/working-with-ai/${MSFT_COMMIT}/soc_ai_applicability_scores.csv`,
        name: 'soc_ai_applicability_scores.csv',
        bytes: 49_995,
        sha256: '2a077dbe90ff377813adac04b2acef6aee51c4b13505a4760ea84ca3efc9039a',
      },
    ],
  },
  // Below: sources the build can use but that the publishers do not ship in a form we can
  // download file by file. They come only from the project's data mirror (derived files).
  ...(['2025_09_15', '2026_01_15', '2026_03_24'] as const).map((release) => ({
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
];

/** Parsed once at import: a broken manifest is a programming error and should fail loudly. */
export const MANIFEST: Manifest = Manifest.parse(rawManifest);

export const isFetchable = (s: Source): boolean => s.files.length > 0;
