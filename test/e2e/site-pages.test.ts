// The site's pages in headless Chromium, as a visitor sees them: home, docs, an occupation page
// and the card gallery, at 360 px and 1280 px, in light and dark (see VIEWS). Each must request nothing from
// another host, log no console error, not scroll sideways, and pass axe-core with no serious or
// critical violation. The occupation pages: one with tasks and transitions, and those of the
// highest, the median and the lowest score (the explanation's waterfall and group chart). The
// scripted parts are driven for real: title search and the assessment form through the API, the
// gallery filter. Screenshots go to test-results/site/.
import { createRequire } from 'node:module';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type Site } from './embed-site.ts';

const SHOTS = resolve('test-results', 'site');
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let site: Site;
let browser: Browser;
let slug: string;
let iscoSlug: string;
/** Occupation pages of the highest, a middle and the lowest score (the explanation's charts at both ends). */
let byScore: Array<{ name: string; slug: string }>;

beforeAll(async () => {
  site = await startSite();
  browser = await launchChromium();
  rmSync(SHOTS, { recursive: true, force: true });
  mkdirSync(SHOTS, { recursive: true });
  // An occupation with tasks, transitions and labor data: the first search hit for "nurse".
  const res = await fetch(`${site.url}/api/v1/occupations?q=registered%20nurse&limit=1`);
  slug = (await res.json()).data[0].slug;
  // An ISCO-08 unit group linked to several U.S. occupations.
  iscoSlug = (await (await fetch(`${site.url}/api/v1/isco?q=software%20developer&limit=1`)).json()).data[0].slug;
  byScore = await highMediumLow(site.url);
});

/** Every occupation's score through the API, then the highest, the median and the lowest. */
async function highMediumLow(url: string): Promise<Array<{ name: string; slug: string }>> {
  const all: Array<{ slug: string; soc_code: string }> = [];
  for (let offset = 0; ; offset += 200) {
    const page = await (await fetch(`${url}/api/v1/occupations?limit=200&offset=${offset}`)).json();
    all.push(...page.data);
    if (all.length >= page.count) break;
  }
  const scored: Array<{ slug: string; score: number }> = [];
  // A few requests at a time: the server under test limits its connections.
  for (let i = 0; i < all.length; i += 16) {
    const batch = all.slice(i, i + 16);
    scored.push(...(await Promise.all(batch.map(async (o) => ({ slug: o.slug, score: (await (await fetch(`${url}/api/v1/occupations/${o.soc_code}/risk`)).json()).risk_score.final_score as number })))));
  }
  scored.sort((a, b) => a.score - b.score || (a.slug < b.slug ? -1 : 1));
  return [
    { name: 'occupation-high', slug: scored.at(-1)!.slug },
    { name: 'occupation-medium', slug: scored[Math.floor(scored.length / 2)]!.slug },
    { name: 'occupation-low', slug: scored[0]!.slug },
  ];
}

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

interface Watch {
  offHost: string[];
  errors: string[];
}

/** A page that records every request to another host and every console error or page error. */
async function open(context: BrowserContext, path: string): Promise<{ page: Page; watch: Watch }> {
  const page = await context.newPage();
  const watch: Watch = { offHost: [], errors: [] };
  page.on('request', (r) => {
    if (!r.url().startsWith(site.url) && !r.url().startsWith('data:')) watch.offHost.push(r.url());
  });
  page.on('console', (m) => m.type() === 'error' && watch.errors.push(`${m.location().url}: ${m.text()}`));
  page.on('pageerror', (e) => watch.errors.push(e.message));
  const res = await page.goto(site.url + path, { waitUntil: 'load' });
  expect(res?.status(), path).toBe(200);
  return { page, watch };
}

