// The site's pages as a visitor sees them, in one view per test file (site-view-*.test.ts, so that
// the two run side by side): home, an occupation page with tasks and transitions, an ISCO-08
// page, the card gallery, the API reference, the methodology, the downloads, and the occupation
// pages of the highest, the median and the lowest score. Each must request nothing from another
// host, log no console error, not scroll sideways, and pass axe-core with no serious or critical
// violation.
//
// Layout depends on the width, colours on the scheme (custom properties switched by
// prefers-color-scheme, not by width), structure on neither: so axe runs each of its rules on
// every page where that rule's outcome can differ, not four times over (a full run on the gallery
// or the API reference costs Chromium several CPU-seconds): every rule at 1280 px light, the colour
// rules at 1280 px dark (the same loaded page, its scheme switched), and at 360 px light the rules
// whose outcome depends on the layout (target sizes, scrollable regions, content outside
// landmarks, focusable content hidden at a breakpoint, the viewport and orientation).
import { createRequire } from 'node:module';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { highMediumLow, shoot, shotsDir, useSiteSession } from './site-session.ts';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Which of axe's rules a view runs: all of them, only the colour ones, or only the layout ones. */
export type AxeRules = 'all' | 'colour' | 'layout';
/** axe's colour rules (tag cat.color) at the WCAG AA level and below: the ones that depend on the colour scheme. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];
/** axe's rules whose outcome depends on the viewport's width (what is laid out, shown or hidden there); the colour rules run per scheme. */
const LAYOUT_RULES = ['target-size', 'scrollable-region-focusable', 'region', 'aria-hidden-focus', 'meta-viewport', 'meta-viewport-large', 'css-orientation-lock'];

/** One look at a page: its colour scheme, and the axe rules run in it. */
export interface Pass {
  scheme: 'light' | 'dark';
  axe: AxeRules;
}
/** A width and the passes each page gets there, one after the other on the same loaded page. */
export interface View {
  width: number;
  passes: Pass[];
}

/** Rows of each repeated table or treemap group that axe checks: the first ones, and the first of each kind anywhere. */
const ROWS_PER_GROUP = 2;
/** A table body longer than this is one row template repeated (an industry's occupations, the ISCO index): sampled as the gallery's groups are. */
const LONG_TABLE = 100;
/** An example response longer than this (the OpenAPI document, some 260,000 characters in one text node) is left to the other responses of its template. */
const LONG_EXAMPLE = 20_000;

/**
 * Runs axe in the page; `within`: CSS selectors of the parts to check (the whole page without it).
 *
 * Where a page repeats one template hundreds of times (the gallery's and the overview's rows per
 * group, the overview's treemap tiles, a long table, the docs' example responses), axe reads a
 * sample: each group's first rows and the first row or tile of each kind (tier, colour) anywhere,
 * and every example response but the one too long to walk. The others are taken out of the
 * document while axe runs and put back after it, so every later check sees the page as loaded:
 * axe's cost grows with the nodes it reads, and an exclude list of a thousand rows costs it more
 * than the rows themselves (each node is tested against each excluded one). Every row is still laid
 * out, shown and checked for sideways scrolling, requests and errors with the page.
 */
