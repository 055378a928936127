// A small HTML tokenizer for tests, following the WHATWG tokenizer closely enough to see what a
// browser would see in our own output: a '<' only opens a tag before a letter, '/' or '!';
// attributes end at the first unescaped quote; <style>/<script> are raw text and <title> is
// RCDATA. If the renderer ever let markup through, it would show up here as an extra tag or
// attribute, not as text.
export interface StartTag {
  kind: 'start';
  name: string;
  attrs: Array<[string, string]>;
}
export type Token = StartTag | { kind: 'end'; name: string } | { kind: 'text'; text: string };

const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", times: '×', rsquo: '’', nbsp: '\u00a0' };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') return String.fromCodePoint(ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10));
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

export function tokenize(html: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let text = '';
  // Inside <svg> (foreign content) <title> is an ordinary element whose children are parsed as tags.
  let svgDepth = 0;
  const flush = () => {
    if (text) out.push({ kind: 'text', text: decodeEntities(text) });
    text = '';
  };
  while (i < html.length) {
    const c = html[i]!;
    const next = html[i + 1] ?? '';
    if (c !== '<' || !/[a-zA-Z/!]/.test(next)) {
      text += c;
      i += 1;
      continue;
    }
    flush();
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      i = end < 0 ? html.length : end + 3;
    } else if (next === '!') {
      const end = html.indexOf('>', i);
      i = end < 0 ? html.length : end + 1;
    } else if (next === '/') {
      const m = /^<\/([a-zA-Z][^\s/>]*)[^>]*>/.exec(html.slice(i));
      if (!m) throw new Error(`bad end tag at ${i}`);
      out.push({ kind: 'end', name: m[1]!.toLowerCase() });
      if (m[1]!.toLowerCase() === 'svg') svgDepth = Math.max(0, svgDepth - 1);
      i += m[0].length;
    } else {
      i = startTag(html, i + 1, out);
      const last = out[out.length - 1] as StartTag;
      if (last.name === 'svg') svgDepth += 1;
      if (RAW_TEXT.has(last.name) && !(svgDepth > 0 && last.name === 'title')) {
        const close = html.toLowerCase().indexOf(`</${last.name}`, i);
        const body = html.slice(i, close < 0 ? html.length : close);
        // <title> and <textarea> decode entities; <style> and <script> do not.
        out.push({ kind: 'text', text: last.name === 'title' || last.name === 'textarea' ? decodeEntities(body) : body });
        i = close < 0 ? html.length : close;
      }
    }
  }
  flush();
  return out;
}

function startTag(html: string, i: number, out: Token[]): number {
  const name = /^[^\s/>]+/.exec(html.slice(i))![0];
  i += name.length;
  const attrs: Array<[string, string]> = [];
  for (;;) {
    while (/[\s/]/.test(html[i] ?? '')) i += 1;
    if (i >= html.length || html[i] === '>') break;
    const an = /^[^\s/>][^\s/>=]*/.exec(html.slice(i))![0];
    i += an.length;
    while (/\s/.test(html[i] ?? '')) i += 1;
    let value = '';
    if (html[i] === '=') {
      i += 1;
      while (/\s/.test(html[i] ?? '')) i += 1;
      const q = html[i];
      if (q === '"' || q === "'") {
        const end = html.indexOf(q, i + 1);
        value = html.slice(i + 1, end);
        i = end + 1;
      } else {
        const v = /^[^\s>]*/.exec(html.slice(i))![0];
        value = v;
        i += v.length;
      }
    }
    attrs.push([an.toLowerCase(), decodeEntities(value)]);
  }
  out.push({ kind: 'start', name: name.toLowerCase(), attrs });
  return i + 1;
}

export function startTags(html: string): StartTag[] {
  return tokenize(html).filter((t): t is StartTag => t.kind === 'start');
}

/** Text inside the first element with this tag name (nested text joined). */
export function textOf(html: string, tag: string): string | null {
  const tokens = tokenize(html);
  const start = tokens.findIndex((t) => t.kind === 'start' && t.name === tag);
  if (start < 0) return null;
  let depth = 0;
  let text = '';
  for (const t of tokens.slice(start)) {
    if (t.kind === 'start' && t.name === tag) depth += 1;
    else if (t.kind === 'end' && t.name === tag && --depth === 0) break;
    else if (t.kind === 'text') text += t.text;
  }
  return text;
}

export function attr(tag: StartTag, name: string): string | undefined {
  return tag.attrs.find(([n]) => n === name)?.[1];
}
