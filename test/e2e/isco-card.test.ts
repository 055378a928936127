// The ISCO-08 pages and cards in headless Chromium: each checked card (/embed/isco/<slug>: the
// longest titles and a spread of the rest), framed by a page on another site, fits 320x280 without
// scrolling or cutting anything off, requests nothing but itself, states its tier in words, says that its tasks and weights are
// American, shows no wage and passes axe; the unit group page (/isco/<slug>) says the same and
// shows no wage. (The page's fit, host and axe checks at 360 and 1280 px are in site-pages.test.ts.)
import { createRequire } from 'node:module';
import { type Browser, type Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { IscoList } from '../../build/contract/response-schemas.ts';
import { INSPECT_CARD, type CardMetrics } from './card-inspect.ts';
import { launchChromium } from './chromium.ts';
import { startSite, type Site } from './embed-site.ts';
import { snippet, startHostSite, type HostSite } from './host-site.ts';
import { worstThenSpread } from './card-sample.ts';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const FRAMES_PER_PAGE = 48;
const TIER_WORDS = { low: 'Low exposure', medium: 'Medium exposure', high: 'High exposure' } as const;

let site: Site;
let host: HostSite;
let browser: Browser;
let units: z.infer<typeof IscoList>['data'];

beforeAll(async () => {
  [site, host] = await Promise.all([startSite(), startHostSite()]);
  browser = await launchChromium();
  units = [];
  for (let offset = 0; ; offset += 200) {
    const page = IscoList.parse(await (await fetch(`${site.url}/api/v1/isco?limit=200&offset=${offset}`)).json());
    units.push(...page.data);
    if (units.length >= page.count) break;
  }
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([site?.close(), host?.close()]);
});

/**
 * The cards checked: the 24 longest titles (what can overflow: the template is the same for all)
 * and an even spread of the rest, 48 in all by default (all 428 took 90 s); E2E_MAX_CARDS sets it.
 */
function cardsToCheck(): typeof units {
  const max = Number(process.env.E2E_MAX_CARDS ?? 48);
  const longest = [...units].sort((a, b) => b.title.length - a.title.length || (a.isco_code < b.isco_code ? -1 : 1)).slice(0, 24);
  return worstThenSpread(units, longest, max, (u) => u.isco_code);
}

describe('ISCO-08 cards framed by another site', () => {
  it('the checked cards fit 320x280, load nothing else, state tier and American tasks and weights, no wage', { timeout: 240_000 }, async () => {
    expect(units.length).toBeGreaterThan(0);
    const cards = cardsToCheck();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => errors.push(e.message));
    const failures: string[] = [];
    let checked = 0;
    for (let i = 0; i < cards.length; i += FRAMES_PER_PAGE) {
      const batch = cards.slice(i, i + FRAMES_PER_PAGE);
      const byUrl = new Map(batch.map((u) => [`${site.url}/embed/isco/${u.slug}`, u]));
      await page.goto(host.page(batch.map((u) => snippet(site.url, `isco/${u.slug}`, u.title, false))), { waitUntil: 'load' });
      const frames: Frame[] = page.frames().filter((f) => byUrl.has(f.url()));
      expect(frames).toHaveLength(batch.length);
      for (const frame of frames) {
        const u = byUrl.get(frame.url())!;
        const fail = (what: string) => failures.push(`${u.isco_code} ${u.slug}: ${what}`);
        const m = (await frame.evaluate(INSPECT_CARD)) as CardMetrics;
        if (m.scroll.w > m.scroll.cw || m.scroll.h > m.scroll.ch) fail(`scrolls ${JSON.stringify(m.scroll)}`);
        if (m.scroll.cw !== 320 || m.scroll.ch !== 280) fail(`frame viewport ${m.scroll.cw}x${m.scroll.ch}`);
        if (m.outside.length) fail(`outside the frame: ${m.outside.join(', ')}`);
        if (m.clipped.length) fail(`cut off: ${m.clipped.join(', ')}`);
        if (m.h1?.title !== u.title) fail(`heading title ${JSON.stringify(m.h1?.title)}`);
        if (m.tier !== TIER_WORDS[u.risk_tier]) fail(`tier ${JSON.stringify(m.tier)}`);
        if (!m.gauge?.label?.includes(`${Math.round(u.final_score)} out of 100`)) fail(`gauge ${JSON.stringify(m.gauge)}`);
        if (m.link?.href !== `${site.url}/isco/${u.slug}` || m.link.target !== '_blank') fail(`link ${JSON.stringify(m.link)}`);
        if (m.scripts !== 0) fail(`${m.scripts} scripts`);
        const text = await frame.evaluate('document.body.innerText');
        if (!/American/.test(String(text)) || !/U\.S\. occupation/.test(String(text))) fail('does not say that the tasks and weights are American');
        if (/\$/.test(String(text)) || /wage/i.test(String(text))) fail('shows a wage');
        checked++;
      }
    }
    // Axe on one batch's first card, opened on its own (axe runs in the document it is injected in).
    const axePage = await browser.newPage({ viewport: { width: 320, height: 280 }, bypassCSP: true });
    for (const u of [units[0]!, [...units].sort((a, b) => b.title.length - a.title.length)[0]!]) {
      await axePage.goto(`${site.url}/embed/isco/${u.slug}`);
      await axePage.addScriptTag({ path: AXE_PATH });
      const r = (await axePage.evaluate(() => (window as unknown as { axe: { run(d: Document): Promise<unknown> } }).axe.run(document))) as { violations: Array<{ id: string; impact: string | null }> };
      for (const v of r.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) failures.push(`${u.slug}: axe ${v.id} (${v.impact})`);
    }
    await axePage.close();
    await page.close();
    expect(failures).toEqual([]);
    expect(checked).toBe(cards.length);
    expect(errors).toEqual([]);
    const fromCards = requests.filter((x) => !x.startsWith(host.url)).sort();
    expect(fromCards).toEqual(cards.map((u) => `${site.url}/embed/isco/${u.slug}`).sort());
  });

  it('an unknown card is the 404 card', async () => {
    const r = await fetch(`${site.url}/embed/isco/no-such-unit-group`);
    expect(r.status).toBe(404);
    expect(await r.text()).toContain('Card not found');
  });
});

describe('ISCO-08 page', () => {
  it('says the tasks and weights are American, lists the U.S. occupations with weights adding to 100%, shows no wage', async () => {
    const u = units.find((x) => x.isco_code === '2512') ?? units[0]!;
    const page = await browser.newPage();
    const res = await page.goto(`${site.url}/isco/${u.slug}`);
    expect(res?.status()).toBe(200);
    const text = await page.locator('main, body').first().innerText();
    expect(text).toContain('U.S. task lists of O*NET');
    expect(text).toContain('U.S. employment');
    expect(text).not.toMatch(/\$\s?\d/);
    expect(await page.locator('h1').textContent()).toBe(u.title);
    const weights = await page.locator('td[data-label=Weight]').allTextContents();
    expect(weights.length).toBeGreaterThan(0);
    expect(Math.abs(weights.reduce((a, w) => a + Number(w.replace('%', '')), 0) - 100)).toBeLessThan(0.05 * weights.length + 1e-9);
    await page.close();
  });
});
