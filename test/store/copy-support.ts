// What the store:copy tests share: a store filled the way a crawled deployment is (channels with
// their videos, transcripts in two languages, handles, languages asked for), and every channel's
// feed as the API renders it, to compare a copy with its source.

import { renderAtom } from '../../api/feed/render';
import { buildFeedModel } from '../../api/feed/state';
import type { Store, TranscriptRecord, VideoRecord } from '../../shared/store/types';
import { transcriptRecord, videoRecord } from '../support/factories';

const T0 = Date.UTC(2026, 0, 1);
/** When the copy's kept languages are read: within 30 days of when they were asked. */
const LANGUAGES_AT = new Date(T0 + 24 * 3_600_000);

export const channelIdOf = (c: number): string => `UC${String(c).padStart(22, '0')}`;

/** Two API keys (as the store knows them: digests) following channels. */
export const KEY_IDS = ['a'.repeat(64), 'b'.repeat(64)];

/** Two followed playlists. */
export const PLAYLIST_IDS = ['PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf', 'PLbpi6ZahtOH6Blw3RGYpWkSByi_T7Rygb'];

export const videoIdOf = (c: number, n: number): string => `${String(c).padStart(4, '0')}v${String(n).padStart(6, '0')}`;

export interface Filled {
  channelIds: string[];
  videos: number;
}

/**
 * `channels` channels of `perChannel` videos each (a twentieth waiting for a retry, a twentieth
 * given up without captions), the ready ones with their transcript and, for every third, a Turkish
 * translation (every seventh recovered without times); a handle per channel and two languages
 * asked; one key following every channel and a handle not resolved yet, another every fifth channel.
 */
export async function fillStore(store: Store, channels: number, perChannel: number): Promise<Filled> {
  const channelIds: string[] = [];
  for (let c = 0; c < channels; c++) {
    const channelId = channelIdOf(c);
    channelIds.push(channelId);
    await store.registerChannel({ channelId, wanted: Math.min(100, perChannel), handle: `Handle${c}`, title: `Channel ${c} & <co>` }, new Date(T0));
    await store.putHandle(`handle${c}`, channelId, new Date(T0 + c));
    await store.askLanguages(channelId, ['tr', 'en'], new Date(T0 + c));
    await store.markLanguagesCovered(channelId, ['en'], new Date(T0 + c));
    const videos: VideoRecord[] = [];
    const transcripts: TranscriptRecord[] = [];
    for (let n = 0; n < perChannel; n++) {
      const kind = n % 20;
      const state = kind === 0 ? 'failed' : kind === 1 ? 'no_transcript' : 'ready';
      const v = videoRecord({
        videoId: videoIdOf(c, n),
        channelId,
        title: `Video ${n} of ${c}: "quotes" & ]]> 😀`,
        publishedAt: new Date(T0 - n * 3_600_000),
        fetchedAt: new Date(T0 + n * 1000),
        language: state === 'ready' ? 'en' : null,
        kind: state === 'ready' ? (n % 2 ? 'manual' : 'automatic') : null,
        state,
        nextAttemptAt: state === 'failed' ? new Date(T0 + 86_400_000) : null,
        lastError: state === 'failed' ? 'timeout' : null,
        videoKind: n % 11 === 0 ? 'short' : n % 13 === 0 ? null : 'regular',
        durationSeconds: n % 5 === 0 ? null : 60 + n,
        description: n % 3 === 0 ? '0:00 Intro\n1:00 Middle\n2:00 End' : `About ${n}.`,
      });
      videos.push(v);
      if (state !== 'ready') continue;
      const paragraphs = [{ startMs: 0, text: `Transcript ${n} of ${c} <&>` }, { startMs: 61_000, text: `Later in ${n}, çğıöşü.` }];
      transcripts.push(n % 7 === 0 ? { ...transcriptRecord(v, paragraphs), untimed: true } : transcriptRecord(v, paragraphs));
      if (n % 3 === 0) transcripts.push({ ...transcriptRecord(v, `Çeviri ${n}`), language: 'tr', kind: 'translated' });
    }
    await store.upsertVideos(videos, transcripts);
  }
  await store.follow(KEY_IDS[0]!, [...channelIds.map((channelId) => ({ channelId })), { handle: 'notyetknown' }], 'import', 100, new Date(T0 + 1));
  await store.follow(KEY_IDS[1]!, channelIds.filter((_, i) => i % 5 === 0).map((channelId) => ({ channelId, title: 'Kanal ✓' })), 'feed', 10, new Date(T0 + 2));
  // A followed playlist listing videos of two channels, and one the platform called private.
  await store.follow(KEY_IDS[1]!, [{ channelId: PLAYLIST_IDS[0]!, kind: 'playlist' }, { channelId: PLAYLIST_IDS[1]!, kind: 'playlist' }], 'feed', 10, new Date(T0 + 3));
  await store.putPlaylist({ playlistId: PLAYLIST_IDS[0]!, title: 'Ders <1> & çalışma', owner: 'Channel 0', ownerChannelId: channelIds[0]!, state: 'listed',
    videoIds: [videoIdOf(1, 2), videoIdOf(0, 3), videoIdOf(1, 4)] }, new Date(T0 + 4));
  await store.putPlaylist({ playlistId: PLAYLIST_IDS[1]!, title: null, owner: null, ownerChannelId: null, state: 'private', videoIds: [] }, new Date(T0 + 5));
  // Push: channel 0 verified (its token and secret must come along, or the hub's callbacks fail), channel 1 asked.
  await store.putWebSub({ channelId: channelIds[0]!, topic: `https://www.youtube.com/xml/feeds/videos.xml?channel_id=${channelIds[0]}`, token: 'tok0-abcdef', secret: 'secret-0123456789',
    status: 'verified', requestedAt: new Date(T0), verifiedAt: new Date(T0 + 1000), leaseSeconds: 432_000, leaseExpiresAt: new Date(T0 + 432_000_000),
    nextActionAt: new Date(T0 + 345_600_000), failures: 0, lastError: null, updatedAt: new Date(T0 + 1000) });
  await store.putWebSub({ channelId: channelIds[1]!, topic: `https://www.youtube.com/xml/feeds/videos.xml?channel_id=${channelIds[1]}`, token: 'tok1-abcdef', secret: 'secret-9876543210',
    status: 'requested', requestedAt: new Date(T0), verifiedAt: null, leaseSeconds: null, leaseExpiresAt: null,
    nextActionAt: new Date(T0 + 60_000), failures: 2, lastError: 'hub answered 503', updatedAt: new Date(T0) });
  await store.pushVideos([{ videoId: 'pushed00001', channelId: channelIds[0]!, title: 'Just uploaded', publishedAt: new Date(T0 + 7) }], new Date(T0 + 8));
  return { channelIds, videos: channels * perChannel };
}

