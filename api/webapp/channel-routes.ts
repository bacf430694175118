// A channel's page and a playlist's: what is stored of it, paged, whether this key follows it, and
// its feed addresses with the key. The pages only read the store: following is POST /app/follow.
// An id the store has no work item for is a 404 in words; one the crawler has not stored anything
// of yet says what the feed's 404 says and reloads itself until the first batch is there.

import type { Request, RequestHandler, Response } from 'express';
import { CHANNEL_ID } from '../../shared/ids';
import { isPlaylistId } from '../../shared/playlist-ref';
import type { ChannelRecord, FeedKind, WorkKind } from '../../shared/store/types';
import { PUBLIC_VIDEO_HOST } from '../../shared/video-links';
import { crawlViewOf } from '../feed/crawl-view';
import { channelBody, PAGE_SIZE, type ChannelView, type FeedUrls, type VideoRow } from './channel-page';
import { keyTextOf } from '../../shared/config/security';
import type { AppKit, SignedIn } from './kit';
import { renderPage } from './pages';

export interface ChannelRoutes {
  channel: RequestHandler;
  playlist: RequestHandler;
}

/**
 * The last page asked for: a channel's page N reads its N × PAGE_SIZE newest entries from the
 * feed's index (listFeedEntries), so the pages are bounded; a channel holds far fewer.
 */
export const MAX_PAGE = 200;

/** Every kind a feed can list: the page shows all that is stored, not only the default feed's. */
const ALL_KINDS: readonly FeedKind[] = ['regular', 'short', 'live'];

/** `?page=N` (1 when absent or not a whole number from 1 to MAX_PAGE). */
function pageOf(req: Request): number {
  const raw = req.query.page;
  const n = typeof raw === 'string' && /^[1-9][0-9]{0,3}$/.test(raw) ? Number(raw) : 1;
  return Math.min(n, MAX_PAGE);
}

export function channelRoutes(kit: AppKit): ChannelRoutes {
  const { store } = kit.deps;

  /** The feed addresses (GET /, docs/api.md) and the key's OPML export, with the signed-in key. */
  function feedUrls(req: Request, signed: SignedIn, param: string): FeedUrls | null {
    const key = keyTextOf(signed.key);
    if (key === null) return null;
    const origin = kit.deps.originOf(req);
    const withKey = `api_key=${encodeURIComponent(key)}`;
    return {
      atom: `${origin}/?${param}&${withKey}`,
      rss: `${origin}/?${param}&format=Rss&${withKey}`,
      json: `${origin}/?${param}&format=Json&${withKey}`,
      opml: `${origin}/subscriptions?${withKey}`,
    };
  }

  async function follows(signed: SignedIn, id: string): Promise<boolean> {
    return (await store.listSubscriptions(signed.key.keyId)).some((s) => s.channelId === id);
  }

  function notFound(req: Request, res: Response, signed: SignedIn, words: 'channelUnknown' | 'playlistUnknown'): void {
    const ctx = kit.context(req, signed);
    kit.send(res, 404, renderPage(ctx, ctx.words[words], null));
  }

  /** The view both pages share; `waiting` set when nothing is stored yet. */
  function view(req: Request, signed: SignedIn, kind: WorkKind, id: string, following: boolean, followRef: string, feedParam: string): Omit<ChannelView, 'waiting' | 'rows' | 'page' | 'hasNext'> {
    return { kind, id, path: req.path, followRef, csrf: signed.session.csrf, following, feeds: feedUrls(req, signed, feedParam) };
  }

  const waitingText = (req: Request, signed: SignedIn, record: ChannelRecord, playlist: boolean): string =>
    kit.context(req, signed).words.notStoredYet(crawlViewOf(record, kit.deps.clock()), playlist);

  const channel = kit.reading(async (req, res, signed) => {
    const id = String(req.params.id);
    if (!CHANNEL_ID.test(id)) return notFound(req, res, signed, 'channelUnknown');
    const page = pageOf(req);
    // One more than the page holds: whether a next page exists, without counting the channel.
    const [record, listed, following] = await Promise.all([store.getChannel(id), store.listFeedEntries(id, page * PAGE_SIZE + 1, ALL_KINDS), follows(signed, id)]);
    if (record === null && listed.length === 0) return notFound(req, res, signed, 'channelUnknown');
    const ctx = kit.context(req, signed);
    const rows: VideoRow[] = listed.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((v) => ({ videoId: v.videoId, video: v }));
    const waiting = listed.length === 0 && record !== null ? waitingText(req, signed, record, false) : null;
    const body = channelBody(ctx.words, ctx.locale, {
      ...view(req, signed, 'channel', id, following, id, `channel_id=${id}`),
      waiting, rows, page, hasNext: listed.length > page * PAGE_SIZE,
    });
    kit.send(res, 200, renderPage(ctx, record?.title ?? id, body));
  });

  const playlist = kit.reading(async (req, res, signed) => {
    const id = String(req.params.id);
    if (!isPlaylistId(id)) return notFound(req, res, signed, 'playlistUnknown');
    const page = pageOf(req);
    const [record, listing, following] = await Promise.all([store.getChannel(id), store.getPlaylist(id), follows(signed, id)]);
    if (record === null && listing === null) return notFound(req, res, signed, 'playlistUnknown');
    const ctx = kit.context(req, signed);
    const title = listing?.title?.trim() || id;
    if (listing?.state === 'private' || listing?.state === 'deleted') {
      return kit.send(res, 404, renderPage(ctx, title, ctx.words[listing.state === 'private' ? 'playlistPrivate' : 'playlistDeleted']));
    }
    // In the playlist's own order; only this page's entries are read.
    const ids = (listing?.videoIds ?? []).slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    const stored = new Map((ids.length === 0 ? [] : await store.getVideos(ids)).map((v) => [v.videoId, v]));
    const rows: VideoRow[] = ids.map((videoId) => ({ videoId, video: stored.get(videoId) ?? null }));
    const nothingYet = listing === null || listing.videoIds.length === 0 || (page === 1 && stored.size === 0);
    const waiting = nothingYet && record !== null ? waitingText(req, signed, record, true) : null;
    const body = channelBody(ctx.words, ctx.locale, {
      ...view(req, signed, 'playlist', id, following, `https://www.${PUBLIC_VIDEO_HOST}/playlist?list=${id}`, `playlist_id=${id}`),
      waiting, rows, page, hasNext: (listing?.videoIds.length ?? 0) > page * PAGE_SIZE,
    });
    kit.send(res, 200, renderPage(ctx, title, body));
  });

  return { channel, playlist };
}
