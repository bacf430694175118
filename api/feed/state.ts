// The feed step between the route and the renderers: the typed feed model both renderers read,
// the feed state (version, count, fingerprint) that decides whether anything must be listed or
// rendered, and the validators of conditional GET (the 304 decision is the shared answer tail's,
// api/http/feed-answer.ts). Everything remembered here lives in the app's one bounded cache
// (api/cache.ts).
//
// Feed state: the channel's feed version (newest stored change, one indexed read), how many
// entries the feed has and a fingerprint of which entries (ids and write times). Count and
// fingerprint per (channel, max_items) are remembered with the version they were taken at, so a
// cache-warm request reads one number from the store instead of every transcript. A new version (a
// stored batch) makes the next request list again; a short TTL bounds anything a version cannot
// see (an older entry rewritten), and since the fingerprint enters the ETag, such a change still
// reaches clients.

import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isVideoId } from '../../shared/ids';
import { DEFAULT_FEED_KINDS } from '../../shared/store/rules';
import type { FeedKind, TranscriptRecord, VideoRecord, FeedReadStore } from '../../shared/store/types';
import { shownText } from '../../shared/transcript/shown-text';
import { summaryOf } from '../../shared/transcript/summary';
import { ApiCache, type CacheSlot } from '../cache';
import { FEED_TITLE_PREFIX } from '../service-info';
import { SingleFlight } from '../single-flight';
import { PUBLIC_VIDEO_HOST, watchUrl } from '../../shared/video-links';
import { chosenTranscript, entryContent } from './transcript-choice';
import type { SummaryMode } from '../query/feed-query';
import { summaryPlainText } from '../../shared/summary/render';
import { contentWithSummary, type FeedSummaries } from './summaries';
import { remembered } from '../../shared/ttl-memo';

// ── the model ──────────────────────────────────────────────────────────────

export interface FeedEntry {
  readonly videoId: string;
  readonly title: string;
  /** https://youtube.com/watch?v=<id> */
  readonly link: string;
  /** Transcript HTML (or the one-line note for a video without captions). */
  readonly html: string;
  readonly published: Date;
  /** Atom entry `updated`: the publish time, so re-crawls never make readers resurface entries. */
  readonly updated: Date;
  /** https://i.ytimg.com/vi/<id>/hqdefault.jpg (480×360, present for every video). */
  readonly thumbnail: string;
  /** Short plain text from the video's description; null when none is stored. */
  readonly summary: string | null;
  /** Length of the video; null when not stored (records from before it was). */
  readonly durationSeconds: number | null;
  /** The entry's own author (search feeds mix channels: the channel's name); left out in channel feeds. */
  readonly author?: string;
  /**
   * The language of the shown transcript (BCP 47, a translation's target), for Atom content
   * xml:lang, RSS dc:language and JSON Feed `language`; null or left out when not known (the "no
   * transcript" note, a search excerpt): the feed's own `en` then stands.
   */
  readonly language?: string | null;
  /** The shown transcript as a WebVTT file (RSS podcast:transcript, JSON Feed attachment); null when none is stored. */
  readonly transcriptFile?: { readonly url: string; readonly language: string } | null;
}

export interface FeedModel {
  readonly channelId: string;
  /**
   * Whether RSS declares the Dublin Core namespace (an entry has its own author or language); left
   * out: decided from `entries`. A feed rendered in steps (render-in-steps.ts) decides it for all.
   */
  readonly dublinCore?: boolean;
  /** The feed's id when it is not a channel's (a search feed: its self link without the key). */
  readonly id?: string;
  /** "<prefix> - <channel id>" (spec). */
  readonly title: string;
  /** Channel title when the crawler has seen it, else the channel id (Atom author/name). */
  readonly author: string;
  /** One line naming the channel (Atom subtitle, RSS and JSON Feed description). */
  readonly description: string;
  /** Newest stored change of the feed (feedVersion). */
  readonly updated: Date;
  /** https://youtube.com/channel/<id> */
  readonly link: string;
  /** This request's own URL without its api_key parameter (link rel="self"). */
  readonly selfUrl: string;
  /** Newest first. */
  readonly entries: readonly FeedEntry[];
}

/** Content of an entry whose video was given up as having no captions (state no_transcript). */
export const NO_TRANSCRIPT_NOTE = '<p>No transcript is available for this video.</p>';

