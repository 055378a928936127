// The ceiling for our server: a bare node:http handler answering each benchmarked request with the
// status, headers and body bytes our server sent for it, from memory (POST bodies are read first,
// as ours must), in as many processes as our server runs (argv[3]), so the ratio is per-process
// overhead. Node adds Date, Connection and Keep-Alive on both sides.
// argv[2]: JSON file {"<METHOD> <url>": {"status": 200, "headers": [[name, value]...], "body": "<base64>"}}.
// Prints its URL.
import cluster from 'node:cluster';
import http from 'node:http';
import { readFileSync } from 'node:fs';

const workers = Number(process.argv[3] ?? 1);

function serve() {
  const table = new Map(
    Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8'))).map(([k, v]) => [k, { status: v.status, headers: v.headers.flat(), body: Buffer.from(v.body, 'base64') }]),
  );
  const server = http.createServer((req, res) => {
    const hit = table.get(`${req.method} ${req.url}`);
    const send = () => {
      if (!hit) return res.writeHead(404).end();
      res.writeHead(hit.status, hit.headers);
      res.end(hit.body);
    };
    if (req.method === 'POST') {
      req.on('data', () => undefined);
      req.on('end', send);
    } else send();
  });
  server.keepAliveTimeout = 5000;
  server.listen(0, '127.0.0.1', () => {
    const url = `bare node:http at http://127.0.0.1:${server.address().port}`;
    if (cluster.isWorker) process.send({ url });
    else console.log(url);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

if (cluster.isPrimary && workers > 1) {
  // Workers share one socket, like npm start's; the first to listen announces the URL.
  let announced = false;
  for (let i = 0; i < workers; i++) {
    cluster.fork().on('message', (m) => {
      if (!announced) console.log(m.url);
      announced = true;
    });
  }
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers)) w.kill();
    process.exit(0);
  });
} else serve();
