// Platform client benchmark against the fake platform (real HTTP on loopback, strict app identity
// on): what a steady-state crawl costs in platform requests (per new video, and to learn that a
// channel has nothing new) and in bytes downloaded per new video (player, date and visitor_id
// answers; the listing and the timed-text body left out), read from the fake's own counters; the
// date of an undated video beside what the watch page costs for it; and how long parsing +
// building a one-hour transcript takes on the service's own path (plain XML → spoken cues →
// buildTranscript: paragraphs and chapters → renderTranscriptHtml), beside a bare JSON.parse of the
// same transcript as json3 measured in the same run.
// Run alone: `npx tsx bench/platform.ts`.

import { SETTINGS } from '../shared/config/settings';
import { silentLogger } from '../shared/logger';
import { createPlatformClient } from '../shared/platform';
import { spokenCues } from '../shared/transcript/timedtext';
import { buildTranscript } from '../shared/transcript/build';
import { renderTranscriptHtml } from '../shared/transcript/html';
import { generateCues, makeChannel, startFakePlatform, type FakeCue } from '../test/fake-platform';
import { json3Transcript, plainTranscript } from '../test/fake-platform/timedtext';
import type { Benchmark, BenchSection } from './types';
import { median, round, runStandalone } from './support';

const NEW_VIDEOS = 10;
const HOUR_CUES = 1500;
const RUNS = 300;


/** About an hour of speech: generated talks back to back, with their pauses and quirks. */
export function hourOfCues(count = HOUR_CUES): FakeCue[] {
  const out: FakeCue[] = [];
  let offset = 0;
  for (let talk = 0; out.length < count; talk++) {
    const cues = generateCues(`bench-hour-${talk}`);
    for (const c of cues) out.push({ ...c, start: round(c.start + offset, 3) });
    const last = cues[cues.length - 1]!;
    offset += last.start + (last.dur ?? 2) + 2;
  }
  return out.slice(0, count);
}

function timeMs(fn: () => unknown, runs: number): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(samples);
}

interface Costs {
  refreshTotal: number;
  listingNew: number;
  listingUnchanged: number;
  transcripts: number;
  /** Requests of the steady-state refresh per new video, listing and visitor_id included. */
  perVideo: number;
  /** visitor_id calls of the whole session (first crawl and refresh): amortised over every video. */
  visitorCalls: number;
  /** Bytes per new video of player + visitor_id answers (no listing, no timed-text body). */
  bytesPerVideo: number;
  /** The same for videos the listing did not date: player + date call + visitor_id. */
  undatedBytesPerVideo: number;
  /** The watch page the date used to come from, per video. */
  watchPageBytes: number;
  /** Requests per new made-for-kids video: VISIONOS's refusal, the embed page, the embedded player, timed text. */
  kidsPerVideo: number;
  /** How many of a kids refresh's requests were embed pages, per video. */
  kidsEmbedPages: number;
}

/** The default PLAYER_CLIENTS, as an operator who set nothing gets them. */
const playerClients = SETTINGS.playerClients.parse(SETTINGS.playerClients.default!);