export async function axeViolations(page: Page, rules: AxeRules, within?: string[]): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  const only = rules === 'colour' ? COLOUR_RULES : rules === 'layout' ? LAYOUT_RULES : null;
  const options = only ? { runOnly: { type: 'rule', values: only }, resultTypes: ['violations'] } : { resultTypes: ['violations'] };
  const result = (await page.evaluate(
    async ({ opts, perGroup, longTable, longExample, within }) => {
      const left: Element[] = [];
      const kinds = new Set<string>();
      const sample = (items: Element[], kind: (e: Element) => string) =>
        items.forEach((item, i) => {
          const k = kind(item);
          if (i < perGroup || !kinds.has(k)) kinds.add(k);
          else left.push(item);
        });
      // A row's kind: its tier (the overview's data-t) or the classes of its cells (the gallery's tier cell).
      const rowKind = (row: Element) => `t${row.getAttribute('data-t') ?? ''}|${[...row.querySelectorAll('td')].map((td) => td.className).join(' ')}`;
      for (const body of document.querySelectorAll('tbody')) {
        const rows = [...body.querySelectorAll(':scope > tr')];
        if (body.matches('section[data-group] tbody, tbody[data-group]') || rows.length > longTable) sample(rows, rowKind);
      }
      // The treemaps' tiles per group: each tile colour class once, for its contrast.
      for (const group of document.querySelectorAll('[data-treemap] section, [data-treemap=narrow]')) sample([...group.querySelectorAll(':scope li')], (li) => `c${li.querySelector('a')?.className ?? ''}`);
      const responses = [...document.querySelectorAll('pre.response')];
      const long = responses.filter((r) => (r.textContent ?? '').length > longExample);
      if (long.length < responses.length) left.push(...long);
      // Out of the document while axe runs (a comment holds each one's place), back in afterwards.
      const places = left.map((e) => {
        const mark = document.createComment('axe sample');
        e.replaceWith(mark);
        return [mark, e] as const;
      });
      const axe = (window as unknown as { axe: { run(ctx: object, opts: object): Promise<unknown> } }).axe;
      try {
        return await axe.run(within ? { include: within.map((sel) => [sel]) } : document, opts);
      } finally {
        for (const [mark, e] of places) mark.replaceWith(e);
      }
    },
    { opts: options, perGroup: ROWS_PER_GROUP, longTable: LONG_TABLE, longExample: LONG_EXAMPLE, within: within ?? null },
  )) as {
    violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown }> }>;
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(', ')}`);
}

const overflow = (page: Page) => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));

const rulesLabel = (axe: AxeRules) => (axe === 'all' ? 'all rules' : axe === 'colour' ? 'colour rules' : 'layout rules');

export function describeView(view: View): void {
  const [firstPass, ...laterPasses] = view.passes;
  if (!firstPass) throw new Error('a view needs a pass');
  const s = useSiteSession(`${view.width}-${firstPass.scheme}`);
  const shots = (pass: Pass) => (pass === firstPass ? s.shots : shotsDir(`${view.width}-${pass.scheme}`));
  beforeAll(() => {
    for (const pass of laterPasses) {
      rmSync(shots(pass), { recursive: true, force: true });
      mkdirSync(shots(pass), { recursive: true });
    }
  });
  const label = view.passes.map((p) => `${p.scheme}: axe ${rulesLabel(p.axe)}`).join('; ');
  describe(`site pages at ${view.width} px`, () => {
    it(`stay on this host, log no error, fit ${view.width} px, pass axe (${label})`, { timeout: 240_000 }, async () => {
      const pages = [
        { name: 'home', path: '/' },
        { name: 'occupation', path: `/occupations/${s.slug}` },
        { name: 'isco', path: `/isco/${s.iscoSlug}` },
        { name: 'gallery', path: '/embed/' },
        { name: 'docs', path: '/docs/' },
        { name: 'methodology', path: '/docs/methodology' },
        { name: 'downloads', path: '/downloads/' },
        ...(await highMediumLow(s.site.url)).map((o) => ({ name: o.name, path: `/occupations/${o.slug}` })),
      ];
      const failures: string[] = [];
      // bypassCSP only so that axe can be injected; the pages' own CSP is checked in the contract tests.
      const context = await s.browser.newContext({ viewport: { width: view.width, height: 900 }, colorScheme: firstPass.scheme, bypassCSP: true });
      // One tab, navigated from page to page (see SiteSession.tab).
      const { page, visit } = await s.tab(context);
      for (const p of pages) {
        const watch = await visit(p.path);
        // Each pass on the page as loaded: a later scheme is switched to in place (the colours are
        // custom properties chosen by prefers-color-scheme), not loaded again.
        for (const pass of view.passes) {
          const at = view.passes.length > 1 ? `${p.name} (${pass.scheme})` : p.name;
          if (pass !== firstPass) await page.emulateMedia({ colorScheme: pass.scheme });
          const o = await overflow(page);
          if (o.scroll > o.client) failures.push(`${at}: scrolls sideways (${o.scroll} > ${o.client})`);
          // Full-page shots of the long pages (docs, gallery) take longer than a screenshot may; their top is what matters.
          if (p.name.startsWith('occupation-')) await shoot(page.locator('section[aria-labelledby=why]'), resolve(shots(pass), `${p.name}-why.png`));
          else await shoot(page, resolve(shots(pass), `${p.name}.png`), p.name === 'home');
          for (const v of await axeViolations(page, pass.axe)) failures.push(`${at}: axe ${v}`);
        }
        for (const u of watch.offHost) failures.push(`${p.name}: requested ${u}`);
        for (const e of watch.errors) failures.push(`${p.name}: console ${e}`);
        // The next page loads in the first pass's scheme, as the context was made.
        if (laterPasses.length > 0) await page.emulateMedia({ colorScheme: firstPass.scheme });
      }
      await context.close();
      expect(failures).toEqual([]);
    });
  });
}
