// The world's way in and the docs' tables, in real Chromium: common non-U.S. titles typed into the
// home search reach their ISCO-08 unit group's page; no table cell of the docs pages breaks a word
// at 360 or 1280 pixels (measured from the rendered line boxes, not from the CSS); the "cite this"
// block of the home, docs and downloads pages and its Copy button.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shoot, useSiteSession, type Tab } from './site-session.ts';
import { REPO_ROOT } from '../support/dists-status.ts';

const s = useSiteSession('world');

// ISCO-08's own placement of these titles (ILO, ISCO-08 Volume I), not read from the seed.
const TITLES: Array<[string, string]> = [
  ['solicitor', '2611'],
  ['barrister', '2611'],
  ['lorry driver', '8332'],
  ['GP', '2211'],
];

describe('the world, from the home search', () => {
  // One phone-sized tab for the four searches, each from the home page loaded anew (see
  // SiteSession.tab; the site keeps nothing in storage between pages).
  let tab: Tab | undefined;
  afterAll(async () => tab?.page.context().close());

  it.each(TITLES)('"%s" reaches ISCO-08 unit group %s from the home search', async (q, code) => {
    const unit = await (await fetch(`${s.site.url}/api/v1/isco/${code}`)).json();
    tab ??= await s.tab(await s.browser.newContext({ viewport: { width: 360, height: 800 } }));
    const { page } = tab;
    const watch = await tab.visit('/');
    await page.fill('input[name=q]', q);
    await page.click('form[data-search] button');
    const first = page.locator('[data-isco-results] a').first();
    await first.waitFor();
    await first.click();
    await page.waitForURL(/\/isco\/[a-z0-9-]+$/);
    expect(await page.locator('h1').textContent()).toBe(unit.title);
    expect(page.url()).toContain(`/isco/`);
    expect(watch.errors).toEqual([]);
  });
});

/** Words of table cells whose letters the browser put on more than one line other than after a hyphen or slash. */
function brokenWords(): string[] {
  const out: string[] = [];
  const lineOf = (node: Text, i: number) => {
    const r = document.createRange();
    r.setStart(node, i);
    r.setEnd(node, i + 1);
    const rect = [...r.getClientRects()].find((x) => x.width > 0);
    return rect ? Math.round(rect.top + rect.height / 2) : null;
  };
  for (const cell of document.querySelectorAll('td, th')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
      for (const m of n.data.matchAll(/\S+/g)) {
        const word = m[0];
        const start = m.index!;
        // A word on one line (the most) has its boxes on that line: only the others are read letter by letter.
        const whole = document.createRange();
        whole.setStart(n, start);
        whole.setEnd(n, start + word.length);
        const tops = [...whole.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top + x.height / 2));
        if (tops.every((t) => Math.abs(t - tops[0]!) <= 2)) continue;
        let prev = lineOf(n, start);
        for (let i = 1; i < word.length; i++) {
          const line = lineOf(n, start + i);
          if (line !== null && prev !== null && line > prev + 2 && !/[-/\u2010-\u2014]/.test(word[i - 1]!)) {
            out.push(`${word} (at "${word.slice(0, i)}|${word.slice(i)}")`);
            break;
          }
          if (line !== null) prev = line;
        }
      }
    }
  }
  return out;
}

describe('docs tables', () => {
  for (const width of [360, 1280]) {
    it(`no table cell breaks a word at ${width} px (/docs/, methodology, changes)`, async () => {
      const context = await s.browser.newContext({ viewport: { width, height: 900 } });
      // One tab, navigated from page to page (see SiteSession.tab).
      const { page, visit } = await s.tab(context);
      for (const path of ['/docs/', '/docs/methodology', '/docs/changes', '/isco/']) {
        const watch = await visit(path);
        const cells = await page.locator('td, th').count();
        const broken = await page.evaluate(brokenWords);
        expect(broken, `${path} at ${width} px (${cells} cells)`).toEqual([]);
        if (path === '/docs/') {
          // The snippets name this site, not a placeholder.
          const origins = await page.locator('[data-origin]').allTextContents();
          expect(origins.length).toBeGreaterThan(0);
          expect(new Set(origins)).toEqual(new Set([s.site.url]));
        }
        await shoot(page, resolve(s.shots, `${path.replace(/\W+/g, '-')}${width}.png`));
        expect(watch.errors).toEqual([]);
      }
      await context.close();
    });
  }
});

describe('cite this', () => {
  // What CITATION.cff says, read here as text: the data set's version line under references.
  const cff = readFileSync(resolve(REPO_ROOT, 'CITATION.cff'), 'utf8');
  const dataVersion = /^\s+version: "(onet-[^"]+)"$/m.exec(cff)![1]!;

  it('the home, docs and downloads pages cite CITATION.cff with this site as the address, and Copy copies it', async () => {
    const context = await s.browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    const { page, visit } = await s.tab(context);
    for (const path of ['/', '/docs/', '/downloads/']) {
      const watch = await visit(path);
      const apa = page.locator('#cite-apa');
      const bib = page.locator('#cite-bib');
      expect(await apa.textContent(), path).toContain(`(Version ${dataVersion})`);
      expect(await apa.textContent(), path).toContain(`${s.site.url}/`);
      expect(await bib.textContent(), path).toContain(`version = {${dataVersion}}`);
      expect(await bib.textContent(), path).toContain(`url = {${s.site.url}/}`);
      await page.locator('button[data-copy=cite-bib]').click();
      await expect.poll(() => page.locator('[data-copy-status]').textContent()).toBe('Copied.');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await bib.textContent());
      expect(watch.offHost).toEqual([]);
      expect(watch.errors).toEqual([]);
    }
    await context.close();
  });
});
