// The citation the pages print is read from CITATION.cff's text: the fields it needs, an author
// written either way CFF allows, and a file without one of them failing the build.
import { describe, expect, it } from 'vitest';
import { citeText, parseCff } from '../../../build/emit/citation.ts';

const CFF = `# comment
cff-version: 1.2.0
message: "Cite it"
title: "Some API"
authors:
  - family-names: Doe
    given-names: Jane
  - name: "The Team"
version: "2.0.0"
references:
  - type: software
    title: "A Database"
    authors:
      - name: "Someone Else"
  - type: data
    title: "Some data set"
    version: "d-1+model-2.0.0"
    authors:
      - name: "The Team"
`;

describe('parseCff', () => {
  it('reads the title, version, authors and the data reference', () => {
    expect(parseCff(CFF)).toEqual({ title: 'Some API', version: '2.0.0', authors: ['Doe, J.', 'The Team'], data: { title: 'Some data set', version: 'd-1+model-2.0.0' } });
  });

  it.each([
    ['title', CFF.replace('title: "Some API"\n', ''), /"title"/],
    ['authors', CFF.replace(/authors:\n  - family-names: Doe\n    given-names: Jane\n  - name: "The Team"\n/, ''), /no authors/],
    ['data reference', CFF.replace('type: data', 'type: article'), /type data/],
  ])('fails without its %s', (_, text, message) => {
    expect(() => parseCff(text)).toThrow(message);
  });

  it('prints BibTeX and APA-style text with the given origin', () => {
    const { bibtex, apa } = citeText(parseCff(CFF), 'https://example.org');
    expect(bibtex).toBe(
      '@misc{odr_d_1_model_2_0_0,\n  author = {{Doe, J.} and {The Team}},\n  title = {{Some data set}},\n  version = {d-1+model-2.0.0},\n  note = {Published by the Some API, version 2.0.0},\n  url = {https://example.org/},\n}',
    );
    expect(apa).toBe('Doe, J., The Team. (n.d.). Some data set (Version d-1+model-2.0.0) [Data set]. Some API, version 2.0.0. https://example.org/');
  });
});
