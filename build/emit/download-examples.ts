// The two-line examples the downloads page, README.txt and docs/API.md show for reading the
// downloads with common tools, each with the defaults of its reader (the CSVs' first line is their
// header row). test/contract/download-examples.test.ts runs those whose tool installs from npm or
// Debian. Pure data.

export interface ToolExample {
  tool: string;
  /** What the lines are typed into. */
  where: string;
  lines: readonly [string, string];
}

export const TOOL_EXAMPLES: readonly ToolExample[] = [
  { tool: 'pandas', where: 'a Python session', lines: ['import pandas as pd', 'occupations = pd.read_csv("occupations.csv")'] },
  { tool: 'R', where: 'an R session', lines: ['occupations <- read.csv("occupations.csv")', 'head(occupations[order(-occupations$final_score), c("title", "final_score")])'] },
  {
    tool: 'DuckDB',
    where: 'SQL, in the duckdb shell or any DuckDB client',
    lines: ["CREATE TABLE occupations AS SELECT * FROM 'occupations.csv';", 'SELECT risk_tier, count(*) AS occupations FROM occupations GROUP BY risk_tier ORDER BY occupations DESC;'],
  },
  {
    tool: 'sqlite3',
    where: 'a shell; the CSV imported into a new database file',
    lines: ['sqlite3 odr.db ".import --csv occupations.csv occupations"', 'sqlite3 odr.db "SELECT title, final_score FROM occupations ORDER BY CAST(final_score AS REAL) DESC LIMIT 10"'],
  },
  { tool: 'Datasette', where: 'a shell; the SQLite download and its metadata', lines: ['pip install datasette', 'datasette occupation-risk.sqlite --metadata metadata.json'] },
];
