// The embeddable risk card in headless Chromium, framed by a page on another site, the way most
// people will see it. The cards most likely to overflow and a spread of the rest of the /embed/
// index (cardsToCheck; E2E_MAX_CARDS=Infinity checks every card) must fit 320x280 without
// scrolling, request nothing but themselves, say their tier in words and label their gauge.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, type Frame, type Page } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderEmbed } from '../../build/emit/embed.ts';
import { HOSTILE_TITLE, fixtureModel } from '../fixtures/embed/model.ts';
import { INSPECT_CARD, type CardMetrics } from './card-inspect.ts';
import { aaMinimum, contrast } from './contrast.ts';
import { realData, startSite, type Site } from './embed-site.ts';
import { snippet, startHostSite, type HostSite } from './host-site.ts';
import { parseIndex, type IndexRow } from './index-rows.ts';
import { worstThenSpread } from './card-sample.ts';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors *";
const SHOTS = resolve('test-results', 'embed');
const FRAMES_PER_PAGE = 48;
const TIER_WORDS = /^(Low|Medium|High) exposure$/;
const NEXT_STEP = /^((Move|Route): \S.*|Focus within the job|Staying is the advice|None passes the rules)$/;

let site: Site;
let host: HostSite;
let browser: Browser;
let rows: IndexRow[];

beforeAll(async () => {
  [site, host] = await Promise.all([startSite(), startHostSite()]);
  browser = await launchChromium();
  const res = await fetch(`${site.url}/embed/`);
  rows = parseIndex(await res.text());
  // Artifacts of this run only.
  rmSync(SHOTS, { recursive: true, force: true });
  mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([site?.close(), host?.close()]);
});

/**
 * Cards to check: the ones most likely to overflow, then an even spread. The template is the same
 * for every card; what can push one past 320x280 is its text: the 30 longest titles and the 30
 * cards with the most visible text (title, figures, years, what lowers the score), read from each
 * card's file in the served folder (the bytes the server sends for it, as start-limits.test.ts
 * checks file by file: reading 923 files costs next to nothing, fetching them some 1.4 CPU-s),
 * plus a spread of the index, 120 in all by default (all 923 took 80 s of the suite);
 * E2E_MAX_CARDS sets the number (E2E_MAX_CARDS=Infinity checks every card).
 */
