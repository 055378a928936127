// The timeline card's vote form in headless Chromium, framed by another site: a reader clicks
// "About right" with JavaScript disabled, the frame comes back to the card in its thank-you
// state, the count is up by exactly one, and a second click is refused with its own state.
// The other site's own attempts to vote (its form, its fetch, the card in a sandbox that takes
// its origin) are refused with 403; a sandbox with allow-same-origin allow-forms votes.
// The site is the real timeline build on the real local server with a SQLite vote database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type Frame, type Locator, type Page } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { VotesResponse } from '../../build/contract/response-schemas.ts';
import { startServer } from '../../functions/adapters/node/server.ts';
import { openSqliteVotes, type SqliteVotes } from '../../functions/adapters/node/vote-store-sqlite.ts';
import { snippet, startHostSite, type HostSite } from './host-site.ts';

let browser: Browser;
let host: HostSite;
let site: { url: string; close(): Promise<void> };
let db: SqliteVotes;
let scratch: string;

beforeAll(async () => {
  const dir = process.env.E2E_DIST ? resolve(process.env.E2E_DIST) : inject('dists').timeline;
  scratch = mkdtempSync(join(tmpdir(), 'odr-card-vote-'));
  db = openSqliteVotes(join(scratch, 'votes.sqlite'));
  // No --trust-proxy: the browser's socket address is the client, as under plain `npm start`,
  // which always has a secret.
  site = await startServer({ dir, port: 0, host: '127.0.0.1', votes: { store: db.store, secret: 'e2e-card-vote-secret-0123456789abcdef', requireSecret: true } });
  host = await startHostSite();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([site?.close(), host?.close()]);
  db?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function counts(soc: string) {
  const r = await fetch(`${site.url}/api/v1/occupations/${soc}/votes`);
  expect(r.status).toBe(200);
  return VotesResponse.parse(await r.json());
}

/** What the reader sees of the vote area: the visible state line, or the form's buttons. */
const VOTE_AREA = `(() => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).display !== 'none';
  const state = [...document.querySelectorAll('.vote-state')].find(shown);
  const form = document.querySelector('.vote form');
  const main = document.querySelector('main');
  return {
    state: state ? { id: state.id, text: state.textContent } : null,
    formShown: form ? shown(form) : false,
    buttons: [...document.querySelectorAll('.vote button')].filter(shown).map((b) => b.textContent),
    fits: document.scrollingElement.scrollHeight <= innerHeight && main.getBoundingClientRect().bottom <= innerHeight + 0.5,
    scripts: document.querySelectorAll('script').length,
  };
})()`;

/**
 * Clicks a button of the card's form and waits until the frame has gone to the card's page with
 * `fragment` and loaded it: the navigation is reported when the new document is committed, and
 * reading the card then could read the one before, or a document not yet styled (a CI run read the
 * form still shown, no state line, after the event for #vote-repeat).
 */
async function submitAndLand(page: Page, button: Locator, fragment: string): Promise<void> {
  const [landed] = await Promise.all([page.waitForEvent('framenavigated', (f) => f.url().endsWith(fragment)), button.click()]);
  await landed.waitForLoadState('load');
}

describe('card vote form (no JavaScript)', () => {
  it('submits, comes back to the card with a thank-you state, and the count is up by one', { timeout: 60_000 }, async () => {
    const occ = (await (await fetch(`${site.url}/api/v1/occupations?q=registered%20nurses&limit=1`)).json()).data[0] as { soc_code: string; slug: string; title: string };
    const before = await counts(occ.soc_code);
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 800, height: 600 } });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
    await page.goto(host.page([snippet(site.url, occ.slug, occ.title, false)]), { waitUntil: 'load' });
    const frame = (): Frame => page.frames().find((f) => f.url().startsWith(`${site.url}/embed/`))!;

    expect(await frame().evaluate(VOTE_AREA)).toEqual({ state: null, formShown: true, buttons: ['Too high', 'About right', 'Too low'], fits: true, scripts: 0 });

    await submitAndLand(page, frame().getByRole('button', { name: 'About right' }), '#voted');
    expect(frame().url()).toBe(`${site.url}/embed/${occ.slug}#voted`);
    expect(await frame().evaluate(VOTE_AREA)).toMatchObject({ state: { id: 'voted', text: 'Thanks! Your vote was counted.' }, formShown: false, buttons: [], fits: true });

    const after = await counts(occ.soc_code);
    expect(after).toMatchObject({ total: before.total + 1, agree: before.agree + 1, too_high: before.too_high, too_low: before.too_low });

    // The same reader again: refused, said so on the card, nothing counted.
    await page.goto(host.page([snippet(site.url, occ.slug, occ.title, false)]), { waitUntil: 'load' });
    await submitAndLand(page, frame().getByRole('button', { name: 'Too low' }), '#vote-repeat');
    expect(await frame().evaluate(VOTE_AREA)).toMatchObject({ state: { id: 'vote-repeat' }, formShown: false });
    expect(await counts(occ.soc_code)).toEqual(after);

    // Only the host page, the card, and the card's own form post: no other host.
    const other = requests.filter((r) => !r.includes(`${host.url}/`) && !r.includes(`${site.url}/`));
    expect(other).toEqual([]);
    expect(requests.filter((r) => r.startsWith('POST '))).toEqual([
      `POST ${site.url}/api/v1/occupations/${occ.soc_code}/votes`,
      `POST ${site.url}/api/v1/occupations/${occ.soc_code}/votes`,
    ]);
    await context.close();
  });

  it("another site's own form post and fetch() are refused (403) and count nothing; the card in a sandbox votes only with allow-same-origin", { timeout: 60_000 }, async () => {
    const list = (await (await fetch(`${site.url}/api/v1/occupations?q=accountants&limit=2`)).json()).data as Array<{ soc_code: string; slug: string; title: string }>;
    const [occ, other] = [list[0]!, list[1]!];
    const before = await counts(occ.soc_code);
    const action = `${site.url}/api/v1/occupations/${occ.soc_code}/votes`;

    // A page of the other site with a form of its own, posting to the vote endpoint (no script needed).
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const page = await noScript.newPage();
    const posted = page.waitForResponse((r) => r.url() === action && r.request().method() === 'POST');
    await page.goto(host.page([`<form method="post" action="${action}"><input type="hidden" name="vote" value="too_high"><button>Vote</button></form>`]), { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Vote' }).click();
    const answer = await posted;
    const sent = await answer.request().allHeaders();
    expect({ status: answer.status(), type: answer.headers()['content-type'], origin: sent['origin'], site: sent['sec-fetch-site'] }).toEqual({
      status: 403,
      type: 'application/problem+json; charset=utf-8',
      origin: host.url,
      site: 'cross-site',
    });
    await noScript.close();

    // Its script: a CORS fetch with JSON (the preflight passes, the vote does not).
    const scripted = await browser.newContext();
    const spage = await scripted.newPage();
    await spage.goto(host.page(['<p>host</p>']), { waitUntil: 'load' });
    const status = await spage.evaluate(async (url) => (await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"vote":"too_low"}' })).status, action);
    expect(status).toBe(403);
    await scripted.close();
    expect(await counts(occ.soc_code)).toEqual(before);

    // The card framed with sandbox: without allow-same-origin its origin is opaque (Origin: null,
    // cross-site), so its vote is refused; with allow-same-origin allow-forms it counts (docs/EMBED.md).
    const framed = await browser.newContext({ javaScriptEnabled: false });
    const fpage = await framed.newPage();
    const sandboxed = (slug: string, title: string, sandbox: string) => snippet(site.url, slug, title, false).replace('<iframe ', `<iframe sandbox="${sandbox}" `);
    const frameOf = (slug: string): Frame => fpage.frames().find((f) => f.url().startsWith(`${site.url}/embed/${slug}`))!;
    const otherBefore = await counts(other.soc_code);
    const refused = fpage.waitForResponse((r) => r.url().endsWith(`/${occ.soc_code}/votes`) && r.request().method() === 'POST');
    await fpage.goto(host.page([sandboxed(occ.slug, occ.title, 'allow-forms'), sandboxed(other.slug, other.title, 'allow-forms allow-same-origin')]), { waitUntil: 'load' });
    await frameOf(occ.slug).getByRole('button', { name: 'About right' }).click();
    const r = await refused;
    expect({ status: r.status(), origin: (await r.request().allHeaders())['origin'] }).toEqual({ status: 403, origin: 'null' });
    expect(await counts(occ.soc_code)).toEqual(before);
    await Promise.all([fpage.waitForEvent('framenavigated', (f) => f.url().endsWith('#voted')), frameOf(other.slug).getByRole('button', { name: 'Too low' }).click()]);
    expect(await counts(other.soc_code)).toMatchObject({ total: otherBefore.total + 1, too_low: otherBefore.too_low + 1 });
    await framed.close();
  });
});
