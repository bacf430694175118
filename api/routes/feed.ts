// GET /: validate → resolve the channel → register the work item → read what is stored → 404 or
// the feed. Conditional GET and the render cache are steps of their own (feed/conditional.ts,
// feed/render-cache.ts); rendering itself is pure (feed/atom.ts, feed/rss.ts).

import type { Request, RequestHandler } from 'express';
import type { PlatformClient } from '../../shared/platform/types';
import type { Store } from '../../shared/store/types';
import { ApiError } from '../errors';
import { renderAtom, ATOM_CONTENT_TYPE } from '../feed/atom';
import { renderRss, RSS_CONTENT_TYPE } from '../feed/rss';
import { buildFeedModel } from '../feed/build-model';
import { notModified, validatorsFor } from '../feed/conditional';
import { RenderCache } from '../feed/render-cache';
import { queryOf, setChannelId } from '../http/locals';
import { withoutApiKey } from '../http/strip-api-key';
import { validateFeedQuery } from '../query/feed-query';
import { ChannelResolver } from '../resolve-channel';

export interface FeedDeps {
  store: Pick<Store, 'getHandle' | 'putHandle' | 'registerChannel' | 'listFeedEntries'>;
  platform: Pick<PlatformClient, 'resolveHandle'>;
  clock: () => Date;
  renderCacheBytes?: number;
}

/**
 * Private: the body is the same for every key, but the response carries the key's rate-limit
 * state and often the key itself in the URL. A minute lets readers skip refetching; after that
 * they revalidate cheaply with If-None-Match.
 */
export const FEED_CACHE_CONTROL = 'private, max-age=60';

const HOST = /^[A-Za-z0-9.\-:[\]]{1,255}$/;

/** This request's own URL, minus api_key, for link rel="self". */
function selfUrl(req: Request): string {
  const host = req.headers.host !== undefined && HOST.test(req.headers.host) ? req.headers.host : 'localhost';
  return `${req.protocol}://${host}${withoutApiKey(req.originalUrl)}`;
}

export function feed(deps: FeedDeps): RequestHandler {
  const resolver = new ChannelResolver(deps.store, deps.platform);
  const cache = new RenderCache(deps.renderCacheBytes);

  return async (req, res) => {
    const checked = validateFeedQuery(queryOf(req));
    if (!checked.ok) throw new ApiError(checked.error, checked.context);
    const { channel: ref, format, maxItems } = checked.value;
    const now = deps.clock();

    const { channelId, handle } = await resolver.resolve(ref, now);
    setChannelId(res, channelId);
    const channel = await deps.store.registerChannel({ channelId, wanted: maxItems, handle }, now);
    const videos = await deps.store.listFeedEntries(channelId, maxItems);
    if (videos.length === 0) throw new ApiError('noVideosYet', { channelId });

    const self = selfUrl(req);
    const author = channel.title?.trim() || channelId;
    const v = validatorsFor({ channelId, format, maxItems, videos, author, selfUrl: self });
    res.setHeader('ETag', v.etag);
    res.setHeader('Last-Modified', v.lastModified);
    res.setHeader('Cache-Control', FEED_CACHE_CONTROL);
    if (notModified(req.headers, v)) {
      res.status(304).end();
      return;
    }

    let body = cache.get(v.etag);
    if (body === undefined) {
      const model = buildFeedModel({ channelId, channelTitle: channel.title, videos, updated: new Date(v.lastModifiedMs), selfUrl: self });
      body = Buffer.from(format === 'rss' ? renderRss(model) : renderAtom(model), 'utf8');
      cache.set(v.etag, body);
    }
    res.status(200);
    res.setHeader('Content-Type', format === 'rss' ? RSS_CONTENT_TYPE : ATOM_CONTENT_TYPE);
    res.setHeader('Content-Length', body.length);
    res.end(body);
  };
}
