// What the score measures and what it leaves out (issue 44): one wording, quoted by the pages, the
// cards, the OpenAPI descriptions and /api/v1/meta. The validation shows the score is mostly
// exposure to language models; BLS names other automation (autonomous trucks, self-checkout) that
// it does not see.
export const SCOPE = {
  /** The full sentence: pages, OpenAPI, meta. */
  sentence:
    "The score measures how exposed the occupation's tasks are to generative AI (large language models and software built on them), weighted by the evidence that AI would do rather than assist the work and moderated for what complements it. It leaves out other automation: robots, self-driving vehicles, self-service machines and other software.",
  /** The same in one plain sentence, under the verdict at the top of an occupation page. */
  plain:
    'The score is how exposed the tasks are to generative AI (language models and software built on them), not a chance of losing the job; robots, self-driving vehicles and self-service machines are left out.',
  /** A few words for the card. */
  short: 'Generative AI only',
  /** What the range is called on pages and cards (the API: score_low, score_high). */
  range: 'range over modelling choices',
} as const;