/** Which of axe's rules a view runs: all of them, only the colour ones, or all but the colour ones. */
type AxeRules = 'all' | 'colour' | 'layout';
/** axe's colour rules (tag cat.color) at the WCAG AA level and below: the ones that depend on the colour scheme. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

async function axeViolations(page: Page, rules: AxeRules): Promise<string[]> {
  await page.addScriptTag({ path: AXE_PATH });
  const options =
    rules === 'colour'
      ? { runOnly: { type: 'rule', values: COLOUR_RULES }, resultTypes: ['violations'] }
      : { resultTypes: ['violations'], rules: rules === 'layout' ? Object.fromEntries(COLOUR_RULES.map((id) => [id, { enabled: false }])) : {} };
  const result = (await page.evaluate((opts) => (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<unknown> } }).axe.run(document, opts), options)) as {
    violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown }> }>;
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(', ')}`);
}

const overflow = (page: Page) => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));

describe('site pages', () => {
  const pages = () => [
    { name: 'home', path: '/' },
    { name: 'occupation', path: `/occupations/${slug}` },
    { name: 'isco', path: `/isco/${iscoSlug}` },
    { name: 'gallery', path: '/embed/' },
    { name: 'docs', path: '/docs/' },
    { name: 'methodology', path: '/docs/methodology' },
    { name: 'downloads', path: '/downloads/' },
  ];

  // Every page in three views. Layout depends on the width, colours on the scheme (custom properties
  // switched by prefers-color-scheme, not by width), structure on neither: so axe runs each of its
  // rules on every page where that rule's outcome can differ, not four times over (the gallery and
  // the API reference take seconds per run). Overflow is checked at both widths; requests and
  // console errors in every view.
  const VIEWS = [
    { width: 1280, scheme: 'light', axe: 'all' },
    { width: 1280, scheme: 'dark', axe: 'colour' },
    { width: 360, scheme: 'light', axe: 'layout' },
  ] as const;

  for (const view of VIEWS) {
    it(`stay on this host, log no error, fit ${view.width} px, pass axe (${view.scheme}, ${view.axe === 'all' ? 'all rules' : view.axe === 'colour' ? 'colour rules' : 'all but colour rules'})`, { timeout: 240_000 }, async () => {
      const failures: string[] = [];
      // bypassCSP only so that axe can be injected; the pages' own CSP is checked in the contract tests.
      const context = await browser.newContext({ viewport: { width: view.width, height: 900 }, colorScheme: view.scheme, bypassCSP: true });
      // The occupation pages of the highest, median and lowest score carry the explanation's charts at both ends.
      for (const p of [...pages(), ...byScore.map((o) => ({ name: o.name, path: `/occupations/${o.slug}` }))]) {
        const { page, watch } = await open(context, p.path);
        const o = await overflow(page);
        if (o.scroll > o.client) failures.push(`${p.name} @${view.width}: scrolls sideways (${o.scroll} > ${o.client})`);
        // Full-page shots of the long pages (docs, gallery) take longer than a screenshot may; their top is what matters.
        if (p.name.startsWith('occupation-')) await page.locator('section[aria-labelledby=why]').screenshot({ path: resolve(SHOTS, `${p.name}-why-${view.width}-${view.scheme}.png`) });
        else await page.screenshot({ path: resolve(SHOTS, `${p.name}-${view.width}-${view.scheme}.png`), fullPage: p.name === 'home' });
        for (const v of await axeViolations(page, view.axe)) failures.push(`${p.name} @${view.width}: axe ${v}`);
        for (const u of watch.offHost) failures.push(`${p.name} @${view.width}: requested ${u}`);
        for (const e of watch.errors) failures.push(`${p.name} @${view.width}: console ${e}`);
        await page.close();
      }
      await context.close();
      expect(failures).toEqual([]);
    });
  }

  it('the home search lists matches from the API as links to occupation pages', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, watch } = await open(context, '/');
    await page.fill('input[name=q]', 'registered nurse');
    await page.click('form[data-search] button');
    const first = page.locator('[data-search-results] a').first();
    await first.waitFor();
    expect(await first.getAttribute('href')).toBe(`/occupations/${slug}`);
    await first.click();
    await page.waitForURL(`${site.url}/occupations/${slug}`);
    expect(await page.locator('h1').textContent()).toBe((await (await fetch(`${site.url}/api/v1/occupations?q=registered%20nurse&limit=1`)).json()).data[0].title);
    expect(watch.errors).toEqual([]);
    await context.close();
  });

  it('the assessment form posts to the API and shows the same personalized score', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 900 } });
    const { page, watch } = await open(context, `/occupations/${slug}`);
    const soc = await page.locator('form[data-assess]').getAttribute('data-soc');
    const factors = (await (await fetch(`${site.url}/api/v1/displacement/factors`)).json()).factors as Record<string, Array<{ value: string }>>;
    const chosen: Record<string, string> = {};
    for (const [name, options] of Object.entries(factors).slice(0, 2)) {
      chosen[name] = options.at(-1)!.value;
      await page.selectOption(`select[name=${name}]`, chosen[name]);
    }
    await page.click('form[data-assess] button');
    const out = page.locator('[data-personalized-score]');
    await out.waitFor();
    const expected = await (
      await fetch(`${site.url}/api/v1/displacement/assess`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ soc_code: soc, personal_factors: chosen }) })
    ).json();
    expect(await out.textContent()).toBe(expected.personalized_score.toFixed(1));
    await page.screenshot({ path: resolve(SHOTS, 'occupation-assessed-360.png'), fullPage: false });
    expect(watch.errors).toEqual([]);
    await context.close();
  });

  it('marking tasks and their time recomputes the score from them, with its range and what moved it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, watch } = await open(context, `/occupations/${slug}`);
    const soc = (await page.locator('form[data-assess]').getAttribute('data-soc'))!;
    const selects = page.locator('select[data-task-id]');
    const served = (await (await fetch(`${site.url}/api/v1/occupations/${soc}/tasks`)).json()).tasks as Array<{ task_id: number }>;
    expect(await selects.count()).toBe(served.length);
    // The first task "a lot", the second "some", other work "some"; one factor.
    const first = Number(await selects.nth(0).getAttribute('data-task-id'));
    const second = Number(await selects.nth(1).getAttribute('data-task-id'));
    await selects.nth(0).selectOption({ label: 'A lot' });
    await selects.nth(1).selectOption({ label: 'Some' });
    await page.selectOption('select[data-other-share]', { label: 'Some' });
    await page.selectOption('select[name=years_experience]', '0_2');
    await page.click('form[data-assess] button');
    const out = page.locator('[data-personalized-score]');
    await out.waitFor();
    const some = Number(await selects.nth(1).inputValue());
    const aLot = Number(await selects.nth(0).inputValue());
    expect(aLot).toBeGreaterThan(some);
    const expected = await (
      await fetch(`${site.url}/api/v1/displacement/assess`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ soc_code: soc, personal_factors: { years_experience: '0_2' }, tasks: [{ task_id: first, share: aLot }, { task_id: second, share: some }], other_share: some }),
      })
    ).json();
    expect(Object.keys(expected.adjustments)).toContain('tasks');
    expect(await out.textContent()).toBe(expected.personalized_score.toFixed(1));
    expect(await page.locator('[data-personal-range]').textContent()).toBe(`${expected.personalized_low.toFixed(1)} to ${expected.personalized_high.toFixed(1)}`);
    expect(await page.locator('[data-adjustment=tasks]').textContent()).toBe(`The tasks you marked: ${expected.adjustments.tasks > 0 ? '+' : ''}${expected.adjustments.tasks}`);
    expect(await page.locator('[data-adjustment]').count()).toBe(Object.keys(expected.adjustments).length);
    await page.screenshot({ path: resolve(SHOTS, 'occupation-assessed-tasks-1280.png'), fullPage: false });
    expect(watch.errors).toEqual([]);
    await context.close();
  });

  it('without JavaScript the assessment section says what the API call is', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const { page } = await open(context, `/occupations/${slug}`);
    const text = (await page.locator('section[aria-labelledby=assess]').textContent())!;
    expect(text).toContain('POST /api/v1/displacement/assess');
    expect(text).toMatch(/"tasks":\[\{"task_id":\d+,"share":\d+\}/);
    expect(await page.locator('section[aria-labelledby=assess] a[href$="/tasks"]').count()).toBe(1);
    await context.close();
  });

  it('without JavaScript the occupation page still shows the score, tasks and links, and no dead form', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const { page } = await open(context, `/occupations/${slug}`);
    expect(await page.locator('.score-box .big').textContent()).toMatch(/^\d{1,3}\.\d$/);
    expect(await page.locator('#tasks ~ .table-wrap tbody tr, section[aria-labelledby=tasks] tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('form[data-assess]').isVisible()).toBe(false);
    expect(await page.locator('a[href^="/api/v1/occupations/"]').count()).toBeGreaterThan(0);
    await context.close();
  });

  it('the gallery filter narrows the cards and hides empty groups', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, watch } = await open(context, '/embed/');
    const all = await page.locator('tr[data-title]').count();
    await page.fill('input[data-filter]', 'nurse');
    const visible = await page.locator('tr[data-title]:visible').count();
    expect(visible).toBeGreaterThan(0);
    expect(visible).toBeLessThan(all);
    for (const t of await page.locator('tr[data-title]:visible').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-title')))) expect(t).toContain('nurse');
    const groups = await page.locator('[data-group]:visible').count();
    expect(groups).toBeLessThan(await page.locator('[data-group]').count());
    await page.screenshot({ path: resolve(SHOTS, 'gallery-filtered-1280.png') });
    expect(watch.errors).toEqual([]);
    await context.close();
  });
});
