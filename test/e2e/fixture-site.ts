// Stand-in for the real build + server while those are not in the tree: serves renderEmbed's
// output for the synthetic fixture under /embed/, with the headers the serving contract promises.
// The header test only runs against the real server (checking headers we set here would prove
// nothing).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderEmbed } from '../../build/emit/embed.ts';
import { fixtureModel } from '../fixtures/embed/model.ts';

export async function startFixtureSite(): Promise<{ url: string; close(): Promise<void> }> {
  const out = renderEmbed(fixtureModel(), 'timeline', { dataVersion: 'fixture' });
  const pages = new Map(out.pages.map((p) => [`/embed/${p.slug}`, p.html]));
  pages.set('/embed/', out.index);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const html = pages.get(path);
    res.writeHead(html ? 200 : 404, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors *",
    });
    res.end(html ?? out.notFound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
