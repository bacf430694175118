// The embedded player's side of the IFrame API's postMessage protocol, as the platform's player
// speaks it with `enablejsapi=1`: it reads only JSON strings (an object is ignored, as the real
// player ignores it); it takes commands only from a page that said
// `{"event":"listening","id":…,"channel":"widget"}` first, answering that with `onReady` and
// `initialDelivery`; each later `infoDelivery` carries `info.currentTime` (and `playerState`), sent
// to that page's origin with its widget id. It records what it was sent (window.commands: origin,
// func, args, id, channel; window.ignored: messages it refused), shows the last seek (#state, and
// #t=<seconds> in its URL), and a test plays it to a second with window.playTo(seconds).
// One script for both fakes that serve it: the fake platform's GET /embed/<id> and the stand-alone
// player of test/support/fake-embed.ts.

/** Where the script shows the last seek ("seeked to <s>"). */
export const PLAYER_STATE_HTML = '<p id="state">not seeked</p>';

/** The script's text (for an inline `<script>`), for a video of `durationSeconds`. */
export function iframeApiScript(durationSeconds: number): string {
  return `
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
      tell('initialDelivery', { currentTime, playerState, duration: ${Math.floor(durationSeconds)} });
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
`;
}
