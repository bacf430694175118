// GET /?playlist_id=… (or ?playlist_url=…): a playlist's feed. Validate → register the playlist as
// work (kind playlist, wanted = max_items) and record that the key follows it → what the crawler last listed (its order, title, owner,
// or the platform's private / does-not-exist answer) → the stored entries in the playlist's own
// order → 404, or the shared tail (http/feed-answer.ts: 304 or the feed). Entries are the same stored videos and transcripts channel feeds
// show, rendered by the same renderers; the feed names the playlist and its owner.

import type { IncomingMessage } from 'node:http';
import { isFeedEntry, isShownKind } from '../../shared/store/rules';
import type { PlaylistRecord, VideoRecord, PlaylistFeedStore } from '../../shared/store/types';
import { ApiError } from '../errors';
import { crawlViewOf } from '../feed/crawl-view';
import { buildFeedModel, fingerprintOf, validatorsFor, type FeedModel, type Validators } from '../feed/state';
import { queryOf, requireKeyId, setChannelId } from '../http/request-state';
import { PlaylistFollowing } from '../registration/following';
import { validatePlaylistQuery, type PlaylistFeedQuery } from '../query/playlist-query';
import type { RawQuery } from '../query/feed-query';
import { FEED_TITLE_PREFIX } from '../service-info';
import { PUBLIC_VIDEO_HOST } from '../../shared/video-links';
import { categoryLogger } from '../../shared/logger';
import type { FeedDeps, FeedHandler } from './feed';
import { RENDERERS } from '../feed/renderers';
import { feedQueryTail, linkKeyOf, transcriptFileUrl } from '../feed/self-links';
import { originOf } from '../http/origin';
import { defaultSummaryKey, readSummaries } from '../feed/summaries';

export type PlaylistFeedDeps = Pick<FeedDeps, 'clock' | 'cache' | 'logger' | 'trustProxy' | 'publicBaseUrl' | 'answer' | 'newChannelsPerKeyHour' | 'summaryKey'> & {
  store: PlaylistFeedStore;
};

/** The playlist's stored entries a feed shows, in the playlist's order, at most `limit`. */
export function playlistEntries(playlist: PlaylistRecord, videos: readonly VideoRecord[], q: Pick<PlaylistFeedQuery, 'maxItems' | 'kinds'>): VideoRecord[] {
  const byId = new Map(videos.map((v) => [v.videoId, v]));
  const shown: VideoRecord[] = [];
  for (const id of playlist.videoIds) {
    const v = byId.get(id);
    if (v === undefined || !isFeedEntry(v.state, v.nextAttemptAt) || !isShownKind(v.videoKind, q.kinds)) continue;
    shown.push(v);
    if (shown.length >= q.maxItems) break;
  }
  return shown;
}

/** The self link's query: the validated parameters in one order and spelling (never api_key). */
function selfQuery(q: PlaylistFeedQuery, raw: RawQuery): string {
  return [`playlist_id=${q.playlistId}`, ...feedQueryTail(q, raw)].join('&');
}

export function playlistFeed(deps: PlaylistFeedDeps): FeedHandler {
  // Registering and following: the same steps the web app's Add box takes (registration/following.ts).
  const following = new PlaylistFollowing(deps);
  const registrar = following.registrar;
  const etags = deps.cache.slot<Validators>('playlist-validators');
  const log = categoryLogger(deps.logger, 'api.feed');

  return async (req: IncomingMessage, res) => {
    const raw = queryOf(req);
    const checked = validatePlaylistQuery(raw);
    if (!checked.ok) throw new ApiError(checked.error, checked.context);
    const q = checked.value;
    const { playlistId, format, maxItems, languages, summary: summaryMode } = q;
    const now = deps.clock();
    setChannelId(res, playlistId);

    const work = await following.playlist(playlistId, requireKeyId(res), maxItems, now);
    if (languages !== null) await registrar.askLanguages(playlistId, languages, now, requireKeyId(res));
    const playlist = await deps.store.getPlaylist(playlistId);
    if (playlist?.state === 'private') throw new ApiError('playlistPrivate', { playlistId });
    if (playlist?.state === 'deleted') throw new ApiError('playlistDeleted', { playlistId });
    const videos = playlist === null || playlist.videoIds.length === 0 ? [] : playlistEntries(playlist, await deps.store.getVideos(playlist.videoIds), q);
    if (playlist === null || videos.length === 0) throw new ApiError('noPlaylistVideosYet', { playlistId, crawl: crawlViewOf(work, now) });

    // The newest stored change: an entry written, or the listing itself (order, title, owner).
    const version = new Date(Math.max(playlist.changedAt.getTime(), ...videos.map((v) => v.fetchedAt.getTime())));
    const selfUrl = `${originOf(req, deps)}/?${selfQuery(q, raw)}`;
    const linkKey = format === 'atom' ? '' : linkKeyOf(req, raw);
    const author = playlist.owner?.trim() || playlist.title?.trim() || playlistId;
    // Stored summaries only (no model call); their digest is in the ETag.
    const summaries = await readSummaries(deps.store, videos.map((x) => x.videoId), deps.summaryKey ?? defaultSummaryKey());
    const v = validatorsFor({ channelId: playlistId, format, maxItems, version, count: videos.length, fingerprint: `${fingerprintOf(videos)}:${playlist.title ?? ''}`, author, selfUrl, linkKey, summaries: summaries.fingerprint }, etags);
    await deps.answer(req, res, {
      route: '/',
      validators: v,
      contentType: RENDERERS[format].contentType,
      render: async () => {
        const transcripts = await deps.store.getTranscripts(videos.map((x) => x.videoId));
        const files = format === 'atom' ? {} : { transcriptFileUrl: transcriptFileUrl(originOf(req, deps), languages, linkKey) };
        const base = buildFeedModel({ channelId: playlistId, channelTitle: author, videos, transcripts, languages, updated: version, selfUrl, summaryMode, summaries, ...files }, (video, reason) =>
          log.warning({ playlistId, videoId: String(video.videoId), reason }, `stored video skipped: its ${reason} cannot be rendered`),
        );
        const name = playlist.title?.trim() || playlistId;
        const model: FeedModel = {
          ...base,
          title: `${FEED_TITLE_PREFIX} - ${name}`,
          description: `Transcripts of the playlist ${name}${playlist.owner ? ` by ${playlist.owner}` : ''}, in its own order`,
          link: `https://${PUBLIC_VIDEO_HOST}/playlist?list=${playlistId}`,
        };
        return { body: Buffer.from(RENDERERS[format].render(model), 'utf8'), validators: v };
      },
    });
  };
}

