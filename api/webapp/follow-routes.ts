// Home (GET /app/) and the follow actions. POST /app/follow (csrf, channel, optional back) takes
// anything GET / takes in one field and follows it exactly as a feed request does
// (registration/following.ts: the same refusals, the same per-key new-channel budget); POST
// /app/unfollow (csrf, ref, optional back) is DELETE /subscriptions/<ref> (subscriptions/unfollow.ts).
// Both are kit.posting forms: another site's post or one without the session's token is refused.
// A refused follow is the home page with the refusal in words, at the JSON API's status.

import type { Request, RequestHandler, Response } from 'express';
import { CHANNEL_ID } from '../../shared/ids';
import { isPlaylistId } from '../../shared/playlist-ref';
import { ApiError, errorBody } from '../errors';
import { field } from '../http/answer';
import { DEFAULT_MAX_ITEMS, validateFeedQuery, type RawQuery } from '../query/feed-query';
import { isPlaylistQuery, validatePlaylistQuery } from '../query/playlist-query';
import { unfollowRef } from '../subscriptions/unfollow';
import { appPathOf, homeBody } from './home-page';
import type { AppKit, SignedIn } from './kit';
import { renderPage } from './pages';

/** The newest videos of everything followed that home lists. */
export const HOME_NEWEST = 20;

export interface HomeRoutes {
  home: RequestHandler;
  follow: RequestHandler[];
  unfollow: RequestHandler[];
}

/** The Add box's one field as the GET / parameter it is: a URL, a channel id, a playlist id, else a handle. */
export function feedQueryOf(input: string): RawQuery {
  const v = input.trim();
  if (/^https?:\/\//i.test(v)) return /\/playlist\?/i.test(v) ? { playlist_url: v } : { channel_url: v };
  if (CHANNEL_ID.test(v)) return { channel_id: v };
  if (isPlaylistId(v)) return { playlist_id: v };
  return { channel: v };
}

/** `back` when it is a path of the app's own (never another site, never `//host`), else null. */
const backOf = (raw: unknown): string | null => (typeof raw === 'string' && /^\/app\/[^\s\\]*$/.test(raw) ? raw : null);

export function homeRoutes(kit: AppKit): HomeRoutes {
  const { store, clock } = kit.deps;

  async function showHome(req: Request, res: Response, signed: SignedIn, status: number, input: string, error: string | null): Promise<void> {
    const keyId = signed.key.keyId;
    const [followed, entries] = await Promise.all([store.followedOverview(keyId), store.subscriptionFeed(keyId, HOME_NEWEST)]);
    const newest = entries.length === 0 ? [] : await store.getVideos(entries.map((e) => e.videoId));
    const ctx = kit.context(req, signed);
    kit.send(res, status, renderPage(ctx, ctx.words.home, homeBody(ctx.words, ctx.locale, signed.session.csrf, { followed, newest, input, error }, clock())));
  }

  /** An ApiError as the page says it (the JSON API's words and status); anything else goes on to the 500. */
  const refusal = (err: unknown): { status: number; text: string } => {
    if (!(err instanceof ApiError) || err.status >= 500) throw err;
    const body = errorBody(err.code, err.context);
    return { status: err.status, text: body.message === undefined ? body.error : `${body.error} (${body.message})` };
  };

  const home = kit.reading((req, res, signed) => showHome(req, res, signed, 200, '', null));

  const follow = kit.posting(async (req, res, signed, body) => {
    const input = typeof body.channel === 'string' ? body.channel : '';
    const keyId = signed.key.keyId;
    const now = clock();
    const query = feedQueryOf(input);
    let target: string;
    try {
      if (isPlaylistQuery(query)) {
        const checked = validatePlaylistQuery(query);
        if (!checked.ok) throw new ApiError(checked.error, checked.context);
        await kit.follow.playlist(checked.value.playlistId, keyId, DEFAULT_MAX_ITEMS, now);
        target = appPathOf({ kind: 'playlist' }, checked.value.playlistId);
      } else {
        const checked = validateFeedQuery(query);
        if (!checked.ok) throw new ApiError(checked.error, checked.context);
        const resolved = await kit.follow.resolve(checked.value.channel, keyId, DEFAULT_MAX_ITEMS, now);
        await kit.follow.channel(resolved, keyId, DEFAULT_MAX_ITEMS, now);
        target = appPathOf({ kind: 'channel' }, resolved.channelId);
      }
    } catch (err) {
      const { status, text } = refusal(err);
      if (err instanceof ApiError && err.status === 429) field(res, 'Retry-After', String(errorBody(err.code, err.context).retry_after ?? 60));
      kit.log.info({ event: 'webapp_follow_refused', code: err instanceof ApiError ? err.code : null }, 'app follow refused');
      return showHome(req, res, signed, status, input, text);
    }
    kit.seeOther(res, backOf(body.back) ?? target);
  });

  const unfollow = kit.posting(async (req, res, signed, body) => {
    const ref = typeof body.ref === 'string' ? body.ref : '';
    try {
      await unfollowRef(store, kit.followRecorder, signed.key.keyId, ref, clock());
    } catch (err) {
      const { status, text } = refusal(err);
      return showHome(req, res, signed, status, '', text);
    }
    kit.seeOther(res, backOf(body.back) ?? '/app/');
  });

  return { home, follow, unfollow };
}
