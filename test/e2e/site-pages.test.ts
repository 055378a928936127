// The site's scripted parts in headless Chromium, driven for real: title search and the
// assessment form through the API, the task path, the pages without JavaScript, the gallery
// filter. (How every page looks, fits and passes axe: site-view-*.test.ts.) Screenshots go to
// test-results/site/scripts.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSiteSession } from './site-session.ts';

const s = useSiteSession('scripts');

describe('site pages, scripted', () => {
  it('the home search lists matches from the API as links to occupation pages', async () => {
    const context = await s.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, watch } = await s.open(context, '/');
    await page.fill('input[name=q]', 'registered nurse');
    await page.click('form[data-search] button');
    const first = page.locator('[data-search-results] a').first();
    await first.waitFor();
    expect(await first.getAttribute('href')).toBe(`/occupations/${s.slug}`);
    await first.click();
    await page.waitForURL(`${s.site.url}/occupations/${s.slug}`);
    expect(await page.locator('h1').textContent()).toBe((await (await fetch(`${s.site.url}/api/v1/occupations?q=registered%20nurse&limit=1`)).json()).data[0].title);
    expect(watch.errors).toEqual([]);
    await context.close();
  });

  it('the assessment form posts to the API and shows the same personalized score', async () => {
    const context = await s.browser.newContext({ viewport: { width: 360, height: 900 } });
    const { page, watch } = await s.open(context, `/occupations/${s.slug}`);
    const soc = await page.locator('form[data-assess]').getAttribute('data-soc');
    // The page asks only the factors that can move the score: those with an option the API
    // adjusts by other than 0. Each is answered with such an option.
    const factors = (await (await fetch(`${s.site.url}/api/v1/displacement/factors`)).json()).factors as Record<string, Array<{ value: string; adjustment: number }>>;
    const moving = Object.entries(factors).filter(([, options]) => options.some((o) => o.adjustment !== 0));
    expect(moving.length).toBeGreaterThan(0);
    const asked = await page.locator('form[data-assess] select[name]').evaluateAll((selects) => selects.map((e) => e.getAttribute('name')));
    expect(asked.sort()).toEqual(moving.map(([name]) => name).sort());
    const chosen: Record<string, string> = {};
    for (const [name, options] of moving) {
      chosen[name] = options.find((o) => o.adjustment !== 0)!.value;
      await page.selectOption(`select[name=${name}]`, chosen[name]);
    }
    await page.click('form[data-assess] button');
    const out = page.locator('[data-personalized-score]');
    await out.waitFor();
    const expected = await (
      await fetch(`${s.site.url}/api/v1/displacement/assess`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ soc_code: soc, personal_factors: chosen }) })
    ).json();
    // Pages show the score as a whole number; the API keeps one decimal.
    expect(await out.textContent()).toBe(String(Math.round(expected.personalized_score)));
    await page.screenshot({ path: resolve(s.shots, 'occupation-assessed-360.png'), fullPage: false });
    expect(watch.errors).toEqual([]);
    await context.close();
  });

  it('marking tasks and their time recomputes the score from them, with its range and what moved it', async () => {
    const context = await s.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, watch } = await s.open(context, `/occupations/${s.slug}`);
    const soc = (await page.locator('form[data-assess]').getAttribute('data-soc'))!;
    const selects = page.locator('select[data-task-id]');
    const served = (await (await fetch(`${s.site.url}/api/v1/occupations/${soc}/tasks`)).json()).tasks as Array<{ task_id: number }>;
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
      await fetch(`${s.site.url}/api/v1/displacement/assess`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ soc_code: soc, personal_factors: { years_experience: '0_2' }, tasks: [{ task_id: first, share: aLot }, { task_id: second, share: some }], other_share: some }),
      })
    ).json();
    expect(Object.keys(expected.adjustments)).toContain('tasks');
    expect(await out.textContent()).toBe(String(Math.round(expected.personalized_score)));
    expect(await page.locator('[data-personal-range]').textContent()).toBe(`${Math.round(expected.personalized_low)} to ${Math.round(expected.personalized_high)}`);
    expect(await page.locator('[data-adjustment=tasks]').textContent()).toBe(`The tasks you marked: ${expected.adjustments.tasks > 0 ? '+' : ''}${expected.adjustments.tasks}`);
    expect(await page.locator('[data-adjustment]').count()).toBe(Object.keys(expected.adjustments).length);
    await page.screenshot({ path: resolve(s.shots, 'occupation-assessed-tasks-1280.png'), fullPage: false });
    expect(watch.errors).toEqual([]);
    await context.close();
  });

  it('without JavaScript the assessment section says what the API call is', async () => {
    const context = await s.browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const { page } = await s.open(context, `/occupations/${s.slug}`);
    const text = (await page.locator('section[aria-labelledby=assess]').textContent())!;
    expect(text).toContain('POST /api/v1/displacement/assess');
    expect(text).toMatch(/"tasks":\[\{"task_id":\d+,"share":\d+\}/);
    expect(await page.locator('section[aria-labelledby=assess] a[href$="/tasks"]').count()).toBe(1);
    await context.close();
  });

  it('without JavaScript the occupation page still shows the score, tasks and links, and no dead form', async () => {
    const context = await s.browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const { page } = await s.open(context, `/occupations/${s.slug}`);
    const soc = await page.locator('form[data-assess]').getAttribute('data-soc');
    const risk = await (await fetch(`${s.site.url}/api/v1/occupations/${soc}/risk`)).json();
    // The whole number of the API's score (which keeps one decimal).
    expect(await page.locator('.score-box .big').textContent()).toBe(String(Math.round(risk.risk_score.final_score)));
    expect(await page.locator('#tasks ~ .table-wrap tbody tr, section[aria-labelledby=tasks] tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('form[data-assess]').isVisible()).toBe(false);
    expect(await page.locator('a[href^="/api/v1/occupations/"]').count()).toBeGreaterThan(0);
    await context.close();
  });

  it('the gallery filter narrows the cards and hides empty groups', async () => {
    const context = await s.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, watch } = await s.open(context, '/embed/');
    const all = await page.locator('tr[data-title]').count();
    await page.fill('input[data-filter]', 'nurse');
    const visible = await page.locator('tr[data-title]:visible').count();
    expect(visible).toBeGreaterThan(0);
    expect(visible).toBeLessThan(all);
    for (const t of await page.locator('tr[data-title]:visible').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-title')))) expect(t).toContain('nurse');
    const groups = await page.locator('[data-group]:visible').count();
    expect(groups).toBeLessThan(await page.locator('[data-group]').count());
    await page.screenshot({ path: resolve(s.shots, 'gallery-filtered-1280.png') });
    expect(watch.errors).toEqual([]);
    await context.close();
  });
});
