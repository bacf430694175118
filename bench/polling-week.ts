// One simulated week of 1,000 followed channels on a simulated clock (minute steps, no real time
// passes): how many listing requests an hour each way of learning of uploads costs, how long an
// upload waits to become a stored entry, and whether every upload of the week is stored at the
// default budget of 500 requests an hour. Three ways in the same run, on the same uploads:
//   * cron (the baseline, the service before rhythm polling): every channel due every 30 minutes;
//   * rhythm polling: the crawler's own rhythmIntervalMs and ListingShare (half the budget);
//   * push: every channel subscribed; the hub pings each upload, the video is fetched without a
//     listing (the crawler's pushedRetryAt when the ping came before the video was ready), one
//     safety listing a day per channel (WEBSUB_SAFETY_POLL).
// The crawler is modelled, not run: one claim at a time, a run lists (1 request) and fetches each
// new upload (player + timed text, 2 requests) before the next claim, at most 4 requests a minute
// (the gentle profile's 10–20 s between requests) and CRAWL_REQUESTS_PER_HOUR in any hour.

import { ListingShare, listingShareOf } from '../crawler/listing-share';
import { pushedRetryAt } from '../shared/push-schedule';
import { DEFAULT_LISTING_BOUNDS, rhythmIntervalMs } from '../crawler/rhythm';
import { makeRng, type Rng } from '../test/support/random';
import { median, percentile, runStandalone } from './support';
import type { BenchSection } from './types';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
/** After the week, the simulation goes on this long (uploads too) to see when the week's last uploads are stored. */
const AFTER = DAY;
const CHANNELS = 1000;
const BUDGET = 500;
/** A run's first request goes at once; the gentle profile waits 10–20 s before each further one. */
const FIRST_REQUEST_MS = 1000;
const PACED_REQUEST_MS = 15_000;
const SAFETY_POLL = DAY;
const CRON_MS = 30 * MIN;

type Mode = 'cron' | 'rhythm' | 'push';

/** The simulation counts from the week's start; the crawler's rule sees real dates (an unknown one is 0). */
const WEEK_START = Date.UTC(2026, 10, 2);
const rhythmAt = (known: readonly number[], now: number, foundNew = false): number =>
  rhythmIntervalMs(known.map((t) => WEEK_START + t), WEEK_START + now, DEFAULT_LISTING_BOUNDS, foundNew);

interface Upload {
  channel: number;
  publishedMs: number;
  /** When the hub's ping arrives; null = lost. Before publishedMs when the ping came before the page was ready. */
  pingMs: number | null;
  storedMs: number | null;
}

interface Channel {
  /** Known publish dates (the stored ones), newest last. */
  known: number[];
  dueMs: number;
  uploads: Upload[];
}

/** Log-normal with the given mean and σ (of the log). */
function logNormal(rng: Rng, mean: number, sigma: number): number {
  const u = Math.max(rng(), 1e-12);
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
  return mean * Math.exp(sigma * z - (sigma * sigma) / 2);
}

/** A few daily, most weekly, some monthly, each with its own jitter (σ 0.6 of the log). */
function meanGapOf(rng: Rng): number {
  const r = rng();
  if (r < 0.05) return DAY;
  if (r < 0.75) return WEEK;
  return 30 * DAY;
}

function makeWorld(seed: string): { channels: Channel[]; uploads: Upload[] } {
  const rng = makeRng(seed);
  const channels: Channel[] = [];
  const uploads: Upload[] = [];
  for (let c = 0; c < CHANNELS; c++) {
    const mean = meanGapOf(rng);
    const ch: Channel = { known: [], dueMs: 0, uploads: [] };
    // History: enough uploads before the week to read a rhythm from (the stored ones).
    let t = -Math.min(mean * 14, 400 * DAY) * (0.9 + 0.2 * rng());
    while (t < WEEK + AFTER) {
      t += logNormal(rng, mean, 0.6);
      if (t < 0) {
        ch.known.push(t);
        continue;
      }
      if (t >= WEEK + AFTER) break;
      // The hub: most pings within a couple of minutes; 5 % before the page is ready; 2 % lost.
      const p = rng();
      const pingMs = p < 0.02 ? null : p < 0.07 ? t - (1 + 29 * rng()) * MIN : t + Math.min(logNormal(rng, MIN, 0.8), 15 * MIN);
      const u: Upload = { channel: c, publishedMs: t, pingMs, storedMs: null };
      ch.uploads.push(u);
      uploads.push(u);
    }
    ch.known = ch.known.slice(-15);
    channels.push(ch);
  }
  return { channels, uploads };
}

