// Run as `node --experimental-websocket inspector-quiet.mjs PORT` (Node 20 has WebSocket only
// behind that flag): connects to the DevTools endpoint of a `wrangler pages dev` on PORT, turns
// off the runtime's Network events (Network.disable), and exits 0 once the runtime has answered.
// wrangler enables those events for DevTools and, with no DevTools attached, relays every one to
// its Node process, which formats and logs it, response body included (base64): about 70% of its
// CPU over the contract suite's requests. Nothing the tests check depends on them.
const port = process.argv[2];
const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { Origin: 'http://localhost' } });
const fail = (why) => {
  console.error(why);
  process.exit(1);
};
const timer = setTimeout(() => fail('no answer to Network.disable within 20 s'), 20_000);
ws.onopen = () => ws.send(JSON.stringify({ id: 1, method: 'Network.disable' }));
ws.onmessage = (event) => {
  const message = JSON.parse(String(event.data));
  if (message.id !== 1) return;
  clearTimeout(timer);
  if (message.error) fail(`Network.disable: ${JSON.stringify(message.error)}`);
  // Exit without a close handshake: the runtime keeps the setting, wrangler drops the socket.
  process.exit(0);
};
ws.onerror = (event) => fail(`the DevTools socket failed: ${event.message ?? event.type}`);
