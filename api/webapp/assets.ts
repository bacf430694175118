// The app's one stylesheet, served from the app under a content-hashed URL with a year's caching:
// a change gives a new URL, so a long cache never serves an old sheet to a new page.

import { createHash } from 'node:crypto';

const CSS = `
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #fdfdfd; --muted: #555; --accent: #0b57d0; --line: #ccc; }
@media (prefers-color-scheme: dark) { :root { --fg: #ececec; --bg: #161616; --muted: #b5b5b5; --accent: #8ab4f8; --line: #444; } }
* { box-sizing: border-box; }
body { margin: 0; font: 1rem/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
header nav ul { display: flex; gap: .75rem; list-style: none; margin: 0; padding: 0; }
header form { margin: 0; }
main { max-width: 48rem; margin: 0 auto; padding: 1rem; }
main:has(.watch) { max-width: 84rem; }
.watch { display: grid; gap: 1rem; }
.player iframe { display: block; width: 100%; aspect-ratio: 16 / 9; border: 0; }
@media (min-width: 64rem) { .watch { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); align-items: start; } .player { position: sticky; top: 1rem; } }
a { color: var(--accent); }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
input[type=password], input[type=text], input[type=search] { width: 100%; max-width: 30rem; padding: .5rem; font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--muted); border-radius: 4px; }
button { font: inherit; padding: .4rem .9rem; margin-top: .5rem; color: var(--bg); background: var(--accent); border: 0; border-radius: 4px; cursor: pointer; }
.error { color: #b3261e; font-weight: 600; }
@media (prefers-color-scheme: dark) { .error { color: #f2b8b5; } }
.muted { color: var(--muted); }
`;

export const STYLESHEET = Buffer.from(CSS, 'utf8');
const hash = createHash('sha256').update(STYLESHEET).digest('hex').slice(0, 12);
export const STYLESHEET_FILE = `style.${hash}.css`;
export const STYLESHEET_URL = `/app/assets/${STYLESHEET_FILE}`;

// The transcript page's one script: a time link seeks the embedded player (the platform's iframe
// API: a seekTo command by postMessage to the player's origin only) instead of leaving the page.
// Without it the links still open the platform's player at that second.
const PLAYER = `'use strict';
(() => {
  const frame = document.getElementById('player');
  if (!(frame instanceof HTMLIFrameElement)) return;
  const origin = new URL(frame.src).origin;
  const send = (func, args) => frame.contentWindow?.postMessage(JSON.stringify({ event: 'command', func, args }), origin);
  document.addEventListener('click', (e) => {
    const a = e.target instanceof Element ? e.target.closest('a[data-seconds]') : null;
    if (a === null || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    send('seekTo', [Number(a.getAttribute('data-seconds')), true]);
    send('playVideo', []);
  });
})();
`;

export const PLAYER_SCRIPT = Buffer.from(PLAYER, 'utf8');
export const PLAYER_SCRIPT_FILE = `player.${createHash('sha256').update(PLAYER_SCRIPT).digest('hex').slice(0, 12)}.js`;
export const PLAYER_SCRIPT_URL = `/app/assets/${PLAYER_SCRIPT_FILE}`;

/** A favicon of ours, so a browser asks for it here instead of a 404 at /favicon.ico. */
export const ICON = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b57d0"/><path d="M4 5h8M4 8h8M4 11h5" stroke="#fff" stroke-width="1.5"/></svg>', 'utf8');
export const ICON_FILE = `icon.${createHash('sha256').update(ICON).digest('hex').slice(0, 12)}.svg`;
export const ICON_URL = `/app/assets/${ICON_FILE}`;