async function requestCosts(): Promise<Costs> {
  const channel = makeChannel({ handle: 'benchchannel', count: 40, seed: 1, captionsMix: { manual: 0.6, automatic: 0.4 } });
  const fake = await startFakePlatform({ channels: [channel] });
  fake.scenario.strictIdentity(true);
  try {
    const client = createPlatformClient(
      { platformBaseUrl: fake.url, transcriptLanguages: ['en'], playerClients, platformTimeoutMs: 10_000 },
      silentLogger(),
    );
    // The first crawl: the channel's newest 10 with their transcripts.
    const first = await client.listVideos(channel.channelId, 10);
    const known = new Set(first.videos.map((v) => v.videoId));
    for (const v of first.videos) await client.fetchTranscript(v.videoId);

    // Steady state: new uploads arrive; one refresh lists the channel and fetches only what is new.
    for (let i = 0; i < NEW_VIDEOS; i++) fake.addUpload(channel.channelId, { captions: i % 2 ? 'automatic' : 'manual' });
    const sessionStart = fake.counters.visitorId;
    fake.resetCounters();
    const listing = await client.listVideos(channel.channelId, 15);
    const listingNew = fake.counters.total;
    const fresh = listing.videos.filter((v) => !known.has(v.videoId));
    for (const v of fresh) await client.fetchTranscript(v.videoId);
    const transcripts = fake.counters.player + fake.counters.timedtext;
    const refreshTotal = fake.counters.total;
    const bytesPerVideo = (fake.bytes.player + fake.bytes.visitorId) / fresh.length;
    if (fresh.length !== NEW_VIDEOS) throw new Error(`expected ${NEW_VIDEOS} new videos in the listing, got ${fresh.length}`);
    const visitorCalls = fake.counters.visitorId;

    // Nothing new: the refresh must learn that from the listing alone.
    fake.resetCounters();
    await client.listVideos(channel.channelId, 15);
    const listingUnchanged = fake.counters.total;

    // Videos listed without a date (browse, during a feed outage): the field-masked WEB player call
    // dates them; the watch page, the old way, is fetched afterwards only to weigh it.
    fake.scenario.feedOutage(500);
    const uploads = new Set(Array.from({ length: 3 }, () => fake.addUpload(channel.channelId, { captions: 'manual' }).videoId));
    const deep = await client.listVideos(channel.channelId, 25);
    const undated = deep.videos.filter((v) => v.publishedAt === null && uploads.has(v.videoId));
    if (undated.length !== 3) throw new Error(`expected 3 undated new videos, got ${undated.length}`);
    fake.resetCounters();
    for (const v of undated) {
      await client.fetchTranscript(v.videoId);
      if ((await client.fetchPublishedAt(v.videoId)) === null) throw new Error(`no date for ${v.videoId}`);
    }
    const undatedBytesPerVideo = (fake.bytes.player + fake.bytes.visitorId) / undated.length;
    fake.resetCounters();
    for (const v of undated) await fetch(`${fake.url}/watch?v=${v.videoId}`, { headers: { 'accept-encoding': 'gzip' } }).then((r) => r.arrayBuffer());
    const watchPageBytes = fake.bytes.watch / undated.length;

    // A made-for-kids channel's refresh: VISIONOS refuses each new video, the made-for-kids
    // fallback (the embed page, then the embedded player) serves it.
    fake.scenario.feedOutage(null);
    const kids = fake.addChannel(makeChannel({ handle: 'benchkids', count: 10, seed: 2, captionsMix: { manual: 1 } }));
    await client.listVideos(kids.channelId, 10);
    for (let i = 0; i < NEW_VIDEOS; i++) fake.addUpload(kids.channelId, { captions: 'manual', madeForKids: true });
    fake.resetCounters();
    const kidsListing = await client.listVideos(kids.channelId, 15);
    const kidsFresh = kidsListing.videos.filter((v) => Date.now() - (v.publishedAt?.getTime() ?? 0) < 3_600_000);
    if (kidsFresh.length !== NEW_VIDEOS) throw new Error(`expected ${NEW_VIDEOS} new kids videos, got ${kidsFresh.length}`);
    for (const v of kidsFresh) await client.fetchTranscript(v.videoId);
    const kidsPerVideo = fake.counters.total / kidsFresh.length;
    const kidsEmbedPages = fake.counters.embed / kidsFresh.length;
    return {
      kidsPerVideo, kidsEmbedPages,
      refreshTotal, listingNew, listingUnchanged, transcripts: transcripts / fresh.length,
      perVideo: refreshTotal / fresh.length, visitorCalls: visitorCalls + sessionStart,
      bytesPerVideo, undatedBytesPerVideo, watchPageBytes,
    };
  } finally {
    await fake.close();
  }
}

