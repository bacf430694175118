// What the MCP tools answer, read from the store alone: search hits, a stored transcript (paged, or a
// time range of it), stored videos, the key's subscriptions with their crawl state, and following a
// channel. Nothing here asks the platform: a handle the store has not resolved is followed as an
// import follows it (the crawler resolves it), never looked up while an agent waits. Field names
// are the ones docs/mcp.md promises; times are whole seconds.

import type { SearchScope, Store, TranscriptRecord, VideoRecord } from '../../shared/store/types';
import { normalizeHandle, parseChannelUrl, parseHandle, type ChannelRef } from '../../shared/channel-ref';
import { CHANNEL_ID, VIDEO_ID } from '../../shared/ids';
import { PLAYLIST_ID } from '../../shared/playlist-ref';
import { parseChapters } from '../../shared/transcript/chapters';
import { watchUrl } from '../../shared/video-links';
import { errorBody, type ErrorName } from '../errors';
import { crawlViewOf } from '../feed/crawl-view';
import { matchingParagraphs, transcriptsInShowOrder } from '../feed/search-model';
import { MAX_QUERY_CHARS, parseSearchText } from '../query/search-query';

export type ArchiveStore = Pick<Store, 'searchVideos' | 'getChannel' | 'listSubscriptions' | 'getHandle' | 'getVideos' | 'getTranscripts' | 'listFeedEntries' | 'getPlaylist' | 'subscriptionFeed' | 'registerChannel' | 'follow'>;

/** A failure an agent should read: the tool answers it as a tool error with this text. */
export class ToolFailure extends Error {}

export interface Video { video_id: string; title: string; channel_id: string; channel_title: string | null; published: string; url: string }
export interface Hit extends Video { paragraphs: { start: number; text: string }[] }
export interface ListedVideo extends Video { has_transcript: boolean }
export interface Followed { id: string; kind: 'channel' | 'playlist'; title: string | null; state: string }
export interface TranscriptPage {
  video_id: string; language: string; kind: string; title: string;
  chapters: { start: number; title: string }[];
  paragraphs: { start: number; text: string }[];
  summary?: string;
  next_cursor?: string;
}

/** About this many bytes of paragraphs a page of get_transcript holds (docs/mcp.md). */
export const PAGE_BYTES = 50_000;
export const MAX_LIMIT = 50;

const catalogueText = (name: ErrorName): string => {
  const body = errorBody(name);
  return body.message ? `${body.error}: ${body.message}` : body.error;
};

async function channelTitles(store: ArchiveStore, ids: Iterable<string>): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  for (const id of new Set(ids)) out.set(id, (await store.getChannel(id))?.title?.trim() || null);
  return out;
}

function videoOf(v: VideoRecord, titles: ReadonlyMap<string, string | null>): Video {
  return { video_id: v.videoId, title: v.title, channel_id: v.channelId, channel_title: titles.get(v.channelId) ?? null, published: v.publishedAt.toISOString(), url: watchUrl(v.videoId) };
}

/** A channel id, or a handle the store already resolved; a handle it does not know is a ToolFailure. */
async function storedChannelId(store: ArchiveStore, raw: string): Promise<string> {
  const ref = refOf(raw);
  if (ref.kind === 'id') return ref.channelId;
  const id = await store.getHandle(normalizeHandle(ref.handle));
  if (id === null) throw new ToolFailure(`@${ref.handle} is not known to this archive yet; follow_channel queues it for the crawler`);
  return id;
}

function refOf(raw: string): ChannelRef {
  const text = raw.trim();
  const ref = CHANNEL_ID.test(text) ? { kind: 'id' as const, channelId: text } : text.startsWith('https://') ? parseChannelUrl(text) : parseHandle(text);
  if (ref === null) throw new ToolFailure(`"${text.slice(0, 80)}" is not a channel id (UC…), a handle (@name) or a channel URL (https://www.youtube.com/@name or /channel/UC…)`);
  return ref;
}

export interface SearchArgs { query: string; channels?: string[]; subscriptions?: boolean; since?: string; limit?: number }

