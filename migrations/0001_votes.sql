-- Community votes (timeline shape). Applied by `npm run db:migrate` (D1, through wrangler) and
-- by the local server on start (SQLite); both track applied files in d1_migrations.
-- One row per accepted vote. client_key is an HMAC-SHA-256 of the client's IP address under a
-- secret salt of the day (vote_salts); the address itself is never stored.
CREATE TABLE votes (
  id INTEGER PRIMARY KEY,
  soc_code TEXT NOT NULL,
  vote TEXT NOT NULL CHECK (vote IN ('agree', 'too_high', 'too_low')),
  client_key TEXT NOT NULL,
  created_at INTEGER NOT NULL -- Unix time in milliseconds
);
-- Duplicate and budget checks look up one client's recent votes; GET counts one occupation.
CREATE INDEX votes_by_client ON votes (client_key, created_at);
CREATE INDEX votes_by_occupation ON votes (soc_code, vote);

-- One random salt per UTC day. Salts older than yesterday are deleted, after which the keys made
-- with them can no longer be linked to any address, even by whoever holds the database.
CREATE TABLE vote_salts (
  day TEXT PRIMARY KEY, -- YYYY-MM-DD (UTC)
  salt TEXT NOT NULL
);
