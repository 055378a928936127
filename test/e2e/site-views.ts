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
import { highMediumLow, shotsDir, useSiteSession } from './site-session.ts';

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

/** Rows of each gallery table that axe checks: the first ones of every group, and the first of each tier anywhere. */
const GALLERY_ROWS_PER_GROUP = 2;

/** `within`: CSS selectors of the parts to check (the whole page without it). */
export async function axeViolations(page: Page, rules: AxeRules, within?: string[]): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  const only = rules === 'colour' ? COLOUR_RULES : rules === 'layout' ? LAYOUT_RULES : null;
  const options = only ? { runOnly: { type: 'rule', values: only }, resultTypes: ['violations'] } : { resultTypes: ['violations'] };
  // The gallery lists every occupation (some 900 rows of one template, in about 20 group tables):
  // axe reads a sample of its rows (every group's first rows, and the first row of each tier,
  // whose cell has a colour of its own), the rest of the page whole. Axe's cost grows with the
  // nodes it reads, and the gallery cost each view several CPU-seconds; every row is still laid
  // out, shown and checked for sideways scrolling, requests and errors with the page.
  const result = (await page.evaluate(
    ({ opts, perGroup, within }) => {
      const exclude: Element[] = [];
      const tiers = new Set<string>();
      for (const body of document.querySelectorAll('section[data-group] tbody')) {
        [...body.querySelectorAll(':scope > tr')].forEach((row, i) => {
          const tier = [...row.querySelectorAll('td')].map((td) => td.className).find((c) => /^(low|medium|high)$/.test(c)) ?? '';
          if (i < perGroup || !tiers.has(tier)) tiers.add(tier);
          else exclude.push(row);
        });
      }
      // The overview the same way: its table's rows per group (tbody[data-group]) and its treemaps'
      // tiles per group (each tile colour class once, for its contrast).
      const kinds = new Set<string>();
      for (const body of document.querySelectorAll('tbody[data-group]')) {
        [...body.querySelectorAll(':scope > tr')].forEach((row, i) => {
          const tier = 't' + (row.getAttribute('data-t') ?? '');
          if (i < perGroup || !kinds.has(tier)) kinds.add(tier);
          else exclude.push(row);
        });
      }
      for (const group of document.querySelectorAll('[data-treemap] section, [data-treemap=narrow]')) {
        [...group.querySelectorAll(':scope li')].forEach((li, i) => {
          const colour = 'c' + (li.querySelector('a')?.className ?? '');
          if (i < perGroup || !kinds.has(colour)) kinds.add(colour);
          else exclude.push(li);
        });
      }
      const axe = (window as unknown as { axe: { run(ctx: object, opts: object): Promise<unknown> } }).axe;
      if (within) return axe.run({ include: within.map((sel) => [sel]) }, opts);
      return axe.run(exclude.length > 0 ? { include: [document], exclude } : document, opts);
    },
    { opts: options, perGroup: GALLERY_ROWS_PER_GROUP, within: within ?? null },
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
      for (const p of pages) {
        const { page, watch } = await s.open(context, p.path);
        // Each pass on the page as loaded: a later scheme is switched to in place (the colours are
        // custom properties chosen by prefers-color-scheme), not loaded again.
        for (const pass of view.passes) {
          const at = view.passes.length > 1 ? `${p.name} (${pass.scheme})` : p.name;
          if (pass !== firstPass) await page.emulateMedia({ colorScheme: pass.scheme });
          const o = await overflow(page);
          if (o.scroll > o.client) failures.push(`${at}: scrolls sideways (${o.scroll} > ${o.client})`);
          // Full-page shots of the long pages (docs, gallery) take longer than a screenshot may; their top is what matters.
          if (p.name.startsWith('occupation-')) await page.locator('section[aria-labelledby=why]').screenshot({ path: resolve(shots(pass), `${p.name}-why.png`) });
          else await page.screenshot({ path: resolve(shots(pass), `${p.name}.png`), fullPage: p.name === 'home' });
          for (const v of await axeViolations(page, pass.axe)) failures.push(`${at}: axe ${v}`);
        }
        for (const u of watch.offHost) failures.push(`${p.name}: requested ${u}`);
        for (const e of watch.errors) failures.push(`${p.name}: console ${e}`);
        await page.close();
      }
      await context.close();
      expect(failures).toEqual([]);
    });
  });
}
