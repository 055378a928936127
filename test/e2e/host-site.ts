// The "other site" that embeds cards: a second origin (localhost vs the site's 127.0.0.1, so the
// frames are cross-site, as on a real embedding page) serving pages made only of iframes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The iframe markup from docs/EMBED.md, with the host filled in. Batch pages pass lazy=false:
 * lazy frames far below the fold would never load.
 */
export function snippet(siteUrl: string, slug: string, title: string, lazy = true): string {
  const loading = lazy ? ' loading="lazy"' : '';
  return `<iframe src="${siteUrl}/embed/${slug}" width="320" height="280" title="AI displacement risk: ${escapeHtml(title)}"${loading} style="border:0"></iframe>`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface HostSite {
  url: string;
  /** Registers a page of frames and returns its URL. */
  page(frames: string[]): string;
  close(): Promise<void>;
}

export async function startHostSite(): Promise<HostSite> {
  const pages = new Map<string, string>();
  const server = createServer((req, res) => {
    const html = pages.get(new URL(req.url ?? '/', 'http://x').pathname);
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://localhost:${port}`;
  return {
    url,
    page(frames) {
      const path = `/host-${pages.size}`;
      pages.set(
        path,
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Host</title>` +
          `<style>body{margin:8px;display:flex;flex-wrap:wrap;gap:8px;background:#f0f0f0}</style></head>` +
          `<body>${frames.join('\n')}</body></html>`,
      );
      return url + path;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
