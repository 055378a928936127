// What the score measures and what it leaves out (issue 44): one wording, quoted by the pages, the
// cards, the OpenAPI descriptions and /api/v1/meta. The validation shows the score is mostly
// exposure to language models; BLS names other automation (autonomous trucks, self-checkout) that
// it does not see.
export const SCOPE = {
  /** The full sentence: pages, OpenAPI, meta. */
  sentence:
    "The score measures how exposed the occupation's tasks are to generative AI (large language models and software built on them), weighted by the evidence that AI would do rather than assist the work and moderated for what complements it. It leaves out other automation: robots, self-driving vehicles, self-service machines and other software.",
  /** A few words for the card. */
  short: 'Generative AI only',
  /** What the range is called on pages and cards (the API: score_low, score_high). */
  range: 'range over modelling choices',
} as const;
