// What a test needs to know about a rendered card, measured inside its frame. Kept as source text
// (not a function) because Playwright serialises what it evaluates and a transpiler may add
// helpers a browser does not have.

export interface CardMetrics {
  url: string;
  scheme: 'light' | 'dark';
  scroll: { w: number; h: number; cw: number; ch: number };
  /** Elements whose box reaches outside the 320x280 viewport. */
  outside: string[];
  /** Block elements (other than the clamped heading) whose own content is cut off. */
  clipped: string[];
  h1: { text: string; title: string | null; clamped: boolean } | null;
  /** The guidance's next step: one line, cut with an ellipsis when long, the whole text in its title. */
  step: { text: string; title: string | null; cut: boolean; ellipsis: boolean } | null;
  tier: string | null;
  gauge: { role: string | null; label: string | null; title: string | null } | null;
  minFontPx: number;
  borderRadius: string;
  link: { href: string; target: string; rel: string } | null;
  /** Text colour and the background it sits on, per element with its own text. */
  texts: Array<{ what: string; color: string; bg: string; px: number; bold: boolean }>;
  /** Gauge strokes against the background (non-text contrast). */
  strokes: Array<{ what: string; color: string; bg: string }>;
  scripts: number;
}

export const INSPECT_CARD = `(() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const se = document.scrollingElement;
  // getAttribute, not className: on SVG elements className is not a string.
  const name = (el) => el.tagName.toLowerCase() + (el.getAttribute('class') ? '.' + el.getAttribute('class').trim().split(/\s+/).join('.') : '');
  const bgOf = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor;
      if (c && c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c;
    }
    return 'rgb(255, 255, 255)';
  };
  const hidden = (el) => el.closest('.sr') !== null;
  const all = [...document.querySelectorAll('main *')].filter((el) => !hidden(el));
  const outside = all.filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5);
  }).map(name);
  const main = document.querySelector('main');
  if (main) {
    const r = main.getBoundingClientRect();
    if (r.right > vw + 0.5 || r.bottom > vh + 0.5) outside.push('main');
  }
  // The next step is cut on purpose (one line, an ellipsis, the whole text in its title): reported as step.
  const clipped = [...document.querySelectorAll('main p, main dt, main dd, footer, footer span, footer a')]
    .filter((el) => !hidden(el) && !el.classList.contains('step') && (el.scrollWidth > el.clientWidth + 1 || (getComputedStyle(el).display !== 'inline' && el.scrollHeight > el.clientHeight + 1)))
    .map(name);
  const h1 = document.querySelector('h1');
  const step = document.querySelector('dd.step');
  const svg = document.querySelector('svg');
  const a = document.querySelector('main a');
  const texts = [];
  let minFontPx = Infinity;
  for (const el of all) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (!own || el.getClientRects().length === 0) continue;
    const cs = getComputedStyle(el);
    const px = parseFloat(cs.fontSize);
    minFontPx = Math.min(minFontPx, px);
    const isSvgText = el instanceof SVGElement;
    texts.push({ what: name(el), color: isSvgText ? cs.fill : cs.color, bg: bgOf(el), px, bold: Number(cs.fontWeight) >= 700 });
  }
  const strokes = [...document.querySelectorAll('svg path')].map((p) => ({ what: name(p), color: getComputedStyle(p).stroke, bg: bgOf(p) }));
  return {
    url: location.href,
    scheme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
    scroll: { w: se.scrollWidth, h: se.scrollHeight, cw: se.clientWidth, ch: se.clientHeight },
    outside,
    clipped,
    h1: h1 ? { text: h1.textContent, title: h1.getAttribute('title'), clamped: h1.scrollHeight > h1.clientHeight + 1 } : null,
    step: step ? { text: step.textContent, title: step.getAttribute('title'), cut: step.scrollWidth > step.clientWidth + 1, ellipsis: getComputedStyle(step).textOverflow === 'ellipsis' } : null,
    tier: document.querySelector('.tier')?.textContent ?? null,
    gauge: svg ? { role: svg.getAttribute('role'), label: svg.getAttribute('aria-label'), title: svg.querySelector('title')?.textContent ?? null } : null,
    minFontPx,
    borderRadius: main ? getComputedStyle(main).borderTopLeftRadius : '',
    link: a ? { href: a.href, target: a.target, rel: a.rel } : null,
    texts,
    strokes,
    scripts: document.scripts.length,
  };
})()`;
