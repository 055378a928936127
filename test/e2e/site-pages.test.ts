// The site's scripted parts in headless Chromium, driven for real: title search and the
// assessment form through the API, the task path, the pages without JavaScript, the gallery
// filter. (How every page looks, fits and passes axe: site-view-*.test.ts.) Screenshots (E2E_SCREENSHOTS=1) go to
// test-results/site/scripts.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shoot, useSiteSession } from './site-session.ts';
import { axeViolations } from './site-views.ts';

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

  it('the assessment form asks only the factors that can move the score, posts to the API and shows the same personalized score and tier', async () => {
    const context = await s.browser.newContext({ viewport: { width: 360, height: 900 } });
    const { page, watch } = await s.open(context, `/occupations/${s.slug}`);
    const soc = await page.locator('form[data-assess]').getAttribute('data-soc');
    // The page asks only the factors that can move the score: those with an option the API
    // adjusts by other than 0. Each is answered with such an option; the others are named as not asked.
    const factors = (await (await fetch(`${s.site.url}/api/v1/displacement/factors`)).json()).factors as Record<string, Array<{ value: string; label: string; adjustment: number }>>;
    const moving = Object.entries(factors).filter(([, options]) => options.some((o) => o.adjustment !== 0));
    expect(moving.length).toBeGreaterThan(0);
    const asked = await page.locator('form[data-assess] select[name]').evaluateAll((selects) => selects.map((e) => e.getAttribute('name')));
    expect(asked.sort()).toEqual(moving.map(([name]) => name).sort());
    expect((await page.locator('[data-not-asked]').textContent())!.split('; ')).toHaveLength(Object.keys(factors).length - moving.length);
    // Each question says which answers move the score and by how much (the API's adjustments).
    for (const [name, options] of moving) {
      const hint = (await page.locator(`#fh-${name}`).textContent())!;
      for (const o of options.filter((o) => o.adjustment !== 0)) expect(hint).toContain(`${o.label} (${o.adjustment > 0 ? '+' : ''}${o.adjustment} points)`);
    }
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
    expect(await page.locator('[data-personal-tier]').textContent()).toBe(`${expected.risk_tier} exposure`);
    // No task ticked: nothing about a task mix, one line per factor the API applied.
    expect(await page.locator('[data-adjustment=tasks]').count()).toBe(0);
    expect(await page.locator('[data-adjustment]').count()).toBe(Object.keys(expected.adjustments).length);
    await shoot(page, resolve(s.shots, 'occupation-assessed-360.png'));
    expect(watch.errors).toEqual([]);
    await context.close();
  });

  it('ticking tasks and setting their time recomputes the score from them, drawn against the occupation, with what moved it', async () => {
    const context = await s.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, watch } = await s.open(context, `/occupations/${s.slug}`);
    const form = page.locator('form[data-assess]');
    const soc = (await form.getAttribute('data-soc'))!;
    const boxes = page.locator('input[data-task-id]');
    const served = (await (await fetch(`${s.site.url}/api/v1/occupations/${soc}/tasks`)).json()).tasks as Array<{ task_id: number }>;
    expect(await boxes.count()).toBe(served.length);
    // No drop-downs for tasks; the how-much control shows only for a ticked task.
    expect(await page.locator('[data-assess-tasks] select').count()).toBe(0);
    expect(await page.locator('[data-assess-tasks] input[type=range]:visible').count()).toBe(0);
    const levels = JSON.parse((await form.getAttribute('data-levels'))!) as Array<{ label: string; share: number }>;
    expect(levels.map((l) => l.share)).toEqual([...levels.map((l) => l.share)].sort((a, b) => a - b));
    // The first task one step above its start, the second at its start, other work at its start; one factor.
    const first = Number(await boxes.nth(0).getAttribute('data-task-id'));
    const second = Number(await boxes.nth(1).getAttribute('data-task-id'));
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.check('input[data-other]');
    const start = Number(await page.locator(`#h-${first}`).inputValue());
    await page.locator(`#h-${first}`).fill(String(start + 1));
    const more = levels[start]!;
    const some = levels[start - 1]!;
    await page.selectOption('select[name=years_experience]', '0_2');
    // The step in words with the share of time it stands for, on screen and to a screen reader.
    const total = more.share + 2 * some.share;
    const words = `${more.label}: about ${Math.round((100 * more.share) / total)}% of your time`;
    expect(await page.locator(`output[for=h-${first}]`).textContent()).toBe(words);
    expect(await page.locator(`#h-${first}`).getAttribute('aria-valuetext')).toBe(words);
    const body = { soc_code: soc, personal_factors: { years_experience: '0_2' }, tasks: [{ task_id: first, share: more.share }, { task_id: second, share: some.share }], other_share: some.share };
    const sent = page.waitForRequest((r) => r.method() === 'POST');
    await page.click('form[data-assess] button');
    expect(JSON.parse((await sent).postData()!)).toEqual(body);
    const out = page.locator('[data-personalized-score]');
    await out.waitFor();
    const expected = await (await fetch(`${s.site.url}/api/v1/displacement/assess`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
    const risk = (await (await fetch(`${s.site.url}/api/v1/occupations/${soc}/risk`)).json()).risk_score;
    expect(Object.keys(expected.adjustments)).toContain('tasks');
    expect(await out.textContent()).toBe(String(Math.round(expected.personalized_score)));
    expect(await page.locator('[data-personal-range]').textContent()).toBe(`${Math.round(expected.personalized_low)} to ${Math.round(expected.personalized_high)}`);
    expect(await page.locator('[data-personal-tier]').textContent()).toBe(`${expected.risk_tier} exposure`);
    // What moved it: the task mix apart from the answers, each with the API's points.
    expect(await page.locator('[data-adjustment=tasks] [data-points]').textContent()).toBe(`${expected.adjustments.tasks > 0 ? '+' : ''}${expected.adjustments.tasks} points`);
    expect(await page.locator('[data-adjustment=tasks]').textContent()).toContain(`about ${Math.round(expected.exposure_score)}% of your working time`);
    expect(await page.locator('[data-adjustment]').count()).toBe(Object.keys(expected.adjustments).length);
    expect(await page.locator('[data-assess-summary]').textContent()).toContain(`from ${Math.round(expected.base_score)} to ${Math.round(expected.personalized_score)}`);
    // The scale: the occupation's score and range (its risk response) and the person's, in its text alternative.
    const scale = page.locator('svg.assess-scale[role=img]');
    const r0 = (x: number) => String(Math.round(x));
    expect(await scale.getAttribute('aria-label')).toBe(
      `Scale from 0 to 100: this occupation ${r0(risk.final_score)} (range ${r0(risk.score_low)} to ${r0(risk.score_high)}); you ${r0(expected.personalized_score)} (range ${r0(expected.personalized_low)} to ${r0(expected.personalized_high)}).`,
    );
    // The person's mark sits at the API's score on the 0..100 axis.
    const axis = await scale.locator('line.axis').first().evaluate((l) => [Number(l.getAttribute('x1')), Number(l.getAttribute('x2'))]);
    const mark = Number(await scale.locator('circle.you').getAttribute('cx'));
    expect(mark).toBeCloseTo(axis[0]! + ((axis[1]! - axis[0]!) * expected.personalized_score) / 100, 5);
    await shoot(page.locator('section[aria-labelledby=assess] [data-assess-output]'), resolve(s.shots, 'assess-1280.png'));
    expect(watch.errors).toEqual([]);
    await context.close();
  });

  it('the assessment works from the keyboard alone, and passes axe with its result at 360 and 1280, light and dark', { timeout: 180_000 }, async () => {
    for (const width of [360, 1280]) {
      // bypassCSP only so that axe can be injected; the pages' own CSP is checked in the contract tests.
      const context = await s.browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const { page, watch } = await s.open(context, `/occupations/${s.slug}`);
      const soc = (await page.locator('form[data-assess]').getAttribute('data-soc'))!;
      const levels = JSON.parse((await page.locator('form[data-assess]').getAttribute('data-levels'))!) as Array<{ share: number }>;
      // Focus the first task's box once, then only keys: Space ticks it, Tab reaches its slider
      // (named after the task), ArrowLeft lowers it a step, Tab goes on to the next task.
      const firstBox = page.locator('input[data-task-id]').first();
      const first = Number(await firstBox.getAttribute('data-task-id'));
      await firstBox.focus();
      await page.keyboard.press('Space');
      expect(await firstBox.isChecked()).toBe(true);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe(`h-${first}`);
      const start = Number(await page.locator(`#h-${first}`).inputValue());
      await page.keyboard.press('ArrowLeft');
      expect(Number(await page.locator(`#h-${first}`).inputValue())).toBe(start - 1);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).type)).toBe('checkbox');
      // Tab on to the button (past the other tasks, the question and its links), Enter submits.
      for (let i = 0; i < 200 && !(await page.evaluate(() => document.activeElement?.matches('form[data-assess] button'))); i++) await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.locator('[data-personalized-score]').waitFor();
      const expected = await (
        await fetch(`${s.site.url}/api/v1/displacement/assess`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ soc_code: soc, personal_factors: {}, tasks: [{ task_id: first, share: levels[start - 2]!.share }] }) })
      ).json();
      expect(await page.locator('[data-personalized-score]').textContent()).toBe(String(Math.round(expected.personalized_score)));
      const fit = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(fit, `${width} px: scrolls sideways`).toBeLessThanOrEqual(0);
      // The rules split as site-views.ts splits them: all of them at 1280 px light, the layout ones at
      // 360 px, the colour ones in the dark scheme at both widths. Where the site views check this
      // same page whole (site-view-wide: 1280 px light and dark; site-view-narrow: 360 px light),
      // axe reads the assessment section, the part this test has changed; at 360 px dark, which
      // no other file checks, the whole page.
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const rules = scheme === 'dark' ? 'colour' : width === 360 ? 'layout' : 'all';
        const within = width === 360 && scheme === 'dark' ? undefined : ['section[aria-labelledby=assess]'];
        expect(await axeViolations(page, rules, within), `${width} px ${scheme}`).toEqual([]);
        await shoot(page.locator('[data-assess-output]'), resolve(s.shots, `assess-${width}-${scheme}.png`));
      }
      expect(watch.errors).toEqual([]);
      await context.close();
    }
  });

  it('an answer the API refuses shows its problem (title, detail, each error) in words', async () => {
    const context = await s.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, watch } = await s.open(context, `/occupations/${s.slug}`);
    const soc = (await page.locator('form[data-assess]').getAttribute('data-soc'))!;
    // An option the API does not know, as a stale page would send (the API answers 422 problem+json).
    await page.locator('select[name=years_experience]').evaluate((s) => {
      const o = document.createElement('option');
      o.value = 'forty_plus';
      o.textContent = 'forty_plus';
      s.appendChild(o);
      (s as HTMLSelectElement).value = 'forty_plus';
    });
    await page.click('form[data-assess] button');
    await page.locator('[data-assess-error]').waitFor();
    const res = await fetch(`${s.site.url}/api/v1/displacement/assess`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ soc_code: soc, personal_factors: { years_experience: 'forty_plus' } }) });
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const problem = await res.json();
    const text = (await page.locator('[data-assess-output]').textContent())!;
    expect(text).toContain(`${problem.title}, ${res.status}`);
    expect(text).toContain(problem.detail);
    for (const e of problem.errors) expect(text).toContain(`${e.location}: ${e.message}`);
    // The API logs the refusal as a failed request in the console; nothing else fails.
    expect(watch.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
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
    await shoot(page, resolve(s.shots, 'gallery-filtered-1280.png'));
    expect(watch.errors).toEqual([]);
    await context.close();
  });
});
