// The two-line examples for reading the downloads with pandas, R, DuckDB, sqlite3 and Datasette:
// the downloads page, README.txt and docs/API.md show the same lines, and the suite runs those
// whose tool installs from npm or Debian, on the built files (the bytes served: downloads.test.ts
// checks their sha256), as written:
// - DuckDB through @duckdb/node-api (npm), each SQL line in turn, the downloads' folder as DuckDB's
//   file_search_path (the folder the files were saved to);
// - sqlite3: Debian's sqlite3 command-line shell (.ci/run installs the package), each line through
//   sh in a scratch folder holding the CSV.
// - pandas and R: Debian's python3-pandas (run by /usr/bin/python3, Debian's interpreter, whatever
//   python3 is first on PATH) and r-base-core's Rscript (.ci/run installs both), the two lines as
//   shown followed by a line that prints the frame's columns and rows.
// Not run: Datasette installs from PyPI only; sqlite.test.ts checks its metadata.json.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, SHAPES, TARGET, useSites, type Site } from './setup.ts';

const sites = useSites();
const scratch = mkdtempSync(path.join(tmpdir(), 'odr-examples-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** The examples the downloads page shows, by tool. */
async function shown(site: Site): Promise<Map<string, string[]>> {
  const page = await (await site.get('/downloads/')).text();
  return new Map([...page.matchAll(/<pre class="tool-example" data-tool="([^"]+)"><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) => [unescape(m[1]!), unescape(m[2]!).split('\n')]));
}

/** The API's scores of every occupation of this release. */
async function scores(site: Site): Promise<Array<{ title: string; final_score: number }>> {
  const changes = await site.json('/api/v1/changes');
  return changes.data.filter((c: { status: string }) => c.status !== 'removed');
}

describe.each(SHAPES)('reading the downloads: the examples (%s)', (shape) => {
  it('the page, README.txt and docs/API.md show the same two lines per tool', async () => {
    const site = sites[shape];
    const examples = await shown(site);
    expect([...examples.keys()]).toEqual(['pandas', 'R', 'DuckDB', 'sqlite3', 'Datasette']);
    const readme = await (await site.get('/downloads/README.txt')).text();
    const docs = readFileSync(path.join(REPO_ROOT, 'docs/API.md'), 'utf8');
    const fenced = [...docs.matchAll(/^```[a-z]*\n([\s\S]*?)\n```$/gm)].map((m) => m[1]);
    for (const [tool, lines] of examples) {
      expect(lines, tool).toHaveLength(2);
      expect(readme, tool).toContain(lines.map((l) => `    ${l}`).join('\n'));
      expect(fenced, tool).toContain(lines.join('\n'));
    }
  });

  it.runIf(TARGET === 'node')('DuckDB (npm @duckdb/node-api): the lines as shown read occupations.csv whole', async () => {
    const site = sites[shape];
    const [create, query] = (await shown(site)).get('DuckDB')!;
    const instance = await DuckDBInstance.create(':memory:');
    const db = await instance.connect();
    try {
      await db.run(`SET file_search_path = '${path.join(site.dir, 'downloads').replace(/'/g, "''")}'`);
      await db.run(create!);
      const header = readFileSync(path.join(site.dir, 'downloads/occupations.csv'), 'utf8').split('\r\n', 1)[0]!.split(',');
      expect((await db.runAndReadAll('DESCRIBE occupations')).getRowObjects().map((c) => c.column_name)).toEqual(header);
      const tiers = (await db.runAndReadAll(query!)).getRowObjects() as Array<{ risk_tier: string; occupations: bigint }>;
      const api = await scores(site);
      const byTier = (t: string) => api.filter((o) => (o as unknown as { risk_tier: string }).risk_tier === t).length;
      expect(tiers.map((t) => [t.risk_tier, Number(t.occupations)])).toEqual(tiers.map((t) => [t.risk_tier, byTier(t.risk_tier)]));
      expect(tiers.reduce((n, t) => n + Number(t.occupations), 0)).toBe(api.length);
    } finally {
      db.closeSync();
      instance.closeSync();
    }
  });

  it.runIf(TARGET === 'node')("sqlite3 (Debian's sqlite3 shell): the lines as shown import occupations.csv with its header and list the highest scores", async () => {
    const site = sites[shape];
    const lines = (await shown(site)).get('sqlite3')!;
    const dir = mkdtempSync(path.join(scratch, `${shape}-`));
    symlinkSync(path.join(site.dir, 'downloads/occupations.csv'), path.join(dir, 'occupations.csv'));
    const sh = (line: string) => {
      try {
        return execFileSync('sh', ['-c', line], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (e) {
        const err = e as { status?: number; stderr?: string };
        throw new Error(`${line}: exit ${err.status}${err.status === 127 ? ' (no sqlite3 shell: apt-get install sqlite3, as .ci/run does)' : ''}: ${err.stderr}`);
      }
    };
    // Nothing on stderr: sqlite3 warns there of each line it cannot import.
    const imported = execFileSync('sh', ['-c', `${lines[0]!} 2>&1`], { cwd: dir, encoding: 'utf8' });
    expect(imported).toBe('');
    const top = sh(lines[1]!).trimEnd().split('\n').map((l) => {
      const cut = l.lastIndexOf('|');
      return { title: l.slice(0, cut), final_score: Number(l.slice(cut + 1)) };
    });
    // The import took line 1 as the columns and every other line as a row.
    const header = readFileSync(path.join(dir, 'occupations.csv'), 'utf8').split('\r\n', 1)[0]!.split(',');
    expect(sh('sqlite3 odr.db "SELECT name FROM pragma_table_info(\'occupations\')"').trimEnd().split('\n')).toEqual(header);
    const api = await scores(site);
    expect(Number(sh('sqlite3 odr.db "SELECT count(*) FROM occupations"'))).toBe(api.length);
    expect(top.map((o) => o.final_score)).toEqual(api.map((o) => o.final_score).sort((a, b) => b - a).slice(0, 10));
    for (const o of top) expect(api, o.title).toContainEqual(expect.objectContaining(o));
  });

  /** Runs a tool's shown lines plus one that prints a marker, the columns (one per line) and the row count: what the shown lines print themselves (R's head) comes before the marker. */
  const frame = (site: Site, cmd: string, args: string[], script: string, hint: string) => {
    const dir = mkdtempSync(path.join(scratch, `${shape}-`));
    symlinkSync(path.join(site.dir, 'downloads/occupations.csv'), path.join(dir, 'occupations.csv'));
    let out: string;
    try {
      out = execFileSync(cmd, [...args, script], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      const err = e as { code?: string; status?: number; stderr?: string };
      throw new Error(`${cmd}: ${err.code === 'ENOENT' ? `not installed (${hint}, as .ci/run does)` : `exit ${err.status}: ${err.stderr}`}`);
    }
    const lines = out.slice(out.lastIndexOf('--columns--\n') + '--columns--\n'.length).trimEnd().split('\n');
    return { columns: lines.slice(0, -1), rows: Number(lines.at(-1)) };
  };

  it.runIf(TARGET === 'node')("pandas (Debian's python3-pandas): read_csv's defaults take line 1 as the columns and every other line as a row", async () => {
    const site = sites[shape];
    const lines = (await shown(site)).get('pandas')!;
    const got = frame(site, '/usr/bin/python3', ['-c'], [...lines, 'print("--columns--"); print("\\n".join(occupations.columns)); print(len(occupations))'].join('\n'), 'apt-get install python3-pandas');
    const header = readFileSync(path.join(site.dir, 'downloads/occupations.csv'), 'utf8').split('\r\n', 1)[0]!.split(',');
    expect(got.columns).toEqual(header);
    expect(got.rows).toBe((await scores(site)).length);
  });

  it.runIf(TARGET === 'node')("R (Debian's r-base-core): read.csv's defaults take line 1 as the columns and every other line as a row", async () => {
    const site = sites[shape];
    const lines = (await shown(site)).get('R')!;
    const got = frame(site, 'Rscript', ['-e'], [...lines, 'cat("--columns--", names(occupations), nrow(occupations), sep = "\\n")'].join('\n'), 'apt-get install r-base-core');
    const header = readFileSync(path.join(site.dir, 'downloads/occupations.csv'), 'utf8').split('\r\n', 1)[0]!.split(',');
    expect(got.columns).toEqual(header);
    expect(got.rows).toBe((await scores(site)).length);
  });
});
