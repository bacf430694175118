// A scripted stand-in for the platform at the module boundary (PlatformClient): a channel's videos
// with or without listed dates, and per-video scripts of answers and errors consumed in order.
// Every call is logged into a shared `events` list: `list:` for the feed (its 15 newest), `deep:`
// for a full listing. Like the platform's, a listing is a window (window.ts): the newest `limit`
// regular videos and the Shorts among them; a full listing knows only the Shorts the feed shows,
// as browse lists none.

import { PlatformError, type ChannelListing, type ListedVideo, type PlatformClient, type PlaylistListing, type Unblocker } from '../../../shared/platform/types';
import type { Transcript } from '../../../shared/transcript/types';
import { windowOf } from '../../../shared/platform/window';

export type Answer<T> = T | Error;

export interface ScriptedVideo {
  videoId: string;
  title: string;
  /** Date the listing carries (null = only a relative date, the watch page is needed). */
  listedAt: Date | null;
  /** Date the watch page gives (default: the listed date, or a fixed one). */
  watchDate?: Date | null;
  /** A Short: the feed marks it, browse leaves it out. */
  short?: boolean;
}

const HOUR = 3_600_000;
/** How many of the newest videos the feed holds, as on the platform. */
export const SCRIPTED_FEED_SIZE = 15;

/** `count` videos newest first, one hour apart, ids v000, v001, … */
export function makeVideos(count: number, opts: { listedDates?: boolean; start?: number } = {}): ScriptedVideo[] {
  const start = opts.start ?? Date.parse('2026-06-30T00:00:00Z');
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(start - i * HOUR);
    return { videoId: `v${String(i).padStart(3, '0')}`, title: `Video ${i}`, listedAt: opts.listedDates === false ? null : at, watchDate: at };
  });
}

export function transcriptFor(videoId: string): Transcript {
  return { language: 'en', kind: 'manual', cueCount: 3, paragraphs: [{ startMs: 0, text: `Transcript of ${videoId}.` }] };
}

export const blocked = (reason = 'HTTP 429'): PlatformError => new PlatformError('blocked', reason);

const listed = (v: ScriptedVideo): ListedVideo => ({
  videoId: v.videoId, title: v.title, publishedAt: v.listedAt, ...(v.short === true ? { short: true } : {}),
});

export class ScriptedPlatform implements PlatformClient {
  /** Errors for the next listing calls (feed or full), consumed first; afterwards listing succeeds. */
  listScript: Error[] = [];
  /** While set, the feed fails the way its outages do (listFeed answers null). */
  feedOutage = false;
  /** Per video, answers for fetchTranscript consumed in order; afterwards a transcript. */
  readonly transcriptScript = new Map<string, Answer<Transcript>[]>();
  /** Per video, answers for fetchPublishedAt consumed in order; afterwards the video's watchDate. */
  readonly dateScript = new Map<string, Answer<Date | null>[]>();
  /** Runs at the start of each transcript request (e.g. to stop the crawler mid-batch). */
  onTranscript: ((videoId: string) => Promise<void> | void) | null = null;

  constructor(
    public videos: ScriptedVideo[],
    readonly events: string[] = [],
    readonly title: string | null = 'Scripted Channel',
  ) {}

  async resolveHandle(): Promise<string | null> {
    return null;
  }

  async listFeed(channelId: string): Promise<ChannelListing | null> {
    this.events.push(`list:${channelId}`);
    const next = this.listScript.shift();
    if (next) throw next;
    if (this.feedOutage) return null;
    const videos = this.videos.slice(0, SCRIPTED_FEED_SIZE).map(listed);
    return { channelId, title: this.title, videos, complete: videos.length === this.videos.length };
  }

  async listVideos(channelId: string, limit: number): Promise<ChannelListing> {
    this.events.push(`deep:${channelId}`);
    const next = this.listScript.shift();
    if (next) throw next;
    const known = this.videos.filter((v, i) => v.short !== true || i < SCRIPTED_FEED_SIZE).map(listed);
    const videos = windowOf(known, limit);
    return { channelId, title: this.title, videos, complete: videos.length === known.length };
  }

  /** The videos in their order as one playlist; listScript errors first, as for channels. */
  async listPlaylist(playlistId: string, limit: number): Promise<PlaylistListing> {
    this.events.push(`playlist:${playlistId}`);
    const next = this.listScript.shift();
    if (next) throw next;
    const videos = this.videos.slice(0, limit).map(listed);
    return { playlistId, title: this.title, owner: this.title, ownerChannelId: null, videos, unavailable: 0, complete: videos.length === this.videos.length, mode: 'feed' };
  }

  async fetchPublishedAt(videoId: string): Promise<Date | null> {
    this.events.push(`date:${videoId}`);
    const script = this.dateScript.get(videoId);
    if (script && script.length > 0) {
      const next = script.shift()!;
      if (next instanceof Error) throw next;
      return next;
    }
    const v = this.videos.find((x) => x.videoId === videoId);
    return v?.watchDate ?? null;
  }

  async fetchTranscript(videoId: string): Promise<Transcript> {
    this.events.push(`transcript:${videoId}`);
    await this.onTranscript?.(videoId);
    const script = this.transcriptScript.get(videoId);
    if (script && script.length > 0) {
      const next = script.shift()!;
      if (next instanceof Error) throw next;
      return next;
    }
    return transcriptFor(videoId);
  }

  count(prefix: string): number {
    return this.events.filter((e) => e.startsWith(prefix)).length;
  }
}

/** An unblocker that logs its use and answers as scripted. */
export class ScriptedUnblocker implements Unblocker {
  closed = false;
  constructor(
    readonly name: string,
    readonly events: string[],
    private readonly isAvailable: boolean,
    private readonly clears: boolean | Error,
  ) {}

  async available(): Promise<boolean> {
    this.events.push(`${this.name}:available`);
    return this.isAvailable;
  }

  async unblock(path: string): Promise<boolean> {
    this.events.push(`${this.name}:unblock:${path}`);
    if (this.clears instanceof Error) throw this.clears;
    return this.clears;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
