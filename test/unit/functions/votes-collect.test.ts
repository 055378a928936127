// The vote rules over time, with a fixed clock: the 24-hour repeat window across the daily salt
// rotation, the hourly budget and its Retry-After, salts pruned after two days. The real SQL on
// an in-memory SQLite database; the endpoint as the function runs it (Request in, Response out).
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { votesEndpoint, weakSecret, type VoteTarget } from '../../../functions/votes.ts';
import { clientSubject, lastForwardedHop } from '../../../functions/client-address.ts';
import { openSqliteVotes, type SqliteVotes } from '../../../functions/adapters/node/vote-store-sqlite.ts';
import { loadVoteSecret } from '../../../build/serve/vote-secret.ts';
import { splitVoteArgs } from '../../../build/serve/vote-args.ts';
import { votesCsv } from '../../../build/votes/export.ts';
import { ROUTES } from '../../../build/contract/routes.ts';

const HOUR = 3600_000;
const route = ROUTES.find((r) => r.id === 'occupation-votes')!;
const TARGETS: Record<string, VoteTarget> = {
  '11-1011.00': { slug: 'chief-executives', snapshot: { agree: 0, too_high: 0, too_low: 0 } },
  '15-1252.00': { slug: 'software-developers', snapshot: { agree: 4, too_high: 1, too_low: 0 } },
  '29-1141.00': { slug: 'registered-nurses', snapshot: { agree: 0, too_high: 0, too_low: 0 } },
};

function setup(budget?: number) {
  const db = openSqliteVotes(':memory:');
  let clock = Date.UTC(2026, 10, 23, 23, 30);
  const ep = votesEndpoint({ store: db.store, budget, now: () => clock }, async (soc) => TARGETS[soc] ?? null);
  const post = (soc: string, vote: string, ip: string) =>
    ep.post(new Request(`http://x/api/v1/occupations/${soc}/votes`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ vote }) }), soc, ip);
  return { db, post, ep, at: (ms: number) => (clock = ms), get now() { return clock; } };
}

describe('vote rules over time', () => {
  it('a repeat is refused for 24 hours, across the midnight salt rotation, then accepted', async () => {
    const t = setup();
    const start = t.now;
    expect((await t.post('15-1252.00', 'agree', '198.51.100.7')).status).toBe(201);
    t.at(start + 1 * HOUR); // 00:30 next day: a new salt, the old one still kept
    expect((await t.post('15-1252.00', 'too_low', '198.51.100.7')).status).toBe(409);
    expect((t.db.db.prepare('SELECT COUNT(*) AS n FROM vote_salts').get() as { n: number }).n).toBe(2);
    t.at(start + 23 * HOUR);
    expect((await t.post('15-1252.00', 'too_low', '198.51.100.7')).status).toBe(409);
    t.at(start + 24 * HOUR + 1000);
    expect((await t.post('15-1252.00', 'too_low', '198.51.100.7')).status).toBe(201);
    const days = () => (t.db.db.prepare('SELECT day FROM vote_salts ORDER BY day').all() as Array<{ day: string }>).map((r) => r.day);
    expect(days()).toEqual(['2026-11-23', '2026-11-24']);
    // Two days later (no vote on the 25th): the salts of the 23rd and 24th are deleted.
    t.at(start + 72 * HOUR);
    expect((await t.post('29-1141.00', 'agree', '198.51.100.7')).status).toBe(201);
    expect(days()).toEqual(['2026-11-26']);
    t.db.close();
  });

  it('the budget counts an hour across occupations; Retry-After is when the oldest vote leaves the window', async () => {
    const t = setup(2);
    const start = t.now;
    expect((await t.post('11-1011.00', 'agree', '198.51.100.8')).status).toBe(201);
    t.at(start + 10 * 60_000);
    expect((await t.post('15-1252.00', 'agree', '198.51.100.8')).status).toBe(201);
    t.at(start + 20 * 60_000);
    const r = await t.post('29-1141.00', 'agree', '198.51.100.8');
    expect(r.status).toBe(429);
    expect(r.headers['Retry-After']).toBe(String(40 * 60));
    t.at(start + HOUR + 1);
    expect((await t.post('29-1141.00', 'agree', '198.51.100.8')).status).toBe(201);
    t.db.close();
  });

  it('GET counts come from the database when there is one, from the snapshot otherwise', async () => {
    const t = setup();
    await t.post('15-1252.00', 'too_high', '198.51.100.9');
    const live = JSON.parse((await t.ep.get(new Request('http://x/'), '15-1252.00', route)).body!);
    expect(live).toMatchObject({ total: 1, too_high: 1 });
    const bare = votesEndpoint({ store: null }, async (soc) => TARGETS[soc] ?? null);
    expect(JSON.parse((await bare.get(new Request('http://x/'), '15-1252.00', route)).body!)).toMatchObject({ total: 5, agree: 4, too_high: 1, agree_pct: 80 });
    expect((await bare.get(new Request('http://x/'), '99-9999.99', route)).status).toBe(404);
    t.db.close();
  });

  it('an unusable client address is a 400, not a vote under a shared key', async () => {
    const t = setup();
    expect((await t.post('15-1252.00', 'agree', 'not-an-ip')).status).toBe(400);
    expect((t.db.db.prepare('SELECT COUNT(*) AS n FROM votes').get() as { n: number }).n).toBe(0);
    t.db.close();
  });
});