export interface ModelInput {
  channelId: string;
  channelTitle: string | null;
  /** Newest first, as listFeedEntries returns them. */
  videos: readonly VideoRecord[];
  /** feedVersion: newest stored change. */
  updated: Date;
  selfUrl: string;
  /** Their stored transcripts per language (none for records from before they were stored). */
  transcripts?: readonly TranscriptRecord[];
  /** `lang`: the reader's languages in order; null/left out = the crawler's choice. */
  languages?: readonly string[] | null;
  /** The URL of a video's transcript file (.vtt) for the reader; left out = entries link no file. */
  transcriptFileUrl?: (videoId: string) => string;
  /** `summary` and the stored summaries (feed/summaries.ts); left out = none shown. */
  summaryMode?: SummaryMode;
  summaries?: FeedSummaries;
}

/** What makes a stored record unrenderable; the record is skipped, the same way in every format. */
export type SkipReason = 'video id' | 'published date';

const validDate = (d: unknown): d is Date => d instanceof Date && !Number.isNaN(d.getTime());

/**
 * Stored records → the feed model. The only place that knows how a store record maps to an entry.
 * A record that cannot be rendered (an id that is not a platform video id, a corrupt date) is left
 * out and reported through `onSkip`, so one bad row never breaks the whole document.
 */
export function buildFeedModel(input: ModelInput, onSkip?: (video: VideoRecord, reason: SkipReason) => void): FeedModel {
  const byVideo = new Map<string, TranscriptRecord[]>();
  for (const t of input.transcripts ?? []) byVideo.set(t.videoId, [...(byVideo.get(t.videoId) ?? []), t]);
  const entries: FeedEntry[] = [];
  for (const v of input.videos) {
    const reason: SkipReason | null = typeof v.videoId !== 'string' || !isVideoId(v.videoId) ? 'video id' : !validDate(v.publishedAt) ? 'published date' : null;
    if (reason !== null) {
      onSkip?.(v, reason);
      continue;
    }
    const rows = byVideo.get(v.videoId) ?? [];
    const file = v.state === 'ready' && input.transcriptFileUrl ? chosenTranscript(v, rows, input.languages ?? null) : null;
    const content = entryContent(v, rows, input.languages ?? null);
    const stored = input.summaries?.byVideo.get(v.videoId);
    // The content shows it only when `summary=` asks; the plain-text summary whenever one is stored.
    const summary = input.summaryMode === undefined || input.summaryMode === 'off' ? undefined : stored;
    const transcriptLink = input.transcriptFileUrl ? input.transcriptFileUrl(v.videoId) : watchUrl(v.videoId);
    entries.push({
      videoId: v.videoId,
      title: typeof v.title === 'string' ? v.title : '',
      link: watchUrl(v.videoId),
      // The summary's points were checked and are escaped as built (shared/summary/render.ts). What no
      // text may show is dropped by each format's writer (shared/transcript/shown-text.ts).
      html: contentWithSummary(content?.html ?? NO_TRANSCRIPT_NOTE, summary, input.summaryMode ?? 'off', transcriptLink),
      language: languageTag(content?.language ?? null),
      published: v.publishedAt,
      updated: v.publishedAt,
      thumbnail: thumbnailOf(v.videoId),
      summary: stored !== undefined && stored.points.length > 0 ? summaryPlainText(stored) : nullable(summaryOf(v.description)),
      durationSeconds: typeof v.durationSeconds === 'number' && Number.isSafeInteger(v.durationSeconds) && v.durationSeconds >= 0 ? v.durationSeconds : null,
      transcriptFile: file !== null && file.paragraphs.length > 0 && input.transcriptFileUrl ? { url: input.transcriptFileUrl(v.videoId), language: file.language } : null,
    });
  }
  const author = shownText(input.channelTitle ?? '').trim() || input.channelId;
  return {
    channelId: input.channelId,
    title: `${FEED_TITLE_PREFIX} - ${input.channelId}`,
    author,
    description: `Transcripts of the newest videos of ${author}`,
    // A corrupt version must not break the document either: fall back to the newest entry.
    updated: validDate(input.updated) ? input.updated : (entries[0]?.published ?? new Date(0)),
    link: `https://${PUBLIC_VIDEO_HOST}/channel/${input.channelId}`,
    selfUrl: input.selfUrl,
    entries,
  };
}

// A summary or name of nothing but what no text may show counts as none.
const nullable = (text: string | null): string | null => (text === null ? null : shownText(text) || null);

// BCP 47 as the platform's codes come (`en`, `pt-BR`, `zh-Hans`, `es-419`); anything else stored is
// not claimed as a language at all.
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/;

