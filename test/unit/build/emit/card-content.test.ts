// What a card says, per interface shape, checked against the hand-written fixture values.
import { describe, expect, it } from 'vitest';
import { factorLabel, nextStepWords, ordinal, renderEmbed } from '../../../../build/emit/embed.ts';
import { fixtureModel, LONG_TITLE } from '../../../fixtures/embed/model.ts';
import { attr, startTags, textOf, tokenize } from './html-tokens.ts';

const model = fixtureModel();
const timeline = renderEmbed(model, 'timeline', { dataVersion: 'fixture-v' });
const percentile = renderEmbed(model, 'percentile', { dataVersion: 'fixture-v' });
const page = (r: typeof timeline, slug: string) => r.pages.find((p) => p.slug === slug)!.html;
/** Visible text of the <main> element, whitespace collapsed. */
const text = (html: string) => (textOf(html, 'main') ?? '').replace(/\s+/g, ' ');
/** The <dd> following the <dt> with this label. */
function fact(html: string, label: string): string | undefined {
  const tokens = tokenize(html);
  const dt = tokens.findIndex((t, i) => t.kind === 'start' && t.name === 'dt' && tokens[i + 1]?.kind === 'text' && (tokens[i + 1] as { text: string }).text === label);
  if (dt < 0) return undefined;
  const dd = tokens.findIndex((t, i) => i > dt && t.kind === 'start' && t.name === 'dd');
  const value = tokens[dd + 1];
  return value?.kind === 'text' ? value.text : undefined;
}

describe('one card per occupation', () => {
  it('renders a page for every occupation, keyed by slug', () => {
    expect(timeline.pages.map((p) => p.slug)).toEqual(model.occupations.map((o) => o.slug));
  });

  it('is deterministic: the same input gives the same bytes', () => {
    const again = renderEmbed(fixtureModel(), 'timeline', { dataVersion: 'fixture-v' });
    expect(again).toEqual(timeline);
  });
});

describe('card content', () => {
  it('states the tier in words, the range in whole numbers (the gauge holds the score), its scope, and the confidence', () => {
    const t = text(page(timeline, 'software-developers'));
    expect(t).toContain('High exposure');
    // The fixture's range is the score itself (63.2 to 63.2); the card rounds, the API keeps the decimal.
    expect(t).toContain('Range 63–63');
    expect(t).not.toContain('63.2');
    expect(t).toContain('Generative AI only');
    expect(t).toContain('Confidence: High');
    expect(text(page(timeline, 'chief-executives'))).toContain('Low exposure');
    expect(text(page(timeline, 'grinding-lapping-polishing-buffing-honing'))).toContain('Medium exposure');
  });

  it('timeline shape shows the displacement years and no percentile', () => {
    expect(fact(page(timeline, 'software-developers'), 'Adoption window')).toBe('2029–2034');
    expect(fact(page(timeline, 'office-clerks-general'), 'Adoption window')).toBe('2027');
    expect(text(page(timeline, 'software-developers'))).not.toMatch(/percentile/i);
  });

  it('percentile shape shows the percentile and no years', () => {
    expect(fact(page(percentile, 'software-developers'), 'Risk percentile')).toBe('82nd');
    expect(fact(page(percentile, 'chief-executives'), 'Risk percentile')).toBe('7th');
    expect(text(page(percentile, 'software-developers'))).not.toContain('2029');
  });

  it('names as most protective what lowers the score most in the model: a complementarity part or the task mix', () => {
    // Fixture points: technology -4.3; physical -20 (before exposure -10); responsibility -9.1; responsibility -5.5 (before substitution -1.5).
    expect(fact(page(timeline, 'software-developers'), 'Most protective')).toBe('Technology work');
    expect(fact(page(timeline, 'registered-nurses'), 'Most protective')).toBe('Physical, hands-on work');
    expect(fact(page(timeline, 'chief-executives'), 'Most protective')).toBe('Judgment and leadership');
    expect(fact(page(percentile, 'general-and-operations-managers'), 'Most protective')).toBe('Judgment and leadership');
  });

  it('never names the shrinkage, and says so when nothing lowers the score', () => {
    // Shrinkage -6 lowers it more than substitution -2.2, but an occupation does not "have" the shrinkage.
    expect(fact(page(timeline, 'script-alert-x-script-quotes-too'), 'Most protective')).toBe('AI assists more than replaces');
    expect(fact(page(timeline, 'office-clerks-general'), 'Most protective')).toBe('Nothing lowers this score');
  });

  it('humanises a factor key the seed does not know', () => {
    expect(factorLabel('bedside_manner')).toBe('Bedside manner');
  });

  it('shows the data date from meta and declares the data version', () => {
    const html = page(timeline, 'software-developers');
    expect(text(html)).toContain('Data: O*NET 99.9 · OEWS May 2099');
    const meta = startTags(html).find((t) => t.name === 'meta' && attr(t, 'name') === 'data-version');
    expect(meta && attr(meta, 'content')).toBe('fixture-v');
  });

  it('links to the occupation page on the same site ("Full data"), in a new tab', () => {
    const links = startTags(page(timeline, 'software-developers')).filter((t) => t.name === 'a');
    expect(links).toHaveLength(1);
    expect(attr(links[0]!, 'href')).toBe('/occupations/software-developers');
    expect(attr(links[0]!, 'target')).toBe('_blank');
    expect(attr(links[0]!, 'rel')).toBe('noopener');
  });

  it('keeps the full long title in a title attribute', () => {
    const h1 = startTags(page(timeline, 'grinding-lapping-polishing-buffing-honing')).find((t) => t.name === 'h1')!;
    expect(attr(h1, 'title')).toBe(LONG_TITLE);
  });
});