describe('client address', () => {
  it('IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64, anything else null', () => {
    expect(clientSubject('203.0.113.9')).toBe('203.0.113.9');
    expect(clientSubject('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientSubject('2001:db8:1:2::10')).toBe('2001:db8:1:2::/64');
    expect(clientSubject('2001:0DB8:0001:0002:ffff:0:0:99')).toBe('2001:db8:1:2::/64');
    expect(clientSubject('[2001:db8::1]')).toBe('2001:db8:0:0::/64');
    expect(clientSubject('::1')).toBe('0:0:0:0::/64');
    for (const bad of ['', '256.1.1.1', '1.2.3', 'fe80::1::2', 'x', '1.2.3.4, 5.6.7.8', null, undefined]) expect(clientSubject(bad)).toBeNull();
  });
  it('X-Forwarded-For: the last hop is the one our proxy wrote', () => {
    expect(lastForwardedHop('1.1.1.1, 2.2.2.2,3.3.3.3')).toBe('3.3.3.3');
    expect(lastForwardedHop('')).toBeNull();
    expect(lastForwardedHop(undefined)).toBeNull();
  });
});

describe('npm start vote flags and export', () => {
  it('takes --db, --trust-proxy, --vote-budget and --vote-secret-file out of argv, with environment fallbacks', () => {
    // The secret file is in the repository's var/ wherever the database is (beside a --db in the
    // working tree it showed in git status).
    expect(splitVoteArgs(['--port', '0', '--trust-proxy', '--db', 'x/y.sqlite'], {})).toEqual({
      votes: { db: 'x/y.sqlite', trustProxy: true, budget: 30, secretFile: 'var/vote-secret', secretFileNamed: false },
      rest: ['--port', '0'],
    });
    expect(splitVoteArgs(['--vote-budget=5'], { ODR_DB: 'e.sqlite', ODR_VOTE_SECRET: 's' })).toEqual({
      votes: { db: 'e.sqlite', trustProxy: false, budget: 5, secret: 's', secretFile: 'var/vote-secret', secretFileNamed: false },
      rest: [],
    });
    expect(splitVoteArgs([], {}).votes).toMatchObject({ db: 'var/votes.sqlite', secretFile: 'var/vote-secret' });
    expect(splitVoteArgs(['--vote-secret-file', 'k'], { ODR_VOTE_SECRET_FILE: 'e' }).votes).toMatchObject({ secretFile: 'k', secretFileNamed: true });
    expect(splitVoteArgs([], { ODR_VOTE_SECRET_FILE: 'e' }).votes.secretFile).toBe('e');
    expect(() => splitVoteArgs(['--vote-budget', '0'], {})).toThrow(/whole number/);
    expect(() => splitVoteArgs([], { ODR_VOTE_BUDGET: 'lots' })).toThrow(/ODR_VOTE_BUDGET/);
    expect(() => splitVoteArgs(['--db'], {})).toThrow(/--db needs a value/);
  });
  it('votes.csv: the build\'s header, one row per occupation in code-unit order, zeros filled in', () => {
    const out = votesCsv([
      { soc_code: '29-1141.00', vote: 'too_low', n: 2 },
      { soc_code: '15-1252.00', vote: 'agree', n: 3 },
      { soc_code: '15-1252.00', vote: 'too_high', n: 1 },
    ]);
    expect(out).toEqual({ csv: 'soc_code,agree,too_high,too_low\n15-1252.00,3,1,0\n29-1141.00,0,0,2\n', occupations: 2, votes: 6 });
  });
});

describe.skipIf(process.platform === 'win32')('the vote database and secret on disk (npm start)', () => {
  const scratch = () => mkdtempSync(path.join(tmpdir(), 'odr-votes-private-'));
  const mode = (f: string) => statSync(f).mode & 0o777;

  it('the database and its -wal and -shm are created 0600 (whatever the umask), and an older 0644 file is tightened', async () => {
    const dir = scratch();
    const old = process.umask(0o022);
    try {
      const file = path.join(dir, 'new', 'votes.sqlite');
      const v = openSqliteVotes(file);
      await v.store.salts('2026-11-23', '2026-11-22', 'a'.repeat(64));
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect({ f, mode: mode(f) }).toEqual({ f, mode: 0o600 });
      expect(mode(path.dirname(file))).toBe(0o700);
      v.close();
      chmodSync(file, 0o644);
      const again = openSqliteVotes(file);
      expect(mode(file)).toBe(0o600);
      again.close();
    } finally {
      process.umask(old);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('salts older than yesterday go at open and on the timer, without any vote', async () => {
    const dir = scratch();
    try {
      const file = path.join(dir, 'votes.sqlite');
      let clock = Date.UTC(2026, 10, 23, 12);
      const first = openSqliteVotes(file, { now: () => clock, pruneEveryMs: 0 });
      await first.store.salts('2026-11-23', '2026-11-22', 'a'.repeat(64));
      first.db.prepare('INSERT INTO vote_salts (day, salt) VALUES (?, ?), (?, ?)').run('2026-11-22', 'b', '2026-11-20', 'c');
      first.close();
      const days = (v: SqliteVotes) => (v.db.prepare('SELECT day FROM vote_salts ORDER BY day').all() as Array<{ day: string }>).map((r) => r.day);
      const second = openSqliteVotes(file, { now: () => clock, pruneEveryMs: 20 });
      try {
        expect(days(second)).toEqual(['2026-11-22', '2026-11-23']);
        // Two days later, no vote in between: the timer alone removes them.
        clock += 2 * 86_400_000;
        for (let i = 0; i < 100 && days(second).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
        expect(days(second)).toEqual([]);
      } finally {
        second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a secret file that is a link is read, and the file it names is left as it is (never made 0600 through the link)', () => {
    const dir = scratch();
    try {
      const target = path.join(dir, 'mounted-secret');
      writeFileSync(target, `${'0123456789abcdef'.repeat(4)}\n`);
      chmodSync(target, 0o644);
      symlinkSync(target, path.join(dir, 'vote-secret'));
      expect(loadVoteSecret(path.join(dir, 'vote-secret'))).toEqual({ secret: '0123456789abcdef'.repeat(4), created: false, tightened: false });
      expect(mode(target)).toBe(0o644);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('weak secrets: too short, or too few different characters; a random one passes', () => {
    expect(weakSecret(' ')).toMatch(/has 0 characters/);
    expect(weakSecret('a')).toMatch(/has 1 characters/);
    expect(weakSecret('ab'.repeat(20))).toMatch(/only 2 different characters/);
    expect(weakSecret('0123456789abcdef'.repeat(4))).toBeNull();
  });

  it('the secret file is generated once, 0600, and read afterwards; a loose one is tightened, an empty one refused', () => {
    const dir = scratch();
    try {
      const file = path.join(dir, 'vote-secret');
      const made = loadVoteSecret(file);
      expect(made).toMatchObject({ created: true, tightened: false });
      expect(made.secret).toMatch(/^[0-9a-f]{64}$/);
      expect(mode(file)).toBe(0o600);
      expect(loadVoteSecret(file)).toEqual({ secret: made.secret, created: false, tightened: false });
      chmodSync(file, 0o644);
      expect(loadVoteSecret(file)).toEqual({ secret: made.secret, created: false, tightened: true });
      expect(mode(file)).toBe(0o600);
      expect(readdirSync(dir)).toEqual(['vote-secret']);
      writeFileSync(file, '  \n');
      expect(() => loadVoteSecret(file)).toThrow(/is empty/);
      writeFileSync(file, 'a\n');
      expect(() => loadVoteSecret(file)).toThrow(/is too weak: it has 1 characters/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
