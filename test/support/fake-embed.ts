// A stand-in for the platform's embedded player, on loopback, for the web app's browser tests. Its
// page speaks the IFrame API's postMessage protocol as the platform's player does: it reads only
// JSON strings (an object is ignored, as the real player ignores it); it takes commands only from
// a page that said `{"event":"listening","id":…,"channel":"widget"}` first, answering that with
// `onReady` and `initialDelivery`; each later `infoDelivery` carries `info.currentTime` (and
// `playerState`), sent to that page's origin with its widget id. It records what it was sent
// (window.commands: origin, func, args, id, channel; window.ignored: messages it refused),
// shows the last seek (#state, and #t=<seconds> in its URL), and a test plays it to a second with
// window.playTo(seconds).

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fake player</title></head>
<body><p id="state">not seeked</p><script>
window.commands = [];
window.ignored = [];
let listener = null;
let currentTime = 0;
let playerState = -1;
const tell = (event, info) => {
  if (listener === null) return;
  listener.source.postMessage(JSON.stringify({ event, info, id: listener.id, channel: 'widget' }), listener.origin);
};
const deliver = () => tell('infoDelivery', { currentTime, playerState });
window.playTo = (seconds) => { currentTime = seconds; playerState = 1; deliver(); };
window.addEventListener('message', (e) => {
  if (typeof e.data !== 'string') { window.ignored.push({ origin: e.origin, type: typeof e.data }); return; }
  let m;
  try { m = JSON.parse(e.data); } catch { window.ignored.push({ origin: e.origin, type: 'not json' }); return; }
  if (m === null || typeof m !== 'object') return;
  if (m.event === 'listening') {
    if (m.channel !== 'widget') { window.ignored.push({ origin: e.origin, type: 'listening without channel' }); return; }
    const first = listener === null;
    listener = { source: e.source, origin: e.origin, id: m.id };
    if (first) {
      tell('onReady', null);
      tell('initialDelivery', { currentTime, playerState, duration: 3723 });
    }
    return;
  }
  if (m.event !== 'command') return;
  if (listener === null || e.origin !== listener.origin) { window.ignored.push({ origin: e.origin, type: 'command before listening', func: m.func }); return; }
  window.commands.push({ origin: e.origin, func: m.func, args: m.args, id: m.id, channel: m.channel });
  if (m.func === 'seekTo') {
    currentTime = m.args[0];
    history.replaceState(null, '', '#t=' + m.args[0]);
    document.getElementById('state').textContent = 'seeked to ' + m.args[0];
    deliver();
  }
  if (m.func === 'playVideo') { playerState = 1; deliver(); }
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