export async function searchTranscripts(store: ArchiveStore, keyId: string, a: SearchArgs): Promise<Hit[]> {
  if (a.query.length > MAX_QUERY_CHARS) throw new ToolFailure(catalogueText('searchQueryTooLong'));
  const parsed = parseSearchText(a.query.trim());
  if (!parsed.ok) throw new ToolFailure(catalogueText(parsed.error));
  let channelIds: string[] | null = null;
  if (a.channels !== undefined && a.channels.length > 0) {
    channelIds = [];
    for (const c of a.channels.slice(0, 20)) channelIds.push(await storedChannelId(store, c));
  }
  if (a.subscriptions === true) {
    const followed = (await store.listSubscriptions(keyId)).flatMap((s) => (s.channelId === null || s.kind !== 'channel' ? [] : [s.channelId]));
    channelIds = channelIds === null ? followed : channelIds.filter((id) => followed.includes(id));
  }
  const since = sinceOf(a.since);
  const scope: SearchScope = { channelIds, kinds: ['regular', 'short', 'live'] };
  const hits = await store.searchVideos(parsed.value, scope, Math.min(a.limit ?? 10, MAX_LIMIT));
  // Newest first: the hits at or after `since` are a prefix of the list.
  const kept = since === null ? hits : hits.filter((h) => h.video.publishedAt.getTime() >= since.getTime());
  const titles = await channelTitles(store, kept.map((h) => h.video.channelId));
  return kept.map(({ video, transcripts }) => ({
    ...videoOf(video, titles),
    // The stored text itself, not the feed's HTML unescaped back: an answer to an agent is not HTML.
    paragraphs: matchingParagraphs(parsed.value, video, transcripts, null).map((p) => ({ start: p.seconds ?? 0, text: p.text })),
  }));
}

function sinceOf(raw: string | undefined): Date | null {
  if (raw === undefined || raw === '') return null;
  const d = new Date(raw);
  if (Number.isNaN(d.getTime())) throw new ToolFailure(`since: "${raw.slice(0, 40)}" is not a date (use ISO 8601, e.g. 2026-11-01)`);
  return d;
}

export interface TranscriptArgs { video_id: string; lang?: string; start?: number; end?: number; cursor?: string }

/** The stored transcript of one video, or why there is none (never a platform request). */
export async function getTranscript(store: ArchiveStore, a: TranscriptArgs): Promise<TranscriptPage> {
  if (!VIDEO_ID.test(a.video_id)) throw new ToolFailure(`"${a.video_id.slice(0, 40)}" is not a video id (11 characters of A-Z, a-z, 0-9, _ and -)`);
  const [video] = await store.getVideos([a.video_id]);
  if (video === undefined) throw new ToolFailure(`video ${a.video_id} is not stored in this archive; follow its channel (follow_channel) and the crawler fetches its newest videos`);
  const rows = await store.getTranscripts([a.video_id]);
  const t = pickTranscript(video, rows, a.lang);
  if (t === undefined) {
    const why = video.state === 'ready' ? `no transcript in ${a.lang} (stored: ${rows.map((r) => r.language).join(', ')})` : `no transcript is stored (state: ${video.state}${video.nextAttemptAt ? `, next try ${video.nextAttemptAt.toISOString()}` : ''})`;
    throw new ToolFailure(`video ${a.video_id}: ${why}`);
  }
  const chapters = parseChapters(video.description, video.durationSeconds).map((c) => ({ start: c.startSeconds, title: c.title }));
  let paragraphs = t.paragraphs.map((p, i) => ({ start: Math.floor(p.startMs / 1000), end: i + 1 < t.paragraphs.length ? Math.floor(t.paragraphs[i + 1]!.startMs / 1000) : Number.POSITIVE_INFINITY, text: p.text }));
  if (a.start !== undefined || a.end !== undefined) {
    const from = a.start ?? 0;
    const to = a.end ?? Number.POSITIVE_INFINITY;
    if (to < from) throw new ToolFailure('end is before start');
    // A paragraph overlaps [from, to] when it starts before `to` and ends after `from`.
    paragraphs = paragraphs.filter((p) => p.start <= to && p.end > from);
  }
  const offset = cursorOf(a.cursor, paragraphs.length);
  const page: { start: number; text: string }[] = [];
  let bytes = 0;
  let i = offset;
  for (; i < paragraphs.length; i++) {
    const p = paragraphs[i]!;
    bytes += Buffer.byteLength(p.text) + 16;
    if (page.length > 0 && bytes > PAGE_BYTES) break;
    page.push({ start: p.start, text: p.text });
  }
  const out: TranscriptPage = { video_id: video.videoId, language: t.language, kind: t.kind, title: video.title, chapters, paragraphs: page };
  if (i < paragraphs.length) out.next_cursor = String(i);
  return out;
}

function pickTranscript(video: VideoRecord, rows: readonly TranscriptRecord[], lang: string | undefined): TranscriptRecord | undefined {
  const ordered = transcriptsInShowOrder(video, rows, lang === undefined ? null : [lang]);
  return lang === undefined ? ordered[0] : ordered.find((r) => r.language === lang || r.language.startsWith(`${lang}-`));
}