/** A stored language code fit for xml:lang and `language`, else null. */
export function languageTag(code: string | null): string | null {
  return code !== null && LANGUAGE_TAG.test(code) ? code : null;
}

/** The platform's thumbnail that every video has (docs/crawler.md §3); maxresdefault is not always there. */
export function thumbnailOf(videoId: string): string {
  return `https://i.ytimg.com/vi/${encodeURIComponent(videoId)}/hqdefault.jpg`;
}

// ── feed state ─────────────────────────────────────────────────────────────

export const STATE_TTL_MS = 5_000;

export interface FeedState {
  /** Newest fetchedAt among the channel's feed entries (feedVersion). */
  readonly version: Date;
  /** Entries the feed shows (<= max_items). */
  readonly count: number;
  /** Digest of the shown entries' ids and write times. */
  readonly fingerprint: string;
  /** The shown entries' video ids, newest first (what `summary` reads summaries for). */
  readonly ids: readonly string[];
  /** The entries, when this request had to list them anyway. */
  readonly videos: readonly VideoRecord[] | null;
  /** Their stored transcripts per language, listed with them. */
  readonly transcripts: readonly TranscriptRecord[] | null;
}

interface Remembered {
  version: number;
  count: number;
  fingerprint: string;
  ids: readonly string[];
  at: number;
}

export function fingerprintOf(videos: readonly VideoRecord[]): string {
  const h = createHash('sha256');
  for (const v of videos) h.update(`${v.videoId}:${v.fetchedAt.getTime()}\n`);
  return h.digest('base64url').slice(0, 16);
}

/** Each (channel, max_items, kinds listed) is its own feed. */
const stateKey = (channelId: string, maxItems: number, kinds: readonly FeedKind[]): string => `${channelId}\n${maxItems}\n${kinds.join(',')}`;

/** Transcripts are read this many videos at a time, the event loop given back between reads. */
export const TRANSCRIPT_PAGE = 10;

/** Runs a listing that will hold about `bytes` in memory (0: not known yet). */
export type ListingGate = <T>(work: () => Promise<T>, bytes: number) => Promise<T>;

/** Characters of text a listing holds (titles, descriptions, transcripts), in bytes as JavaScript keeps them. */
export function listedBytes(videos: readonly VideoRecord[], transcripts: readonly TranscriptRecord[]): number {
  let chars = 0;
  for (const v of videos) chars += (v.description?.length ?? 0) + (v.title?.length ?? 0);
  for (const t of transcripts) for (const p of t.paragraphs) chars += p.text.length;
  return 2 * chars;
}

export class FeedStateReader {
  private readonly known: CacheSlot<Remembered>;
  /** Per channel, the most bytes one listed entry held: what a listing of N entries will hold, about. */
  private readonly entryBytes: CacheSlot<number>;
  /** Gated listings under way, by feed and version: requests arriving together list once. */
  private readonly listing = new SingleFlight<string, FeedState | null>();
  /**
   * Version reads of this event-loop turn, by channel: the requests for one channel that arrive in
   * the same turn (Node reads every connection that has bytes before the check phase) share one
   * read, as the rate limit shares one add (http/keyed.ts). None of them arrived after the read by
   * more than that turn, and no request can order itself against a crawler's commit more finely.
   */
  private readonly versions = new Map<string, Promise<Date | null>>();

  /**
   * `gate` runs each listing: the feed route passes its render queue, so only a few feeds' records
   * are in memory at once however many requests miss the cache together.
   */
  constructor(
    private readonly store: FeedReadStore,
    cache: ApiCache = new ApiCache(),
    private readonly gate: ListingGate = (work) => work(),
  ) {
    this.known = cache.slot('feed-state');
    this.entryBytes = cache.slot('feed-entry-bytes');
  }

  /** About how many bytes listing `maxItems` entries of the channel holds; 0 while not known. */
  estimate(channelId: string, maxItems: number): number {
    return (this.entryBytes.get(channelId) ?? 0) * maxItems;
  }

  /** Null when nothing is stored for the channel yet (the spec's 404). */
  async read(channelId: string, maxItems: number, now: Date, kinds: readonly FeedKind[] = DEFAULT_FEED_KINDS): Promise<FeedState | null> {
    // Version first, entries second: a batch stored in between shows up under the older version
    // and is re-rendered on the next request, never hidden behind a newer version.
    const version = await this.versionOf(channelId);
    if (version === null) return null;
    const seen = remembered(this.known, stateKey(channelId, maxItems, kinds), now.getTime(), STATE_TTL_MS);
    if (seen && seen.version === version.getTime()) {
      return { version, count: seen.count, fingerprint: seen.fingerprint, ids: seen.ids, videos: null, transcripts: null };
    }
    return this.list(channelId, maxItems, version, now, kinds);
  }

