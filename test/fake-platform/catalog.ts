// What the fake platform hosts: channels by id and by handle, every video by id, uploads newest
// first. Lookups are what each endpoint needs; nothing here knows about HTTP.

import type { FakeChannelSpec, FakeCue, FakePlaylistSpec, FakeVideoSpec, PlaylistEntry } from './types';
import { asrStyle, generateCues } from './cues';
import { makeUpload, validateChannel, validateVideo } from './data';

export interface HostedVideo {
  video: FakeVideoSpec;
  channel: FakeChannelSpec;
}

/** One caption track as the platform lists it. */
export interface CaptionTrack {
  languageCode: string;
  kind: 'manual' | 'asr';
  cues: FakeCue[];
}

const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  ja: 'Japanese',
  pt: 'Portuguese',
  nl: 'Dutch',
  tr: 'Turkish',
};

export function languageName(code: string): string {
  return LANGUAGE_NAMES[code] ?? code;
}

export class Catalog {
  private readonly byId = new Map<string, FakeChannelSpec>();
  private readonly byHandle = new Map<string, FakeChannelSpec>();
  private readonly videos = new Map<string, HostedVideo>();
  private uploads = 0;
  private readonly playlists = new Map<string, FakePlaylistSpec>();

  addPlaylist(spec: FakePlaylistSpec): FakePlaylistSpec {
    if (!this.byId.has(spec.ownerChannelId)) throw new Error(`fake platform: playlist ${spec.playlistId}: no owner channel ${spec.ownerChannelId}`);
    for (const e of spec.entries) {
      if (e.gone === undefined && !this.videos.has(e.videoId)) throw new Error(`fake platform: playlist ${spec.playlistId}: no video ${e.videoId}`);
    }
    const copy: FakePlaylistSpec = { ...spec, entries: [...spec.entries] };
    this.playlists.set(spec.playlistId, copy);
    return copy;
  }

  /** A playlist with its owner and its entries as clients see them; undefined when unknown. */
  playlist(playlistId: string): { playlist: FakePlaylistSpec; owner: FakeChannelSpec; entries: PlaylistEntry[] } | undefined {
    const playlist = this.playlists.get(playlistId);
    const owner = playlist && this.byId.get(playlist.ownerChannelId);
    if (!playlist || !owner) return undefined;
    const entries = playlist.entries.map((e): PlaylistEntry => {
      const hosted = e.gone === undefined ? this.videos.get(e.videoId) : undefined;
      return hosted ? { kind: 'video', video: hosted.video, channel: hosted.channel } : { kind: 'gone', videoId: e.videoId, why: e.gone ?? 'deleted' };
    });
    return { playlist, owner, entries };
  }

  addChannel(spec: FakeChannelSpec): FakeChannelSpec {
    validateChannel(spec);
    // A private copy: the fake re-sorts and appends, the caller's object stays as it was.
    const channel: FakeChannelSpec = { ...spec, videos: [...spec.videos] };
    channel.videos.sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
    this.byId.set(channel.channelId, channel);
    this.byHandle.set(channel.handle.toLowerCase(), channel);
    for (const video of channel.videos) this.videos.set(video.videoId, { video, channel });
    return channel;
  }

  addUpload(channelId: string, partial?: Partial<FakeVideoSpec>): FakeVideoSpec {
    const channel = this.byId.get(channelId);
    if (!channel) throw new Error(`fake platform: no channel ${channelId}`);
    this.uploads += 1;
    const video = makeUpload(`${channelId}:${this.uploads}`, partial);
    validateVideo(video);
    if (this.videos.has(video.videoId)) throw new Error(`fake platform: video ${video.videoId} exists`);
    channel.videos.push(video);
    channel.videos.sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
    this.videos.set(video.videoId, { video, channel });
    return video;
  }

  channel(channelId: string): FakeChannelSpec | undefined {
    return this.byId.get(channelId);
  }

  channelByHandle(handle: string): FakeChannelSpec | undefined {
    return this.byHandle.get(handle.replace(/^@/, '').toLowerCase());
  }

  video(videoId: string): HostedVideo | undefined {
    return this.videos.get(videoId);
  }

  channels(): FakeChannelSpec[] {
    return [...this.byId.values()];
  }

  /** The tracks a video offers, in the platform's order (manual before automatic). */
  tracks(video: FakeVideoSpec): CaptionTrack[] {
    const cues = video.cues ?? generateCues(video.videoId, video.language);
    switch (video.captions) {
      case 'manual':
        return [{ languageCode: video.language ?? 'en', kind: 'manual', cues }];
      case 'foreign':
        return [{ languageCode: video.language ?? 'de', kind: 'manual', cues }];
      case 'automatic':
        return [{ languageCode: video.language ?? 'en', kind: 'asr', cues }];
      case 'both':
        return [
          { languageCode: video.language ?? 'en', kind: 'manual', cues },
          { languageCode: video.language ?? 'en', kind: 'asr', cues: asrStyle(cues) },
        ];
      default:
        return [];
    }
  }
}
