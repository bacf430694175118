// The status page's chart: videos stored and platform requests per hour over the last 24 hours, as
// inline SVG (part of the document: nothing to load, nothing a CSP must allow). Two rows of bars,
// each scaled to its own largest hour; every bar has a <title> with its hour and figure.

import { escapeUTF8 } from 'entities';
import type { HourlyCounts } from '../../shared/store/types';

export const CHART_HOURS = 24;
const HOUR_MS = 3_600_000;
const W = 480;
const BAR = W / CHART_HOURS;
const ROW = 60;

/** The 24 UTC hours ending with the one holding `now`, oldest first, with zero for hours without counts. */
export function lastDay(hourly: readonly HourlyCounts[], now: Date): HourlyCounts[] {
  const current = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const byHour = new Map(hourly.map((h) => [h.hour.getTime(), h]));
  return Array.from({ length: CHART_HOURS }, (_, i) => {
    const hour = current - (CHART_HOURS - 1 - i) * HOUR_MS;
    return byHour.get(hour) ?? { hour: new Date(hour), videosStored: 0, platformRequests: 0 };
  });
}

function row(hours: HourlyCounts[], pick: (h: HourlyCounts) => number, top: number, cls: string, what: string): string {
  const max = Math.max(1, ...hours.map(pick));
  const bars = hours.map((h, i) => {
    const v = pick(h);
    const height = Math.round(((ROW - 14) * v) / max);
    const label = `${h.hour.toISOString().slice(11, 13)}:00 UTC: ${v} ${what}`;
    return `<rect class="${cls}" x="${(i * BAR + 1).toFixed(1)}" y="${top + ROW - height}" width="${(BAR - 2).toFixed(1)}" height="${height}"><title>${escapeUTF8(label)}</title></rect>`;
  });
  return `<text class="label" x="0" y="${top + 10}">${escapeUTF8(`${what} per hour (most: ${Math.max(0, ...hours.map(pick))})`)}</text>
<line class="axis" x1="0" x2="${W}" y1="${top + ROW}" y2="${top + ROW}"/>
${bars.join('')}`;
}

export function hourlyChart(hourly: readonly HourlyCounts[], now: Date): string {
  const hours = lastDay(hourly, now);
  const total = (pick: (h: HourlyCounts) => number): number => hours.reduce((n, h) => n + pick(h), 0);
  return `<svg viewBox="0 0 ${W} ${2 * ROW + 30}" width="${W}" height="${2 * ROW + 30}" role="img" aria-label="videos stored and platform requests per hour, last 24 hours">
${row(hours, (h) => h.videosStored, 0, 'bar-v', 'videos stored')}
${row(hours, (h) => h.platformRequests, ROW + 16, 'bar-r', 'platform requests')}
</svg>
<p><small>Last 24 hours: <span data-figure="day-videos">${total((h) => h.videosStored)}</span> videos stored,
<span data-figure="day-requests">${total((h) => h.platformRequests)}</span> platform requests.</small></p>`;
}
