-- The counts GET .../votes answers with, kept per occupation and choice as votes are inserted: the
-- triggers run inside the statement that inserts (or deletes) the vote, so the counts change in
-- the same transaction as the rows, on SQLite and D1 alike. Counting the rows instead read every
-- vote of the occupation on each GET (a million votes on one occupation: 75-180 ms per request).
CREATE TABLE vote_counts (
  soc_code TEXT NOT NULL,
  vote TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (soc_code, vote)
) WITHOUT ROWID;
INSERT INTO vote_counts (soc_code, vote, n) SELECT soc_code, vote, COUNT(*) FROM votes GROUP BY soc_code, vote;
CREATE TRIGGER vote_counts_insert AFTER INSERT ON votes BEGIN
  INSERT INTO vote_counts (soc_code, vote, n) VALUES (NEW.soc_code, NEW.vote, 1) ON CONFLICT (soc_code, vote) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER vote_counts_delete AFTER DELETE ON votes BEGIN
  UPDATE vote_counts SET n = n - 1 WHERE soc_code = OLD.soc_code AND vote = OLD.vote;
END;