/** Which videos a few searches find (search entries are made again at the destination, never copied). */
export async function searchesOf(store: Store): Promise<string[][]> {
  const scope = { channelIds: null, kinds: ['regular', 'short', 'live'] as const };
  const queries = [[['transcript', '42']], [['ceviri']], [['later', 'in', '7']], [['video', '3', 'of', '12']]];
  const out: string[][] = [];
  for (const q of queries) out.push((await store.searchVideos({ all: [q], none: [] }, { ...scope, kinds: [...scope.kinds] }, 100)).map((h) => h.video.videoId));
  return out;
}

/** Every channel's feed (100 entries, shorts too; as stored, and in Turkish) as the API renders it. */
export async function feedsOf(store: Store, channelIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const channelId of channelIds) {
    const [channel, version, videos] = await Promise.all([store.getChannel(channelId), store.feedVersion(channelId), store.listFeedEntries(channelId, 100, ['regular', 'short', 'live'])]);
    const transcripts = await store.getTranscripts(videos.map((v) => v.videoId));
    for (const languages of [null, ['tr']]) {
      const model = buildFeedModel({
        channelId, channelTitle: channel?.title ?? null, videos, transcripts, languages,
        updated: version ?? new Date(0), selfUrl: `http://127.0.0.1/?channel_id=${channelId}`,
      });
      out.set(`${channelId}/${languages?.join(',') ?? 'stored'}`, renderAtom(model));
    }
  }
  return out;
}

/**
 * What a deployment reads besides feeds, to compare a copy with its source: every work item, the
 * playlists, push records, each key's subscriptions and combined feed, handles and languages.
 */
export async function stateOf(store: Store, channelIds: readonly string[]): Promise<Record<string, unknown>> {
  const languages: Record<string, unknown> = {};
  for (const c of channelIds.slice(0, 5)) languages[c] = { wanted: (await store.wantedLanguages(c, 5, LANGUAGES_AT)).sort(), backfill: await store.languagesToBackfill(c, 5, LANGUAGES_AT) };
  const keys: Record<string, unknown> = {};
  for (const keyId of KEY_IDS) keys[keyId] = { subscriptions: await store.listSubscriptions(keyId), feed: await store.subscriptionFeed(keyId, 50) };
  return {
    channels: await store.listChannels(null, 1000),
    playlists: await Promise.all(PLAYLIST_IDS.map((id) => store.getPlaylist(id))),
    push: await store.webSubStates(null, 100),
    pushByToken: await store.webSubByToken('tok0-abcdef'),
    handles: await Promise.all(channelIds.slice(0, 5).map((_, i) => store.getHandle(`handle${i}`))),
    languages,
    keys,
  };
}