describe('self-contained and accessible markup', () => {
  const all = [...timeline.pages.map((p) => p.html), timeline.notFound];

  it('declares English and has a gauge with a text alternative', () => {
    for (const html of timeline.pages.map((p) => p.html)) {
      expect(attr(startTags(html).find((t) => t.name === 'html')!, 'lang')).toBe('en');
      const svg = startTags(html).find((t) => t.name === 'svg')!;
      expect(attr(svg, 'role')).toBe('img');
      expect(attr(svg, 'aria-label')).toMatch(/^Exposure score \d+ out of 100: (low|medium|high) exposure$/);
    }
    expect(attr(startTags(page(timeline, 'software-developers')).find((t) => t.name === 'svg')!, 'aria-label')).toBe(
      'Exposure score 63 out of 100: high exposure',
    );
  });

  it('has no script, no external resource and no absolute URL', () => {
    for (const html of all) expect(html).not.toMatch(/https?:\/\//);
    for (const html of all) {
      const tags = startTags(html);
      expect(tags.filter((t) => ['script', 'link', 'img', 'iframe', 'object', 'embed'].includes(t.name))).toEqual([]);
      const urls = tags.flatMap((t) => t.attrs.filter(([n]) => n === 'href' || n === 'src').map(([, v]) => v));
      expect(urls.every((u) => u.startsWith('/'))).toBe(true);
      expect(textOf(html, 'style')).not.toMatch(/url\(|@import|@font-face/);
    }
  });

  it('stays under 8 KB per card', () => {
    for (const html of all) expect(Buffer.byteLength(html)).toBeLessThan(8 * 1024);
  });
});

describe('index and 404', () => {
  it('lists every card once, by major group and then alphabetically, with score and tier in words', () => {
    const tags = startTags(timeline.index);
    const all = tags.filter((t) => t.name === 'a' && attr(t, 'href')!.startsWith('/embed/') && attr(t, 'href') !== '/embed/').map((t) => attr(t, 'href'));
    // The ISCO-08 unit groups' cards follow the occupations' (the fixture has one).
    expect(all.filter((h) => h!.startsWith('/embed/isco/'))).toEqual(['/embed/isco/software-developers']);
    const hrefs = all.filter((h) => !h!.startsWith('/embed/isco/'));
    expect(all.slice(0, hrefs.length)).toEqual(hrefs);
    expect(hrefs).toEqual([
      '/embed/chief-executives',
      '/embed/general-and-operations-managers',
      '/embed/software-developers',
      '/embed/registered-nurses',
      '/embed/office-clerks-general',
      '/embed/grinding-lapping-polishing-buffing-honing',
      '/embed/script-alert-x-script-quotes-too',
    ]);
    // One same-origin script (the filter), nothing from another host.
    expect(tags.filter((t) => t.name === 'script').map((t) => attr(t, 'src'))).toEqual(['/assets/site.js']);
    expect(textOf(timeline.index, 'h3')).toBe('Management Occupations');
    expect(text(timeline.index).replace(/\s+/g, ' ')).toContain('Software Developers63High exposureDetails');
  });

  it('the 404 card says so and links to the index in a new tab', () => {
    expect(textOf(timeline.notFound, 'h1')).toBe('Card not found');
    const a = startTags(timeline.notFound).find((t) => t.name === 'a')!;
    expect([attr(a, 'href'), attr(a, 'target'), attr(a, 'rel')]).toEqual(['/embed/', '_blank', 'noopener']);
  });
});

describe('ordinal', () => {
  it('uses English suffixes, including the teens', () => {
    expect([0, 1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 100, 101, 111].map(ordinal)).toEqual([
      '0th', '1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '100th', '101st', '111th',
    ]);
  });
});

describe('the next step on the card', () => {
  const base = model.occupations[0]!;
  const withStep = (kind: 'move' | 'route' | 'focus' | 'stay' | 'none', soc: string | null) => ({
    transition_options: [{ ...({} as (typeof base.transition_options)[number]), soc_code: '11-0001.00', title: 'Movers' }],
    guidance: { ...base.guidance, routes: [{ ...({} as (typeof base.guidance.routes)[number]), soc_code: '11-0002.00', title: 'Route Takers' }], next_step: { kind, soc_code: soc, text: 'Long text.' } },
  });
  it('names the move or route by title, else the kind of advice in a few words', () => {
    expect([
      nextStepWords(withStep('move', '11-0001.00')),
      nextStepWords(withStep('route', '11-0002.00')),
      nextStepWords(withStep('focus', null)),
      nextStepWords(withStep('stay', null)),
      nextStepWords(withStep('none', null)),
    ]).toEqual(['Move: Movers', 'Route: Route Takers', 'Focus within the job', 'Staying is the advice', 'None passes the rules']);
  });
  it('is on every card, whole in its title', () => {
    const html = renderEmbed(model, 'percentile', { dataVersion: 'fixture-v' }).pages.find((p) => p.slug === base.slug)!.html;
    expect(html).toContain('<dt>Next step</dt><dd class="step" title="None passes the rules">None passes the rules</dd>');
  });
});
