// The verdict at the top of an occupation page against the API (issue 46): for five occupations the
// page's HTML and the risk response are read over HTTP from the real local server, and every number
// of every sentence must be the API's (score, range, tier, confidence and its shares, BLS projected
// change and openings, the next step's title, score and outlook, the focus tasks' time).
import { describe, expect, it } from 'vitest';
import { SHAPES, TARGET, useSites, type Site } from './setup.ts';

const sites = useSites();

/** Registered Nurses, Bookkeeping clerks, Paralegals, Heavy Truck Drivers, Electricians: issue 46's sample. */
const SAMPLE = ['29-1141.00', '43-3031.00', '23-2011.00', '53-3032.00', '47-2111.00'];

const Cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
const decode = (s: string) => s.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const text = (html: string) => decode(html.replace(/<[^>]+>/g, ''));
/** A share as the page writes it: percent, at most one decimal. */
const share = (x: number) => `${Number((x * 100).toFixed(1))}%`;
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
/** Every number written in a text: "2,700", "77.5", "2024", "34" (from 2024-34); the raters' name GPT-4 is a name. */
const numbersIn = (s: string) => [...s.replace(/GPT-4/g, 'GPT').matchAll(/\d+(?:,\d{3})*(?:\.\d+)?/g)].map((m) => m[0]);

async function read(site: Site, soc: string) {
  const risk = await site.json(`/api/v1/occupations/${soc}/risk`);
  const list = await site.json(`/api/v1/occupations?q=${encodeURIComponent(risk.title)}&limit=20`);
  const item = list.data.find((o: { soc_code: string }) => o.soc_code === soc);
  expect(item, `${soc} is found by its title`).toBeTruthy();
  const res = await site.get(`/occupations/${item.slug}`);
  expect(res.status).toBe(200);
  const html = await res.text();
  const block = /<section class="verdict[^"]*"[^>]*data-verdict>([\s\S]*?)<\/section>/.exec(html);
  expect(block, `${soc}: the verdict block`).not.toBeNull();
  const sentences = new Map([...block![1]!.matchAll(/<p data-verdict="(\w+)">([\s\S]*?)<\/p>/g)].map((m) => [m[1]!, { html: m[2]!, text: text(m[2]!) }]));
  const reason = /<p data-verdict-reason>([\s\S]*?)<\/p>/.exec(block![1]!);
  // Right under the title: nothing but the title stands between the h1 and the verdict.
  expect(html.indexOf('<section class="verdict') - html.indexOf(`<h1>`), soc).toBeLessThan(`<h1>${risk.title}</h1>`.length + 40);
  return { risk, html, sentences, reason: reason ? decode(reason[1]!) : null };
}

