// Every string from the data reaches the page as text: the hostile fixture title must not add an
// element or an attribute anywhere (body, <title>, title attribute, index page).
import { describe, expect, it } from 'vitest';
import { renderEmbed } from '../../../../build/emit/embed.ts';
import { HOSTILE_TITLE, fixtureModel } from '../../../fixtures/embed/model.ts';
import { attr, startTags, textOf, tokenize } from './html-tokens.ts';

const out = renderEmbed(fixtureModel(), 'timeline', { dataVersion: 'fixture' });
const hostile = out.pages.find((p) => p.slug === 'script-alert-x-script-quotes-too')!.html;
const plain = out.pages.find((p) => p.slug === 'software-developers')!.html;

describe('the tokenizer used below sees injections', () => {
  it('finds a script element and a stray attribute in unescaped markup', () => {
    const inText = `<h1>${HOSTILE_TITLE}</h1>`;
    expect(startTags(inText).map((t) => t.name)).toEqual(['h1', 'script']);
    // The first quote in the value closes the attribute; the rest becomes attributes (as in a browser).
    const inAttr = `<h1 title="${HOSTILE_TITLE}">`;
    expect(startTags(inAttr)[0]!.attrs.map(([n]) => n)).toEqual(['title', 'x")<', 'script']);
  });
});

describe('hostile occupation title', () => {
  it('adds no element: the card has the same tag sequence as an ordinary card', () => {
    expect(startTags(hostile).map((t) => t.name)).toEqual(startTags(plain).map((t) => t.name));
    expect(startTags(hostile).some((t) => t.name === 'script')).toBe(false);
  });

  it('adds no attribute: every tag has the same attribute names as in an ordinary card', () => {
    const names = (html: string) => startTags(html).map((t) => t.attrs.map(([n]) => n).join(' '));
    expect(names(hostile)).toEqual(names(plain));
    expect(startTags(hostile).flatMap((t) => t.attrs).some(([n]) => n.startsWith('on'))).toBe(false);
  });

  it('shows the title as text in the heading, its title attribute and the document title', () => {
    expect(textOf(hostile, 'h1')).toBe(HOSTILE_TITLE);
    const h1 = startTags(hostile).find((t) => t.name === 'h1')!;
    expect(attr(h1, 'title')).toBe(HOSTILE_TITLE);
    expect(textOf(hostile, 'title')).toBe(`AI displacement risk: ${HOSTILE_TITLE}`);
  });

  it('is listed as text on the index page, linking to its card', () => {
    const tags = startTags(out.index);
    // The only script is the site's own file; the title never becomes one.
    expect(tags.filter((t) => t.name === 'script').map((t) => attr(t, 'src'))).toEqual(['/assets/site.js']);
    expect(tags.flatMap((t) => t.attrs).some(([n]) => n.startsWith('on'))).toBe(false);
    const tokens = tokenize(out.index);
    const link = tokens.findIndex((t) => t.kind === 'start' && t.name === 'a' && attr(t, 'href') === '/embed/script-alert-x-script-quotes-too');
    expect(link).toBeGreaterThan(-1);
    expect(tokens[link + 1]).toEqual({ kind: 'text', text: HOSTILE_TITLE });
  });
});

describe('the copy-paste snippet on the index page', () => {
  it('pastes as one valid iframe whose title attribute holds the whole title', () => {
    // The fixture's hostile title sorts first, so it is the snippet's example.
    const pasted = textOf(out.index, 'code')!;
    const tags = startTags(pasted);
    expect(tags.map((t) => t.name)).toEqual(['iframe']);
    expect(tags[0]!.attrs.map(([n]) => n)).toEqual(['src', 'width', 'height', 'title', 'loading', 'style']);
    expect(attr(tags[0]!, 'title')).toBe(`AI displacement risk: ${HOSTILE_TITLE}`);
  });
});
