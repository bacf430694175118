// The app's one stylesheet, served from the app under a content-hashed URL with a year's caching:
// a change gives a new URL, so a long cache never serves an old sheet to a new page.

import { createHash } from 'node:crypto';
import { PLAYER_JS } from './player-script';

const CSS = `
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #fdfdfd; --muted: #555; --accent: #0b57d0; --line: #ccc; }
@media (prefers-color-scheme: dark) { :root { --fg: #ececec; --bg: #161616; --muted: #b5b5b5; --accent: #8ab4f8; --line: #444; } }
* { box-sizing: border-box; }
body { margin: 0; font: 1rem/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
header nav ul { display: flex; gap: .75rem; list-style: none; margin: 0; padding: 0; }
header form { margin: 0; }
form.inline { display: inline; }
form.inline button { margin-top: 0; padding: .1rem .5rem; }
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
.copy { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; margin-bottom: .75rem; }
.copy input { flex: 1 1 20rem; font-family: ui-monospace, monospace; font-size: .85rem; }
.copy button { margin-top: 0; }
.videos li { margin-bottom: .35rem; }
.pages ul { display: flex; gap: 1rem; list-style: none; padding: 0; }
.transcript p[data-start] { padding: .1rem .4rem; border-left: 3px solid transparent; }
.transcript p.now { border-left-color: var(--accent); background: var(--now); }
:root { --now: #fff3c4; }
@media (prefers-color-scheme: dark) { :root { --now: #3a3320; } }
.tools { display: flex; flex-wrap: wrap; gap: 1rem; align-items: end; }
.tools form { margin: 0; }
select { font: inherit; padding: .4rem; color: var(--fg); background: var(--bg); border: 1px solid var(--muted); border-radius: 4px; }
.downloads ul, .chapters ol { padding-left: 1.2rem; }
.downloads ul { display: flex; gap: 1rem; list-style: none; padding: 0; }
.summary { border: 1px solid var(--line); border-radius: 4px; padding: 0 1rem; }
h1 { font-size: clamp(1.6rem, 7vw, 2rem); line-height: 1.25; }
h2 { font-size: 1.3rem; }
table { border-collapse: collapse; }
th, td { text-align: start; vertical-align: top; padding: .25rem .4rem; border-bottom: 1px solid var(--line); }
/* An import's entry column holds ids and URLs without spaces: they break, so the table fits a phone. */
td:nth-child(2) { overflow-wrap: anywhere; }
td button { overflow-wrap: normal; }
`;

export const STYLESHEET = Buffer.from(CSS, 'utf8');
const hash = createHash('sha256').update(STYLESHEET).digest('hex').slice(0, 12);
export const STYLESHEET_FILE = `style.${hash}.css`;
export const STYLESHEET_URL = `/app/assets/${STYLESHEET_FILE}`;

// The transcript page's one script (player-script.ts): the IFrame API protocol, the spoken
// paragraph marked, `#t=`, the find box.
export const PLAYER_SCRIPT = Buffer.from(PLAYER_JS, 'utf8');
export const PLAYER_SCRIPT_FILE = `player.${createHash('sha256').update(PLAYER_SCRIPT).digest('hex').slice(0, 12)}.js`;
export const PLAYER_SCRIPT_URL = `/app/assets/${PLAYER_SCRIPT_FILE}`;

// The channel and playlist pages' script: each `Copy` button (hidden until this runs: without it the
// read-only fields stay selectable) copies its field's feed URL, and a page waiting for the
// crawler's first batch reloads itself every few seconds until it arrives.
const CHANNEL = `'use strict';
(() => {
  for (const button of document.querySelectorAll('button[data-copy]')) {
    const field = document.getElementById(button.getAttribute('data-copy') ?? '');
    if (!(field instanceof HTMLInputElement) || navigator.clipboard === undefined) continue;
    button.hidden = false;
    button.addEventListener('click', () => {
      navigator.clipboard.writeText(field.value).then(() => {
        const done = document.getElementById(button.getAttribute('data-copy') + '-done');
        if (done !== null) done.hidden = false;
      }, () => field.select());
    });
  }
  const waiting = document.querySelector('[data-refresh]');
  if (waiting !== null) setTimeout(() => location.reload(), 1000 * Number(waiting.getAttribute('data-refresh')));
})();
`;

export const CHANNEL_SCRIPT = Buffer.from(CHANNEL, 'utf8');
export const CHANNEL_SCRIPT_FILE = `channel.${createHash('sha256').update(CHANNEL_SCRIPT).digest('hex').slice(0, 12)}.js`;
export const CHANNEL_SCRIPT_URL = `/app/assets/${CHANNEL_SCRIPT_FILE}`;

/** A favicon of ours, so a browser asks for it here instead of a 404 at /favicon.ico. */
export const ICON = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b57d0"/><path d="M4 5h8M4 8h8M4 11h5" stroke="#fff" stroke-width="1.5"/></svg>', 'utf8');
export const ICON_FILE = `icon.${createHash('sha256').update(ICON).digest('hex').slice(0, 12)}.svg`;
export const ICON_URL = `/app/assets/${ICON_FILE}`;
