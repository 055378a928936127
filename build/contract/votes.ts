// Collecting votes (POST .../votes): the one place for the choices and the limits.
export const VOTE_CHOICES = ['agree', 'too_high', 'too_low'] as const;
export type VoteChoice = (typeof VOTE_CHOICES)[number];
export type VoteCounts = Record<VoteChoice, number>;
export const isVoteChoice = (v: unknown): v is VoteChoice => typeof v === 'string' && (VOTE_CHOICES as readonly string[]).includes(v);

export const VOTE_POLICY = {
  /** A vote is a few bytes; anything larger is not a vote. */
  maxBodyBytes: 1024,
  /** One vote per client per occupation in this window. */
  repeatWindowMs: 24 * 3600_000,
  /** At most `budget` votes per client across occupations in this window (configurable). */
  defaultBudget: 30,
  budgetWindowMs: 3600_000,
  /** CDN caching of GET .../votes (the function sets s-maxage to this). */
  cdnMaxAgeSeconds: 60,
} as const;

/** Media types a vote may be sent as: JSON for API clients, a plain form post from the card. */
export const VOTE_MEDIA_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;

/**
 * Where the card's no-script form comes back to: the card itself with a fragment whose element
 * the card's CSS reveals (:target), one per outcome.
 */
export const CARD_VOTE_STATES = {
  recorded: 'voted',
  repeat: 'vote-repeat',
  budget: 'vote-limit',
  disabled: 'vote-off',
} as const;