  private versionOf(channelId: string): Promise<Date | null> {
    let read = this.versions.get(channelId);
    if (read === undefined) {
      if (this.versions.size === 0) setImmediate(() => this.versions.clear());
      read = this.store.feedVersion(channelId);
      this.versions.set(channelId, read);
    }
    return read;
  }

  /**
   * List the entries now (a render-cache miss needs them) and remember what was seen. `gated`
   * false: the caller already holds a place in the gate (a render listing inside its own turn).
   */
  async list(channelId: string, maxItems: number, version: Date, now: Date, kinds: readonly FeedKind[] = DEFAULT_FEED_KINDS, gated = true): Promise<FeedState | null> {
    if (!gated) return this.listNow(channelId, maxItems, version, now, kinds, false);
    const key = `${stateKey(channelId, maxItems, kinds)}\n${version.getTime()}`;
    return this.listing.run(key, () => this.listNow(channelId, maxItems, version, now, kinds, true));
  }

  private async listNow(channelId: string, maxItems: number, version: Date, now: Date, kinds: readonly FeedKind[], gated: boolean): Promise<FeedState | null> {
    // The transcripts per language are read with their videos: written in the same batch (same
    // fetchedAt), so the fingerprint below covers them too. They are read a page of videos at a
    // time with the event loop given back between pages: one read of a long feed's transcripts
    // would hold every other request for its whole length.
    const listing = async () => {
      const listed = await this.store.listFeedEntries(channelId, maxItems, kinds);
      const rows: TranscriptRecord[] = [];
      for (let i = 0; i < listed.length; i += TRANSCRIPT_PAGE) {
        await nextTurn();
        rows.push(...(await this.store.getTranscripts(listed.slice(i, i + TRANSCRIPT_PAGE).map((v) => v.videoId))));
      }
      return { videos: listed, transcripts: rows };
    };
    const { videos, transcripts } = gated ? await this.gate(listing, this.estimate(channelId, maxItems)) : await listing();
    if (videos.length === 0) return null;
    const perEntry = Math.ceil(listedBytes(videos, transcripts) / videos.length);
    if (perEntry > (this.entryBytes.get(channelId) ?? 0)) this.entryBytes.set(channelId, perEntry);
    const state = { version, count: videos.length, fingerprint: fingerprintOf(videos), ids: videos.map((v) => v.videoId), videos, transcripts };
    this.known.set(stateKey(channelId, maxItems, kinds), { version: version.getTime(), count: state.count, fingerprint: state.fingerprint, ids: state.ids, at: now.getTime() });
    return state;
  }
}

// ── conditional GET ────────────────────────────────────────────────────────

export interface Validators {
  /** Strong ETag, quoted. */
  readonly etag: string;
  /** HTTP date of the feed version. */
  readonly lastModified: string;
}

export interface RepresentationKey {
  channelId: string;
  format: string;
  maxItems: number;
  /** feedVersion: newest stored change. */
  version: Date;
  count: number;
  /** Which entries (ids and write times), from FeedStateReader. */
  fingerprint: string;
  /** Everything else the body depends on: author name, the self link and the links' api_key. */
  author: string;
  selfUrl: string;
  /** The api_key the entries' file links carry ('' when none). */
  linkKey?: string;
  /** The shown summaries' digest (feed/summaries.ts): a stored summary makes a new ETag. */
  summaries?: string;
}

/**
 * Strong, because equal tags mean byte-equal bodies: the digest covers every input of the body.
 * With `memo`, a cache-warm request computes no digest.
 */
export function validatorsFor(k: RepresentationKey, memo?: CacheSlot<Validators>): Validators {
  const input = `${k.channelId}\n${k.format}\n${k.maxItems}\n${k.version.getTime()}\n${k.count}\n${k.fingerprint}\n${k.author}\n${k.selfUrl}\n${k.linkKey ?? ''}\n${k.summaries ?? ''}`;
  let v = memo?.get(input);
  if (v === undefined) {
    const digest = createHash('sha256').update(input).digest('base64url');
    v = { etag: `"${digest.slice(0, 27)}"`, lastModified: k.version.toUTCString() };
    memo?.set(input, v);
  }
  return v;
}
