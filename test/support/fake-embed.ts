// A stand-in for the platform's embedded player, on loopback, for the web app's browser tests: it
// answers /embed/<video id> with a page that records every iframe-API command it is sent by
// postMessage (window.commands: origin, func, args) and the last seek in its URL (#t=<seconds>).

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fake player</title></head>
<body><p id="state">not seeked</p><script>
window.commands = [];
window.addEventListener('message', (e) => {
  let m;
  try { m = JSON.parse(e.data); } catch { return; }
  if (m === null || m.event !== 'command') return;
  window.commands.push({ origin: e.origin, func: m.func, args: m.args });
  if (m.func === 'seekTo') {
    history.replaceState(null, '', '#t=' + m.args[0]);
    document.getElementById('state').textContent = 'seeked to ' + m.args[0];
  }
});
</script></body></html>`;

export interface FakeEmbed {
  /** PLAYER_EMBED_URL for it: http://127.0.0.1:<port>/embed */
  url: string;
  /** Paths asked, in order. */
  asked: string[];
  close(): Promise<void>;
}

export async function startFakeEmbed(): Promise<FakeEmbed> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    if (!/^\/embed\/[\w-]{11}(\?|$)/.test(req.url ?? '')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/embed`,
    asked,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