function cardsToCheck(): IndexRow[] {
  const max = Number(process.env.E2E_MAX_CARDS ?? 120);
  if (rows.length <= max) return rows;
  const byTitle = [...rows].sort((a, b) => b.title.length - a.title.length || (a.slug < b.slug ? -1 : 1)).slice(0, 30);
  const textLength = new Map<string, number>();
  for (const r of rows) {
    const html = readFileSync(join(site.dir, 'embed', r.slug, 'index.html'), 'utf8');
    const body = html.slice(html.indexOf('<body'));
    textLength.set(r.slug, body.replace(/<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').length);
  }
  const byText = [...rows].sort((a, b) => textLength.get(b.slug)! - textLength.get(a.slug)! || (a.slug < b.slug ? -1 : 1)).slice(0, 30);
  return worstThenSpread(rows, [...byTitle, ...byText], max, (r) => r.slug);
}

function cardFrames(page: Page): Frame[] {
  return page.frames().filter((f) => f.url().startsWith(`${site.url}/embed/`));
}

async function openFrames(page: Page, cards: Array<{ slug: string; title: string }>, lazy = false): Promise<Frame[]> {
  await page.goto(host.page(cards.map((c) => snippet(site.url, c.slug, c.title, lazy))), { waitUntil: 'load' });
  // Lazy frames in view may load after the host's load event: wait until each has its heading.
  if (lazy) await Promise.all(cards.map((_, i) => page.frameLocator('iframe').nth(i).locator('h1').waitFor()));
  return cardFrames(page);
}

async function inspect(frame: Frame): Promise<CardMetrics> {
  return (await frame.evaluate(INSPECT_CARD)) as CardMetrics;
}

describe('site', () => {
  it('the /embed/ index lists cards with unique slugs, titles and tiers in words', () => {
    expect(rows.length).toBeGreaterThan(site.data === 'real' ? 500 : 5);
    expect(new Set(rows.map((r) => r.slug)).size).toBe(rows.length);
    for (const r of rows) {
      expect(r.title.length).toBeGreaterThan(0);
      expect(r.tierWords).toMatch(TIER_WORDS);
      expect(r.score).toMatch(/^\d{1,3}$/); // whole numbers on pages and cards (the API keeps one decimal)
    }
  });

  it('serves cards, the index and the 404 card with the framing headers', async () => {
    const unknown = `${site.url}/embed/no-such-occupation-xyz`;
    for (const [url, status] of [
      [`${site.url}/embed/${rows[0]!.slug}`, 200],
      [unknown, 404],
    ] as const) {
      const res = await fetch(url);
      expect({ url, status: res.status }).toEqual({ url, status });
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(CSP);
      expect(res.headers.get('x-frame-options')).toBeNull();
    }
    expect(await (await fetch(unknown)).text()).toContain('Card not found');
  });
});

describe('cards framed by another site', () => {
  it('every checked card fits 320x280, loads nothing else, states its tier and labels its gauge', { timeout: 240_000 }, async () => {
    const cards = cardsToCheck();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => m.type() === 'error' && errors.push(`${m.location().url}: ${m.text()}`));
    page.on('pageerror', (e) => errors.push(e.message));
    const failures: string[] = [];
    let checked = 0;
    const clamped: string[] = [];
    const cutSteps: string[] = [];
    for (let i = 0; i < cards.length; i += FRAMES_PER_PAGE) {
      const batch = cards.slice(i, i + FRAMES_PER_PAGE);
      const bySlug = new Map(batch.map((c) => [`${site.url}/embed/${c.slug}`, c]));
      const frames = await openFrames(page, batch);
      expect(frames).toHaveLength(batch.length);
      const measured = await Promise.all(frames.map(async (f) => [f, await inspect(f)] as const));
      for (const [frame, m] of measured) {
        const card = bySlug.get(frame.url())!;
        const fail = (what: string) => failures.push(`${card.slug}: ${what}`);
        if (m.scroll.w > m.scroll.cw || m.scroll.h > m.scroll.ch) fail(`scrolls ${JSON.stringify(m.scroll)}`);
        if (m.scroll.cw !== 320 || m.scroll.ch !== 280) fail(`frame viewport ${m.scroll.cw}x${m.scroll.ch}`);
        if (m.outside.length) fail(`outside the frame: ${m.outside.join(', ')}`);
        if (m.clipped.length) fail(`cut off: ${m.clipped.join(', ')}`);
        if (m.h1?.title !== card.title) fail(`heading title attribute ${JSON.stringify(m.h1?.title)}`);
        if (!m.h1?.clamped && m.h1?.text !== card.title) fail('heading text differs from the title');
        if (m.h1?.clamped) clamped.push(card.title);
        // The next step in a few words: the move or route by title, or the kind of advice; cut only with an ellipsis, whole in its title.
        if (!m.step || !NEXT_STEP.test(m.step.text) || m.step.title !== m.step.text) fail(`next step ${JSON.stringify(m.step)}`);
        else if (m.step.cut && !m.step.ellipsis) fail('next step cut without an ellipsis');
        else if (m.step.cut) cutSteps.push(m.step.text);
        if (m.tier !== card.tierWords || !TIER_WORDS.test(m.tier ?? '')) fail(`tier ${JSON.stringify(m.tier)} vs index ${card.tierWords}`);
        if (m.gauge?.role !== 'img' || !m.gauge.label?.includes(`${card.score} out of 100`)) fail(`gauge ${JSON.stringify(m.gauge)}`);
        if (m.minFontPx < 11) fail(`font ${m.minFontPx}px`);
        // A radius means the inline <style> was applied (the CSP allows it).
        if (m.borderRadius !== '10px') fail('inline style not applied');
        if (!m.link || m.link.target !== '_blank' || m.link.rel !== 'noopener' || m.link.href !== `${site.url}/occupations/${card.slug}`) {
          fail(`link ${JSON.stringify(m.link)}`);
        }
        if (m.scripts !== 0) fail(`${m.scripts} scripts`);
        checked += 1;
      }
    }
    await page.close();
    expect(failures).toEqual([]);
    expect(checked).toBe(cards.length);
    // Only the host pages and each card's own URL, once: no fonts, images, analytics or favicons.
    const fromCards = requests.filter((u) => !u.startsWith(host.url)).sort();
    expect(fromCards).toEqual(cards.map((c) => `${site.url}/embed/${c.slug}`).sort());
    expect(errors).toEqual([]);
    console.log(`embed e2e: ${checked} cards checked in frames (${site.data} data, ${rows.length} listed); titles cut with an ellipsis: ${clamped.length}`);
    for (const t of clamped) console.log(`  clamped (${t.length} chars): ${t}`);
    console.log(`embed e2e: next steps cut with an ellipsis (whole in the title): ${cutSteps.length}`);
  });

  it('text meets WCAG AA contrast in light and dark, and the gauge arcs 3:1', { timeout: 60_000 }, async () => {
    const sample = sampleByTier();
    for (const scheme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme: scheme });
      for (const frame of await openFrames(page, sample)) {
        const m = await inspect(frame);
        expect(m.scheme).toBe(scheme);
        // heading, eyebrow, tier, score, confidence, facts, footer, gauge number at least
        expect(m.texts.length).toBeGreaterThanOrEqual(8);
        expect(m.strokes.map((s) => s.what)).toEqual(['path.track', 'path.value']);
        for (const t of m.texts) {
          const ratio = contrast(t.color, t.bg);
          expect({ card: m.url, scheme, what: t.what, ok: ratio >= aaMinimum(t.px, t.bold), ratio: Number(ratio.toFixed(2)) }).toMatchObject({ ok: true });
        }
        for (const s of m.strokes) {
          const ratio = contrast(s.color, s.bg);
          // The track is decoration (the unfilled part); the value arc carries the meaning.
          if (s.what.includes('value')) expect({ card: m.url, scheme, ratio: Number(ratio.toFixed(2)), ok: ratio >= 3 }).toMatchObject({ ok: true });
        }
      }
      await page.close();
    }
  });

  it('saves screenshots of cards in both schemes, including the longest title and the 404', { timeout: 60_000 }, async () => {
    const longest = [...rows].sort((a, b) => b.title.length - a.title.length)[0]!;
    const sample = [longest, ...sampleByTier().filter((c) => c.slug !== longest.slug)];
    const shots = [...sample.map((c) => ({ slug: c.slug, title: c.title })), { slug: 'no-such-occupation-xyz', title: 'missing' }];
    for (const scheme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme: scheme, deviceScaleFactor: 2 });
      // The documented snippet as is, lazy loading included.
      await openFrames(page, shots, true);
      for (let i = 0; i < shots.length; i += 1) {
        const name = i === 0 ? 'longest-title' : shots[i]!.slug === 'no-such-occupation-xyz' ? '404' : shots[i]!.slug;
        const buf = await page.locator('iframe').nth(i).screenshot({ path: join(SHOTS, `${scheme}-${name}.png`) });
        expect(buf.length).toBeGreaterThan(1000);
      }
      await page.close();
    }
  });

  it('renders a hostile title as text in the browser DOM', async () => {
    const html = renderEmbed(fixtureModel(), 'timeline', { dataVersion: 'fixture' }).pages.find((p) => p.slug === 'script-alert-x-script-quotes-too')!.html;
    const page = await browser.newPage({ viewport: { width: 320, height: 280 }, javaScriptEnabled: true });
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs += 1;
      void d.dismiss();
    });
    await page.setContent(html);
    const dom = await page.evaluate(`({ scripts: document.querySelectorAll('script').length, h1: document.querySelector('h1').textContent,
      title: document.querySelector('h1').getAttribute('title'), attrs: document.querySelector('h1').getAttributeNames(), doc: document.title })`);
    expect(dom).toEqual({ scripts: 0, h1: HOSTILE_TITLE, title: HOSTILE_TITLE, attrs: ['class', 'title'], doc: `AI displacement risk: ${HOSTILE_TITLE}` });
    expect(dialogs).toBe(0);
    await page.close();
  });

  it('the "Full data" link of a card opens the occupation page, which links the JSON', async () => {
    const page = await browser.newPage();
    for (const card of sampleByTier()) {
      await page.goto(`${site.url}/embed/${card.slug}`);
      const href = await page.locator('main a').getAttribute('href');
      expect(href).toBe(`/occupations/${card.slug}`);
      const res = await fetch(new URL(href!, site.url));
      expect({ href, status: res.status }).toEqual({ href, status: 200 });
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await res.text();
      const json = /href="(\/api\/v1\/occupations\/[^"/]+)"/.exec(html)?.[1];
      const body = (await (await fetch(new URL(json!, site.url))).json()) as { title?: string };
      expect(body.title).toBe(card.title);
    }
    await page.close();
  });
});

/** One card per tier in words, first of each in index order. */
function sampleByTier(): IndexRow[] {
  const seen = new Map<string, IndexRow>();
  for (const r of rows) if (!seen.has(r.tierWords)) seen.set(r.tierWords, r);
  return [...seen.values()];
}