interface WeekResult {
  listingsPerHour: number;
  delaysMs: number[];
  storedInWeek: number;
  storedByEnd: number;
  total: number;
  requestsPerHour: number;
}

function simulate(mode: Mode, seed: string): WeekResult {
  const { channels, uploads } = makeWorld(seed);
  const rng = makeRng(`${seed}:${mode}`);
  let now = 0;
  const share = new ListingShare(mode === 'cron' ? 0 : listingShareOf(BUDGET), () => now);
  const sentAt: number[] = [];
  let listings = 0;
  let requests = 0;
  /** Time already spent beyond the previous minute (negative = carried into this one). */
  let busy = 0;
  // Pushed videos due: [due time, upload, attempts].
  const pushed: { dueMs: number; upload: Upload; attempts: number }[] = [];
  const pings = uploads.filter((u) => u.pingMs !== null).sort((a, b) => a.pingMs! - b.pingMs!);
  let nextPing = 0;

  for (const ch of channels) {
    ch.dueMs =
      mode === 'push' ? rng() * SAFETY_POLL : mode === 'cron' ? 0 : rng() * rhythmAt(ch.known, 0);
  }

  const store = (u: Upload): void => {
    if (u.storedMs !== null) return;
    u.storedMs = now;
    channels[u.channel]!.known.push(u.publishedMs);
  };
  const roomInBudget = (): boolean => {
    while (sentAt.length > 0 && sentAt[0]! <= now - HOUR) sentAt.shift();
    return sentAt.length < BUDGET;
  };

  for (now = 0; now < WEEK + AFTER; now += MIN) {
    if (mode === 'cron' && now % CRON_MS === 0) for (const ch of channels) ch.dueMs = Math.min(ch.dueMs, now);
    if (mode === 'push') {
      for (; nextPing < pings.length && pings[nextPing]!.pingMs! <= now; nextPing++) {
        const u = pings[nextPing]!;
        // A ping for a stored video (an edit, a replay) costs nothing.
        if (u.storedMs === null) pushed.push({ dueMs: now, upload: u, attempts: 0 });
      }
    }
    // Time the crawler has in this minute: one run after the other, requests within a run paced.
    let capacity = MIN + Math.min(0, busy);
    const send = (paced = true): boolean => {
      if (capacity <= 0 || !roomInBudget()) return false;
      capacity -= paced ? PACED_REQUEST_MS : FIRST_REQUEST_MS;
      requests += 1;
      sentAt.push(now);
      return true;
    };
    // Pushed videos first (they are the cheapest news), then listings, most overdue first.
    pushed.sort((a, b) => a.dueMs - b.dueMs);
    while (pushed.length > 0 && pushed[0]!.dueMs <= now && capacity > 0) {
      const item = pushed[0]!;
      if (item.upload.storedMs !== null) {
        pushed.shift();
        continue;
      }
      if (!send(false)) break;
      pushed.shift();
      item.attempts += 1;
      if (item.upload.publishedMs <= now) {
        send();
        store(item.upload);
      } else {
        const at = pushedRetryAt(item.attempts, now);
        if (at !== null) pushed.push({ dueMs: at, upload: item.upload, attempts: item.attempts });
      }
    }
    const due = channels.filter((ch) => ch.dueMs <= now).sort((a, b) => a.dueMs - b.dueMs);
    for (const ch of due) {
      if (capacity <= 0 || !share.hasRoom() || !send(false)) break;
      share.note();
      listings += 1;
      const found = ch.uploads.filter((u) => u.publishedMs <= now && u.storedMs === null);
      for (const u of found) {
        if (!send()) break;
        send();
        store(u);
      }
      ch.dueMs =
        mode === 'cron' ? now + CRON_MS : mode === 'push' ? now + SAFETY_POLL : now + rhythmAt(ch.known, now, found.length > 0);
    }
    busy = Math.min(0, capacity);
  }
  const week = uploads.filter((u) => u.publishedMs < WEEK);
  return {
    listingsPerHour: listings / ((WEEK + AFTER) / HOUR),
    delaysMs: week.filter((u) => u.storedMs !== null).map((u) => u.storedMs! - u.publishedMs),
    storedInWeek: week.filter((u) => u.storedMs !== null && u.storedMs < WEEK).length,
    storedByEnd: week.filter((u) => u.storedMs !== null).length,
    total: week.length,
    requestsPerHour: requests / ((WEEK + AFTER) / HOUR),
  };
}

