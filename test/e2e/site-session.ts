// One site and one Chromium for a test file of the site's pages (site-view-*.test.ts and
// site-pages.test.ts): the real build served by the real local server, the pages it names, and a
// page opener that records requests to other hosts and console errors. Screenshots (shoot) go to
// test-results/site/<file's own folder>, so files running side by side keep each other's.
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from './chromium.ts';
import { startSite, type Site } from './embed-site.ts';
import { parseIndex } from './index-rows.ts';

export interface Watch {
  offHost: string[];
  errors: string[];
}

export interface SiteSession {
  site: Site;
  browser: Browser;
  shots: string;
  /** An occupation with tasks, transitions and labor data: the first search hit for "registered nurse". */
  slug: string;
  /** An ISCO-08 unit group linked to several U.S. occupations. */
  iscoSlug: string;
  /** A page that records every request to another host and every console error or page error. */
  open(context: BrowserContext, path: string): Promise<{ page: Page; watch: Watch }>;
  /**
   * One page (tab) for a series of paths: each visit navigates it and watches it anew, as `open`
   * watches a new page. A navigation within the site keeps the tab's renderer, where axe's code
   * is already compiled and warm: some 0.15 CPU-seconds a page less than a new tab (six pages with
   * axe: 1.5-1.6 s against 2.4-2.5 s, measured in a cgroup). What a page set on the tab itself (an
   * emulated colour scheme) the caller sets back before the next visit.
   */
  tab(context: BrowserContext): Promise<Tab>;
}

export interface Tab {
  page: Page;
  /** Navigates the tab to `path` (expecting 200); what it requests and logs from then on. */
  visit(path: string): Promise<Watch>;
}

/**
 * A screenshot for people to look at (the issues' closing notes): nothing asserts on it, and each
 * costs Chromium a fraction of a CPU-second, so it is taken only with E2E_SCREENSHOTS=1.
 */
export async function shoot(target: Page | Locator, path: string, fullPage = false): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== '1') return;
  if ('goto' in target) await target.screenshot({ path, fullPage });
  else await target.screenshot({ path });
}

/** Where a file's screenshots of one kind go (emptied by the session that owns it). */
export const shotsDir = (folder: string): string => resolve('test-results', 'site', folder);

export function useSiteSession(shotsFolder: string): SiteSession {
  const s = { shots: shotsDir(shotsFolder) } as SiteSession;
  beforeAll(async () => {
    s.site = await startSite();
    s.browser = await launchChromium();
    rmSync(s.shots, { recursive: true, force: true });
    mkdirSync(s.shots, { recursive: true });
    s.slug = (await (await fetch(`${s.site.url}/api/v1/occupations?q=registered%20nurse&limit=1`)).json()).data[0].slug;
    s.iscoSlug = (await (await fetch(`${s.site.url}/api/v1/isco?q=software%20developer&limit=1`)).json()).data[0].slug;
  });
  afterAll(async () => {
    await s.browser?.close();
    await s.site?.close();
  });
  s.tab = async (context) => {
    const page = await context.newPage();
    let watch: Watch = { offHost: [], errors: [] };
    page.on('request', (r) => {
      if (!r.url().startsWith(s.site.url) && !r.url().startsWith('data:')) watch.offHost.push(r.url());
    });
    page.on('console', (m) => m.type() === 'error' && watch.errors.push(`${m.location().url}: ${m.text()}`));
    page.on('pageerror', (e) => watch.errors.push(e.message));
    return {
      page,
      visit: async (path) => {
        watch = { offHost: [], errors: [] };
        const res = await page.goto(s.site.url + path, { waitUntil: 'load' });
        expect(res?.status(), path).toBe(200);
        return watch;
      },
    };
  };
  s.open = async (context, path) => {
    const tab = await s.tab(context);
    return { page: tab.page, watch: await tab.visit(path) };
  };
  return s;
}

/**
 * The occupation pages of the highest, the median and the lowest score (the explanation's charts at
 * both ends), from the scores the /embed/ index lists for every occupation (final_score, one decimal).
 */
export async function highMediumLow(url: string): Promise<Array<{ name: string; slug: string }>> {
  const rows = parseIndex(await (await fetch(`${url}/embed/`)).text()).map((r) => ({ slug: r.slug, score: Number(r.score) }));
  rows.sort((a, b) => a.score - b.score || (a.slug < b.slug ? -1 : 1));
  return [
    { name: 'occupation-high', slug: rows.at(-1)!.slug },
    { name: 'occupation-medium', slug: rows[Math.floor(rows.length / 2)]!.slug },
    { name: 'occupation-low', slug: rows[0]!.slug },
  ];
}