describe.runIf(TARGET === 'node').each(SHAPES)('the occupation page verdict against the API (%s)', (shape) => {
  it.each(SAMPLE)('%s: every number in the verdict is the API\'s', async (soc) => {
    const { risk, sentences, reason } = await read(sites[shape], soc);
    const r = risk.risk_score;
    const g = risk.guidance;
    const allowed = new Set<string>(['100', ...risk.evidence.projection.period.split('-')]);
    const allow = (...xs: Array<string | number>) => xs.forEach((x) => allowed.add(String(x)));

    // (a) The score as exposure, with its range; never a probability.
    const score = sentences.get('score')!.text;
    const a = /^(Low|Medium|High) exposure to AI doing its tasks: (\d+) of 100 \((\d+)–(\d+) depending on modelling choices\)\.$/.exec(score);
    expect(a, score).not.toBeNull();
    expect(a!.slice(1)).toEqual([Cap(r.risk_tier), String(Math.round(r.final_score)), String(Math.round(r.score_low)), String(Math.round(r.score_high))]);
    allow(a![2]!, a![3]!, a![4]!);

    // (b) Confidence: its word, and each share it gives is one of the three it is made of.
    const conf = sentences.get('confidence')!.text;
    expect(conf.startsWith(`${Cap(r.confidence)} confidence: `), conf).toBe(true);
    const held = /the (low|medium|high) tier holds in ([\d.]+%)/.exec(conf);
    if (held) expect([held[1], held[2]]).toEqual([r.risk_tier, share(r.tier_shares[r.risk_tier])]);
    const agree = /raters agree on ([\d.]+%)/.exec(conf);
    if (agree) expect(agree[1]).toBe(share(r.label_agreement));
    expect(held || agree, `${soc}: confidence gives a reason`).toBeTruthy();
    allow(...[r.tier_shares.low, r.tier_shares.medium, r.tier_shares.high, r.label_agreement, r.label_coverage].map((x) => share(x).slice(0, -1)));

    // (c) What is happening to the job: BLS's projection and its Table 1.12 notes.
    const ev = sentences.get('evidence')!.text;
    const p = risk.evidence.projection;
    const proj = /BLS projects employment to (grow|fall|change little) \(?([+-]?[\d.]+)%\)? over 2024-34(?:, with ([\d,]+) openings a year)?/.exec(ev);
    expect(proj, ev).not.toBeNull();
    const change = Number(proj![2]);
    expect(proj![1] === 'fall' ? -change : change).toBe(p.change_pct);
    expect(proj![1]).toBe(p.change_pct >= 1 ? 'grow' : p.change_pct <= -1 ? 'fall' : 'change little');
    expect(proj![3]).toBe(thousands(p.openings_annual));
    allow(Math.abs(p.change_pct), thousands(p.openings_annual));
    if (g.technology_cut.cut) expect(ev).toMatch(/names technology or AI as cutting/);
    else {
      const rises = risk.evidence.bls_statements.filter((s: { share: string }) => s.share === 'rises').length;
      const falls = risk.evidence.bls_statements.length - rises;
      if (rises) expect(ev).toContain(`rises in ${rises} industr`);
      if (falls) expect(ev).toContain(`falls in ${falls} industr`);
      allow(rises, falls);
    }

    // (d) The best next step: the named occupation with its own numbers, the focus, or why none.
    const step = sentences.get('step')!;
    const focusTime = Math.round(100 * g.focus.tasks.reduce((a: number, t: { time_fraction: number }) => a + t.time_fraction, 0));
    const focusSaid = (t: string) => {
      expect(t).toContain(`the ${g.focus.tasks.length} tasks where AI exposure stays lowest (about ${focusTime}% of the work time)`);
      allow(g.focus.tasks.length, focusTime);
    };
    const ns = g.next_step;
    if (ns.kind === 'move' || ns.kind === 'route') {
      const o = (ns.kind === 'move' ? risk.transition_options : g.routes).find((t: { soc_code: string }) => t.soc_code === ns.soc_code);
      expect(step.html).toContain(`<a href="/occupations/${o.slug}">${o.title}</a>`);
      expect(step.text).toContain(`scores ${Math.round(o.final_score)} (${o.risk_tier} exposure)`);
      expect(step.text).toContain(`grow ${o.projected_employment_change_pct}%, with ${thousands(o.projected_openings_annual)} openings a year`);
      allow(Math.round(o.final_score), o.projected_employment_change_pct, thousands(o.projected_openings_annual));
      if (o.wage_ratio !== null) {
        // Pay is stated as the option's own reason in the API states it: one wording on the page.
        const pay = /(pays (\d+)% more|keeps (\d+)% of pay|pays (\d+)% of current pay)/.exec(step.text);
        expect(pay, step.text).not.toBeNull();
        expect(o.reason).toContain(`; ${pay![1]}; `);
        allow(Math.round(100 * (o.wage_ratio - 1)), Math.round(100 * o.wage_ratio));
      }
      if (g.stay !== null) focusSaid(sentences.get('stay')!.text);
    } else if (ns.kind === 'stay') {
      expect(step.text).toMatch(/^Staying is the advice/);
      expect(p.change_pct).toBeGreaterThan(0);
      expect(r.risk_tier).not.toBe('high');
      focusSaid(step.text);
    } else if (ns.kind === 'focus') {
      focusSaid(step.text);
    } else {
      expect(step.text).toMatch(/^No next step passes the rules/);
      expect(step.html).toContain('<a href="#assess">Your situation</a>');
      expect(reason).toBe(g.next_step_note);
    }

    // Every number anywhere in the verdict is one of the API's numbers above.
    for (const [key, s] of sentences) for (const n of numbersIn(s.text)) expect(allowed.has(n), `${soc} ${key}: ${n} in "${s.text}"`).toBe(true);
  });
});
