// nginx as the static ceiling, when installed: a throwaway config serving dist/ the way our
// static routes do (a path maps to its index.json), all workers, no access log.
import { spawnSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { startChild, type Running } from './procs.ts';

const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/bin/nginx', '/usr/bin/nginx'];

export function findNginx(): string | null {
  for (const bin of NGINX) if (spawnSync(bin, ['-v']).status === 0) return bin;
  return null;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

export async function startNginx(bin: string, root: string): Promise<Running> {
  const prefix = mkdtempSync(path.join(tmpdir(), 'odr-bench-nginx-'));
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  writeFileSync(
    path.join(prefix, 'nginx.conf'),
    `${asRoot ? 'user root;\n' : ''}worker_processes auto;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  default_type application/json;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { try_files $uri $uri/index.json =404; }
  }
}
`,
  );
  // nginx prints nothing when it starts: wait for the port, then hand back a Running.
  const child = spawn(bin, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf')], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((r) => net.connect(port, '127.0.0.1').once('connect', function (this: net.Socket) { this.destroy(); r(true); }).once('error', () => r(false)));
    if (ok) return { url: `http://127.0.0.1:${port}`, child, stop: () => new Promise((r) => { child.once('exit', () => r()); child.kill('SIGQUIT'); }) };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`nginx did not start (see ${prefix}/error.log)`);
}
export { startChild };