const platformBenchmark: Benchmark = async (): Promise<BenchSection> => {
  const costs = await requestCosts();

  const cues = hourOfCues();
  const plain = plainTranscript(cues);
  const json3 = JSON.stringify(json3Transcript(cues, false));
  // What a transcript costs from timed-text answer to feed HTML: the crawler keeps the spoken cues
  // and builds the stored paragraphs, a feed renders them (no description here, so no chapters:
  // the paragraphs and the HTML are the cost measured).
  const facts = { videoId: 'benchhour01', language: 'en', kind: 'manual' as const, description: null, durationSeconds: null };
  const build = () => buildTranscript(spokenCues(plain), facts);
  const render = () => renderTranscriptHtml(build());
  // Warm both paths up so the medians compare compiled code.
  timeMs(render, 30);
  timeMs(() => JSON.parse(json3), 30);
  const parseRender = timeMs(render, RUNS);
  const bareJson = timeMs(() => JSON.parse(json3), RUNS);
  const paragraphs = build().paragraphs.length;

  return {
    title: 'Platform client (fake platform over loopback)',
    rows: [
      {
        metric: `platform requests of a refresh that finds ${NEW_VIDEOS} new videos (listing + transcripts)`,
        value: costs.refreshTotal, unit: 'requests',
        target: `<= 2 per video + 1 listing = ${2 * NEW_VIDEOS + 1}`, met: costs.refreshTotal <= 2 * NEW_VIDEOS + 1,
      },
      {
        metric: 'transcript requests per new video (player + timed text)',
        value: round(costs.transcripts, 2), unit: 'requests', target: '2', met: costs.transcripts <= 2,
      },
      {
        metric: 'platform requests per new video in steady state (listing and visitor_id amortised)',
        value: round(costs.perVideo, 2), unit: 'requests', target: '<= 2.1', met: costs.perVideo <= 2.1,
      },
      {
        metric: 'bytes downloaded per new video, dated by the feed (player + visitor_id answers; no listing, no timed-text body)',
        value: Math.round(costs.bytesPerVideo), unit: 'bytes', target: '<= 10 KB', met: costs.bytesPerVideo <= 10 * 1024,
      },
      {
        metric: 'bytes downloaded per new video listed undated (player + field-masked WEB date call + visitor_id)',
        value: Math.round(costs.undatedBytesPerVideo), unit: 'bytes',
        baseline: { label: 'the watch page the date used to come from (same video, gzip)', value: Math.round(costs.watchPageBytes) },
        ratio: round(costs.undatedBytesPerVideo / costs.watchPageBytes, 3),
        target: '<= 10 KB', met: costs.undatedBytesPerVideo <= 10 * 1024,
      },
      {
        metric: `platform requests per new made-for-kids video in steady state (a kids channel's refresh of ${NEW_VIDEOS}: listing amortised; VISIONOS refuses, the embed page and the embedded player serve)`,
        value: round(costs.kidsPerVideo, 2), unit: 'requests', target: '<= 4 per video + listing + the embedded player\'s first visitor_id = 4.2', met: costs.kidsPerVideo <= 4.2,
      },
      {
        metric: 'listing requests, channel with new uploads (<= 15 wanted)',
        value: costs.listingNew, unit: 'requests', target: '1', met: costs.listingNew === 1,
      },
      {
        metric: 'listing requests to learn an unchanged channel has nothing new',
        value: costs.listingUnchanged, unit: 'requests', target: '<= 1', met: costs.listingUnchanged <= 1,
      },
      {
        metric: `parse + build (paragraphs + HTML) one-hour transcript (${cues.length} cues, ${Math.round(plain.length / 1024)} KB plain XML), median of ${RUNS}`,
        value: round(parseRender, 3), unit: 'ms',
        baseline: { label: `bare JSON.parse of the same transcript as json3 (${Math.round(json3.length / 1024)} KB)`, value: round(bareJson, 3) },
        ratio: round(parseRender / bareJson, 2),
        target: '< 10 ms', met: parseRender < 10,
      },
    ],
    notes: [
      `the one-hour transcript renders to ${paragraphs} paragraphs; the ratio is parse+build time over the bare JSON.parse (lower is better)`,
      'request counts and bytes come from the fake platform\'s per-endpoint counters (bytes as sent, gzip), not from the client',
      `default PLAYER_CLIENTS with strict app identity; ${costs.visitorCalls} visitor_id call(s) served the whole session (first crawl and refresh)`,
      `made-for-kids videos cost 2 requests more than others (${round(costs.kidsEmbedPages, 2)} embed page and one more player call per video): a channel whose uploads are all made for kids pays that on each, a mixed one only on those`,
      'the fake\'s watch page is a small stand-in (a few KB); the real one is about 1 MB of HTML (docs/crawler.md §2), so the real saving of the date call is far larger than the ratio shown',
    ],
  };
};

export default platformBenchmark;

if (require.main === module) runStandalone(platformBenchmark);
