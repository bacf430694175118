// The transcript page's one script (served as player.<hash>.js by assets.ts; no inline script).
// It speaks the platform's IFrame API postMessage protocol as the platform's own widget API script
// (www-widgetapi.js) does, without loading it: every message a JSON string; `listening` (with our
// widget id and `channel: "widget"`) once the frame has loaded and every 250 ms until the player
// first answers; then `command`s (`seekTo` with [seconds, allowSeekAhead], `playVideo`). The player
// answers with `infoDelivery` events whose `info.currentTime` marks the paragraph being spoken.
// Messages go to the player's origin only and are read only from its window.
// Also: `#t=<seconds>` (or `1h2m3s`) opens the page at that moment, and the find box filters the
// paragraphs as one types. Without this script every time is still a link to the platform's player,
// `#t=<s>` still scrolls (the element ids), and the find box is a plain GET form.

export const PLAYER_JS = `'use strict';
(() => {
  const frame = document.getElementById('player');
  const paragraphs = Array.from(document.querySelectorAll('p[data-start]')).map((el) => ({ el, start: Number(el.getAttribute('data-start')) }));

  // ── the paragraph being spoken ──
  let current = null;
  const mark = (seconds) => {
    let found = null;
    for (const p of paragraphs) { if (p.start <= seconds) found = p; else break; }
    if (found === current) return found;
    if (current !== null) { current.el.classList.remove('now'); current.el.removeAttribute('aria-current'); }
    current = found;
    if (found !== null) { found.el.classList.add('now'); found.el.setAttribute('aria-current', 'true'); }
    return found;
  };

  // ── the player ──
  const WIDGET_ID = 1;
  let origin = null;
  try { origin = frame instanceof HTMLIFrameElement ? new URL(frame.src).origin : null; } catch { origin = null; }
  let loaded = false;
  let answered = false;
  let pending = null;
  const post = (message) => {
    if (origin === null || !loaded || frame.contentWindow === null) return;
    frame.contentWindow.postMessage(JSON.stringify(Object.assign(message, { id: WIDGET_ID, channel: 'widget' })), origin);
  };
  const command = (func, args) => post({ event: 'command', func, args });
  // A delivery from before a seek landed (initialDelivery's 0:00 after a #t= seek) would move the
  // mark back for a moment: for 2 s after a seek, only a time near it is taken.
  let seekedTo = null;
  let seekedAt = 0;
  const seek = (seconds, play) => {
    if (!answered) { pending = { seconds, play }; return; }
    seekedTo = seconds;
    seekedAt = Date.now();
    command('seekTo', [seconds, true]);
    if (play) command('playVideo', []);
  };
  // Nothing is posted before the player's page is in the frame (a message to the first about:blank
  // would be refused): the frame's load, or the window's, which comes after it, should this script
  // run after the frame loaded.
  let tries = 0;
  const hello = () => {
    if (answered || tries++ > 240) { clearInterval(timer); return; }
    post({ event: 'listening' });
  };
  const timer = origin === null ? null : setInterval(hello, 250);
  const loadedNow = () => { if (!loaded) { loaded = true; hello(); } };
  if (origin !== null) { frame.addEventListener('load', loadedNow); window.addEventListener('load', loadedNow); }
  window.addEventListener('message', (e) => {
    if (origin === null || e.origin !== origin || e.source !== frame.contentWindow || typeof e.data !== 'string') return;
    let m;
    try { m = JSON.parse(e.data); } catch { return; }
    if (m === null || typeof m !== 'object') return;
    if (!answered) {
      answered = true;
      clearInterval(timer);
      if (pending !== null) { const p = pending; pending = null; seek(p.seconds, p.play); }
    }
    const info = m.info;
    if ((m.event !== 'infoDelivery' && m.event !== 'initialDelivery') || info === null || typeof info !== 'object' || typeof info.currentTime !== 'number') return;
    if (seekedTo !== null && Math.abs(info.currentTime - seekedTo) > 2 && Date.now() - seekedAt < 2000) return;
    seekedTo = null;
    mark(info.currentTime);
  });

  // ── time links: seek the player beside the transcript instead of leaving the page ──
  document.addEventListener('click', (e) => {
    const a = e.target instanceof Element ? e.target.closest('a[data-seconds]') : null;
    if (a === null || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    if (origin === null) return;
    e.preventDefault();
    const seconds = Number(a.getAttribute('data-seconds'));
    seek(seconds, true);
    const p = mark(seconds);
    // A chapter or summary link jumps to its paragraph too; a paragraph's own link is in view already.
    if (a.closest('p[data-start]') === null && p !== null) p.el.scrollIntoView({ block: 'start' });
    history.replaceState(null, '', '#t=' + seconds);
  });

  // ── #t=<seconds>: open at that moment ──
  const secondsOf = (hash) => {
    const m = /^#t=(?:(\\d+)|(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?)$/.exec(hash);
    if (m === null || m[0] === '#t=') return null;
    if (m[1] !== undefined) return Number(m[1]);
    return Number(m[2] ?? 0) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  };
  const openAt = () => {
    const seconds = secondsOf(location.hash);
    if (seconds === null) return;
    const p = mark(seconds);
    if (p !== null) p.el.scrollIntoView({ block: 'start' });
    if (origin !== null) seek(seconds, false);
  };
  window.addEventListener('hashchange', openAt);
  openAt();

  // ── find in transcript: only the paragraphs holding the text, the text in <mark> ──
  const box = document.getElementById('find');
  const status = document.getElementById('find-status');
  const form = box === null ? null : box.form;
  if (box instanceof HTMLInputElement && form !== null) {
    const said = paragraphs.map((p) => ({ p, span: p.el.querySelector('.said') })).filter((x) => x.span !== null);
    const original = new Map(said.map((x) => [x.span, x.span.textContent]));
    const escape = (s) => s.replace(/[.*+?^$|()[\\]{}\\\\]/g, '\\\\$&');
    const find = () => {
      const needle = box.value.trim().slice(0, 100);
      const re = needle === '' ? null : new RegExp(escape(needle), 'giu');
      let count = 0;
      for (const { p, span } of said) {
        const text = original.get(span);
        if (re === null) { span.textContent = text; p.el.hidden = false; continue; }
        const parts = [];
        let at = 0;
        re.lastIndex = 0;
        for (let m = re.exec(text); m !== null; m = re.exec(text)) {
          if (m.index > at) parts.push(document.createTextNode(text.slice(at, m.index)));
          const hit = document.createElement('mark');
          hit.textContent = m[0];
          parts.push(hit);
          at = m.index + m[0].length;
        }
        if (at < text.length) parts.push(document.createTextNode(text.slice(at)));
        const hits = parts.some((n) => n.nodeName === 'MARK');
        if (hits) count++;
        span.replaceChildren(...parts);
        p.el.hidden = !hits;
      }
      if (status !== null) status.textContent = re === null ? '' : count === 0 ? status.getAttribute('data-none') : status.getAttribute('data-some').replace('{n}', String(count));
    };
    box.addEventListener('input', find);
    form.addEventListener('submit', (e) => { e.preventDefault(); find(); });
  }
})();
`;