function cursorOf(raw: string | undefined, count: number): number {
  if (raw === undefined || raw === '') return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > count) throw new ToolFailure('cursor: give back the next_cursor of the previous page, unchanged');
  return n;
}

export interface ListArgs { channel?: string; playlist?: string; subscriptions?: boolean; since?: string; limit?: number }

export async function listVideos(store: ArchiveStore, keyId: string, a: ListArgs): Promise<ListedVideo[]> {
  const limit = Math.min(a.limit ?? 20, MAX_LIMIT);
  const named = [a.channel, a.playlist, a.subscriptions === true ? 'subscriptions' : undefined].filter((x) => x !== undefined);
  if (named.length !== 1) throw new ToolFailure('name exactly one of channel, playlist or subscriptions');
  let videos: VideoRecord[];
  if (a.channel !== undefined) {
    videos = await store.listFeedEntries(await storedChannelId(store, a.channel), limit, ['regular', 'short', 'live']);
  } else if (a.playlist !== undefined) {
    if (!PLAYLIST_ID.test(a.playlist)) throw new ToolFailure(`"${a.playlist.slice(0, 60)}" is not a playlist id`);
    const playlist = await store.getPlaylist(a.playlist);
    if (playlist === null) throw new ToolFailure(`playlist ${a.playlist} is not stored in this archive`);
    videos = (await store.getVideos(playlist.videoIds.slice(0, limit))).sort((x, y) => playlist.videoIds.indexOf(x.videoId) - playlist.videoIds.indexOf(y.videoId));
  } else {
    const entries = await store.subscriptionFeed(keyId, limit, ['regular', 'short', 'live']);
    videos = await store.getVideos(entries.map((e) => e.videoId));
    videos.sort((x, y) => y.publishedAt.getTime() - x.publishedAt.getTime());
  }
  const since = sinceOf(a.since);
  const kept = since === null ? videos : videos.filter((v) => v.publishedAt.getTime() >= since.getTime());
  const titles = await channelTitles(store, kept.map((v) => v.channelId));
  return kept.map((v) => ({ ...videoOf(v, titles), has_transcript: v.state === 'ready' }));
}

const STATE_WORDS: Readonly<Record<string, string>> = {
  running: 'being crawled now', waiting: 'waiting for the first batch', empty: 'up to date',
  not_found: 'the platform does not know it', blocked: 'blocked by the platform', unreachable: 'the platform could not be reached',
};

export async function listSubscriptions(store: ArchiveStore, keyId: string, now: Date): Promise<Followed[]> {
  const out: Followed[] = [];
  for (const s of await store.listSubscriptions(keyId)) {
    if (s.channelId === null) {
      out.push({ id: `@${s.handle ?? ''}`, kind: 'channel', title: s.title, state: 'handle waiting to be resolved by the crawler' });
      continue;
    }
    const channel = await store.getChannel(s.channelId);
    const view = channel === null ? { state: 'waiting' as const } : crawlViewOf(channel, now);
    const next = 'nextTryAt' in view && view.state !== 'empty' ? `, next try ${view.nextTryAt.toISOString()}` : '';
    out.push({ id: s.channelId, kind: s.kind, title: channel?.title ?? s.title, state: `${STATE_WORDS[view.state] ?? view.state}${next}` });
  }
  return out;
}

/**
 * What a feed request does for a channel, without the platform: register it as the crawler's work
 * and follow it for this key. A handle the store has not resolved is followed by handle, the
 * way an import follows it; the crawler resolves it on its next round.
 */
export async function followChannel(store: ArchiveStore, keyId: string, raw: string, now: Date): Promise<Followed> {
  const ref = refOf(raw);
  const channelId = ref.kind === 'id' ? ref.channelId : await store.getHandle(normalizeHandle(ref.handle));
  if (channelId === null) {
    const handle = ref.kind === 'handle' ? normalizeHandle(ref.handle) : '';
    await store.follow(keyId, [{ handle }], 'feed', 20, now);
    return { id: `@${handle}`, kind: 'channel', title: null, state: 'queued: the crawler resolves the handle, then fetches its newest videos' };
  }
  const record = await store.registerChannel({ channelId, wanted: 20, handle: ref.kind === 'handle' ? normalizeHandle(ref.handle) : null, keyId }, now);
  await store.follow(keyId, [{ channelId }], 'feed', 20, now);
  const view = crawlViewOf(record, now);
  return { id: channelId, kind: 'channel', title: record.title, state: STATE_WORDS[view.state] ?? view.state };
}
