// GET /status as HTML: a pure function from what the store says (status-data.ts) to one page,
// readable on a phone, that reloads itself every 15 s with a meta refresh (no script at all). Every
// stored text goes through the entities library's escaping; the one <style> carries the response's
// CSP nonce; nothing is loaded from anywhere. Figures carry `data-figure` names so the page test
// can compare each with the store. No key is ever part of the page.

import { escapeUTF8 } from 'entities';
import type { CrawlerHeartbeat } from '../../shared/store/types';
import { shownText } from '../../shared/transcript/shown-text';
import type { ChannelView } from './channel-view';
import { hourlyChart } from './status-chart';
import { STATUS_IMPORT_KEYS, type StatusData } from './status-data';

export const REFRESH_SECONDS = 15;

const esc = (text: string | number | null | undefined): string => escapeUTF8(text === null || text === undefined ? '—' : String(text));

/** `2026-07-01 12:30 UTC` */
export const utc = (d: Date | null): string => (d === null ? '—' : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`);

/** `in 5 min`, `3 min ago`, `now`. */
export function relative(d: Date, now: Date): string {
  const minutes = Math.round((d.getTime() - now.getTime()) / 60_000);
  const abs = Math.abs(minutes);
  const span = abs < 90 ? `${abs} min` : abs < 48 * 60 ? `${Math.round(abs / 60)} h` : `${Math.round(abs / 1440)} d`;
  return minutes === 0 ? 'now' : minutes > 0 ? `in ${span}` : `${span} ago`;
}

export function bytes(n: number | null): string {
  if (n === null) return 'unknown';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

const STATE_TEXT: Record<CrawlerHeartbeat['state'], string> = {
  idle: 'idle',
  listing: 'listing',
  fetching: 'fetching',
  waiting_for_budget: 'waiting for budget',
  cooling_down: 'cooling down',
  blocked: 'blocked',
  stopped: 'stopped',
};

/** What a crawler's row says it is doing; "down" when its heartbeat is too old. */
export function crawlerState(h: CrawlerHeartbeat, down: boolean): string {
  if (down && h.state !== 'stopped') return 'down';
  const text = STATE_TEXT[h.state] ?? h.state;
  return h.until === null ? text : `${text} until ${utc(h.until)}`;
}

const figure = (name: string, value: string | number | null): string => `<span data-figure="${esc(name)}">${esc(value)}</span>`;

function crawlersSection(d: StatusData): string {
  if (d.crawlers.length === 0) return '<p>No crawler has written a heartbeat yet. Is the crawler process running?</p>';
  const rows = d.crawlers.map(({ heartbeat: h, down }) => {
    const proxies = h.proxies.length === 0 ? 'direct' : h.proxies.map((p) => `${esc(p.proxy)}: ${esc(p.state)}`).join('<br>');
    const budget = h.budgetPerHour > 0 ? `${figure(`crawler-requests:${h.owner}`, h.requestsLastHour)} / ${esc(h.budgetPerHour)}` : `${figure(`crawler-requests:${h.owner}`, h.requestsLastHour)} (no limit)`;
    return `<tr class="${down && h.state !== 'stopped' ? 'bad' : ''}">
<td>${esc(h.owner)}</td><td>${figure(`crawler-state:${h.owner}`, crawlerState(h, down))}</td>
<td>${esc(h.channelId)}${h.batch ? ` (batch ${esc(h.batch)})` : ''}</td><td>${budget}</td><td>${proxies}</td>
<td>${esc(h.browserRuns)}</td><td>${esc(h.version)}, since ${esc(utc(h.startedAt))}</td><td>${esc(relative(h.at, d.now))}</td></tr>`;
  });
  return `<div class="scroll"><table><thead><tr><th>crawler</th><th>state</th><th>working on</th><th>requests last hour / budget</th><th>proxies</th><th>browser runs</th><th>version</th><th>heartbeat</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div>`;
}

/** Player clients a crawler left out (a retired version, a client's own fault), with what to change; nothing when none is. */
function leftOutSection(d: StatusData): string {
  const rows = d.crawlers.flatMap(({ heartbeat: h }) => h.playerClientsLeftOut.map((c) => `<tr class="bad"><td>${esc(h.owner)}</td>
<td>${figure(`client-left-out:${h.owner}:${c.client}`, `${c.client} ${c.version}`)}</td><td>${esc(c.why === 'retired' ? 'retired version' : c.why === 'client_fault' ? 'its own fault' : c.why)}<br><small>${esc(c.reason)}</small></td>
<td>${esc(utc(c.since))}</td><td>${esc(c.retryAt === null ? 'not again in this process' : utc(c.retryAt))}</td><td>${esc(c.advice)}</td></tr>`));
  if (rows.length === 0) return '';
  return `<h2>Player clients left out</h2>
<p>The platform answered for these clients, not for the videos: each is left out of its crawler (the next client is asked), no video is failed for it.</p>
<div class="scroll"><table><thead><tr><th>crawler</th><th>client</th><th>why</th><th>since</th><th>asked again</th><th>what to change</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div>`;
}

function queueSection(d: StatusData): string {
  const q = d.queue;
  return `<dl class="figures">
<div><dt>channels</dt><dd>${figure('queue-channels', q.channels)}</dd></div>
<div><dt>running</dt><dd>${figure('queue-running', q.running)}</dd></div>
<div><dt>due now</dt><dd>${figure('queue-due', q.dueNow)}</dd></div>
<div><dt>next due</dt><dd>${figure('queue-next', q.nextDueAt === null ? 'none' : `${utc(q.nextDueAt)} (${relative(q.nextDueAt, d.now)})`)}</dd></div>
</dl>`;
}

/** The summary queue's counts (issue 31); a failed video is tried again after a day. */
function summariesSection(d: StatusData): string {
  const s = d.summaries;
  if (s === undefined) return '';
  return `<h2>Summaries</h2>
<dl class="figures">
<div><dt>made</dt><dd>${figure('summaries-made', s.ready)}</dd></div>
<div><dt>failed</dt><dd>${figure('summaries-failed', s.failed)}</dd></div>
<div><dt>waiting</dt><dd>${figure('summaries-waiting', s.waiting)}</dd></div>
</dl>
<p><small>Language ${esc(s.key.language)}, prompt version ${esc(s.key.promptVersion)}. Failed: the model gave no valid point twice; tried again after a day. None made while <code>SUMMARY_API_URL</code> is unset.</small></p>`;
}

/** Imported channels waiting for their key's hourly allowance, and handles waiting to be resolved, by key label. */
function importsSection(d: StatusData): string {
  if (d.imports.length === 0) return '<p>No imported channel waits.</p>';
  const shown = d.imports.slice(0, STATUS_IMPORT_KEYS);
  const more = d.imports.length > shown.length ? `<p><small>${esc(d.imports.length - shown.length)} more keys not shown.</small></p>` : '';
  return `<div class="scroll"><table data-figure-rows="imports"><thead><tr><th>key</th><th>imported channels waiting</th><th>handles to resolve</th></tr></thead>
<tbody>${shown.map((q) => `<tr><td>${esc(q.label)}</td><td>${esc(q.queued)}</td><td>${esc(q.handles)}</td></tr>`).join('\n')}</tbody></table></div>${more}`;
}

function channelRow(c: ChannelView, now: Date): string {
  const name = c.title ? `${esc(c.title)}<br><small>${esc(c.id)}</small>` : esc(c.id);
  const last = c.last_run === null ? 'never' : `${esc(c.last_run.outcome)} ${esc(relative(new Date(c.last_run.at), now))}${c.last_run.error ? `<br><small>${esc(c.last_run.error)}</small>` : ''}`;
  const coverage = c.coverage.percent === null ? '—' : `${c.coverage.shown}/${c.coverage.window} (${c.coverage.percent}%)`;
  return `<tr class="${c.failures_in_a_row > 0 ? 'bad' : ''}"><td>${name}</td><td>${esc(c.followers)}</td><td>${esc(c.wanted)}</td>
<td>${figure(`channel-ready:${c.id}`, c.videos.ready)}</td><td>${esc(c.videos.no_transcript)}</td><td>${esc(c.videos.failed)}</td><td>${esc(c.videos.unavailable)}</td>
<td>${figure(`channel-coverage:${c.id}`, coverage)}</td><td>${last}</td><td>${figure(`channel-failures:${c.id}`, c.failures_in_a_row)}</td>
<td>${esc(c.running ?? relative(new Date(c.next_due), now))}</td></tr>`;
}

function channelsSection(d: StatusData): string {
  if (d.channels.length === 0) return '<p>No channel is registered yet: ask for a feed and it appears here.</p>';
  const more = d.queue.channels > d.channels.length ? `<p>The ${d.channels.length} with the most failures in a row of ${d.queue.channels}; all of them: <code>GET /admin/channels</code>.</p>` : '';
  return `${more}<div class="scroll"><table><thead><tr><th>channel</th><th>followers</th><th>wanted</th><th>ready</th><th>no transcript</th><th>failed</th><th>unavailable</th><th>window shown</th><th>last run</th><th>failures in a row</th><th>next</th></tr></thead>
<tbody>${d.channels.map((c) => channelRow(c, d.now)).join('\n')}</tbody></table></div>`;
}

function runsSection(d: StatusData): string {
  if (d.runs.length === 0) return '<p>No run has ended yet.</p>';
  const rows = d.runs.map((r) => `<tr class="${r.outcome === 'ok' || r.outcome === 'stopped' ? '' : 'bad'}"><td>${esc(utc(r.endedAt))}</td><td>${esc(r.channelId)}</td><td>${esc(r.owner)}</td>
<td>${esc(r.outcome)}</td><td>${esc(r.stored)}</td><td>${esc(Math.round((r.endedAt.getTime() - r.startedAt.getTime()) / 1000))} s</td><td>${r.error === null ? '' : esc(r.error)}</td></tr>`);
  return `<div class="scroll"><table data-figure-rows="runs"><thead><tr><th>ended</th><th>channel</th><th>crawler</th><th>outcome</th><th>stored</th><th>took</th><th>error</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div>`;
}

function storeSection(d: StatusData): string {
  const s = d.size;
  return `<dl class="figures">
<div><dt>backend</dt><dd>${esc(d.storeKind)}</dd></div>
<div><dt>channels</dt><dd>${figure('store-channels', s.channels)}</dd></div>
<div><dt>videos</dt><dd>${figure('store-videos', s.videos)}</dd></div>
<div><dt>transcripts</dt><dd>${figure('store-transcripts', s.transcripts)}</dd></div>
<div><dt>size</dt><dd>${figure('store-bytes', bytes(s.bytes))}</dd></div>
</dl>`;
}

const STYLE = `
body{font:15px/1.4 system-ui,sans-serif;margin:0 auto;padding:0 .8em 2em;max-width:78em;color:#222;background:#fff}
h1{font-size:1.3em;margin:.6em 0 .2em}h2{font-size:1.1em;margin:1.4em 0 .4em;border-bottom:1px solid #ddd}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:.9em}
th,td{text-align:left;padding:.3em .5em;border-bottom:1px solid #eee;vertical-align:top}th{background:#f6f6f6}
tr.bad td{background:#fff1f0}small{color:#666}
.figures{display:flex;flex-wrap:wrap;gap:.5em 1.5em;margin:0}.figures dt{color:#666;font-size:.85em}.figures dd{margin:0;font-size:1.2em}
svg{max-width:100%;height:auto}.bar-v{fill:#3b7dd8}.bar-r{fill:#d8893b}.axis{stroke:#999}.label{font-size:10px;fill:#555}
@media (prefers-color-scheme:dark){body{background:#111;color:#ddd}th{background:#222}th,td{border-color:#333}tr.bad td{background:#3a1d1d}.label{fill:#aaa}}
`;

/**
 * The page, without what no text may show (shownText): dropped from the finished page, which is safe
 * because every text in it was escaped (`&`, `<`, `>`, quotes), so dropping a character joins no markup.
 */
export function renderStatusPage(d: StatusData, nonce: string): string {
  return shownText(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${REFRESH_SECONDS}">
<meta name="referrer" content="no-referrer">
<title>transcript-feed status</title>
<style nonce="${esc(nonce)}">${STYLE}</style></head>
<body>
<h1>transcript-feed status</h1>
<p><small>${esc(utc(d.now))} · version ${esc(d.version)} · reloads every ${REFRESH_SECONDS} s</small></p>
<h2>Crawlers, budget and cool-down</h2>
${crawlersSection(d)}
${leftOutSection(d)}
<h2>Queue</h2>
${queueSection(d)}
${summariesSection(d)}
<h2>Imports waiting</h2>
${importsSection(d)}
<h2>Last 24 hours</h2>
${hourlyChart(d.hourly, d.now)}
<h2>Channels</h2>
${channelsSection(d)}
<h2>Last ${d.runs.length} runs</h2>
${runsSection(d)}
<h2>Store</h2>
${storeSection(d)}
</body></html>
`);
}