/** The cron's demand: every channel twice an hour, whatever the budget lets through. */
const CRON_DEMAND = CHANNELS * (HOUR / CRON_MS);

export default async function pollingWeek(): Promise<BenchSection> {
  const seed = 'polling-week';
  const cron = simulate('cron', seed);
  const rhythm = simulate('rhythm', seed);
  const push = simulate('push', seed);
  const h = (ms: number): number => ms / HOUR;
  const m = (ms: number): number => ms / MIN;
  const allStored = (r: WeekResult): boolean => r.storedByEnd === r.total;
  return {
    title: 'Following 1,000 channels for one simulated week (budget 500 requests/hour)',
    rows: [
      {
        metric: 'listing requests per hour, rhythm polling (lower is better)', readme: 'listings/hour, polling', value: rhythm.listingsPerHour, unit: '/h',
        baseline: { label: 'the 30-minute cron asks', value: CRON_DEMAND }, ratio: rhythm.listingsPerHour / CRON_DEMAND, target: '<= 150 on average', met: rhythm.listingsPerHour <= 150,
      },
      {
        metric: 'listing requests per hour, push (lower is better)', readme: 'listings/hour, push', value: push.listingsPerHour, unit: '/h',
        baseline: { label: 'the 30-minute cron asks', value: CRON_DEMAND }, ratio: push.listingsPerHour / CRON_DEMAND, target: '<= 45 on average', met: push.listingsPerHour <= 45,
      },
      {
        metric: 'upload → stored entry, polling, median', readme: 'upload to entry, polling median', value: h(median(rhythm.delaysMs)), unit: 'h',
        baseline: { label: 'cron within the budget', value: h(median(cron.delaysMs)) }, target: '<= 3 h', met: h(median(rhythm.delaysMs)) <= 3,
      },
      {
        metric: 'upload → stored entry, push, p95', readme: 'upload to entry, push p95', value: m(percentile(push.delaysMs, 95)), unit: 'min',
        baseline: { label: 'cron within the budget', value: m(percentile(cron.delaysMs, 95)) }, target: '<= 5 min', met: m(percentile(push.delaysMs, 95)) <= 5,
      },
      {
        metric: 'uploads of the week stored, polling', readme: 'week\'s uploads stored, polling', value: rhythm.storedByEnd, unit: `of ${rhythm.total.toLocaleString('en-US')}`,
        baseline: { label: 'cron within the budget', value: cron.storedByEnd }, target: 'all', met: allStored(rhythm),
      },
      {
        metric: 'uploads of the week stored, push', readme: 'week\'s uploads stored, push', value: push.storedByEnd, unit: `of ${push.total.toLocaleString('en-US')}`,
        target: 'all', met: allStored(push),
      },
    ],
    notes: [
      `simulated clock, minute steps; ${CHANNELS} channels, upload gaps log-normal (σ 0.6) around a mean of 1 day (5 %), 1 week (70 %) or 30 days (25 %), each channel with its history stored; ` +
        `the hub's pings arrive log-normal around 1 min after the upload, 5 % up to 30 min before the video is ready, 2 % lost; ` +
        `crawler modelled: one run at a time, a listing is 1 request, a new video 2, a run's first request at once and each further one 10–20 s later (gentle profile) and ${BUDGET} in any hour; ` +
        `"stored" counts the week's uploads stored by one day after its end (the longest listing interval; in the week itself: cron ${cron.storedInWeek}, polling ${rhythm.storedInWeek}, push ${push.storedInWeek}); ` +
        `platform requests per hour in all: cron ${cron.requestsPerHour.toFixed(0)}, polling ${rhythm.requestsPerHour.toFixed(0)}, push ${push.requestsPerHour.toFixed(0)}; ` +
        `the cron's own listings within the budget: ${cron.listingsPerHour.toFixed(0)}/h`,
    ],
  };
}

if (require.main === module) runStandalone(pollingWeek);
