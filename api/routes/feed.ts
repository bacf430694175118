// GET /: validate → resolve the channel → register the work item → feed state (version, count)
// → 404, 304 or the feed. Conditional GET and the render cache are steps of their own
// (feed/conditional.ts, feed/render-cache.ts); rendering itself is pure (feed/atom.ts, feed/rss.ts).

import type { Request, Response } from 'express';
import type { PlatformClient } from '../../shared/platform/types';
import type { Store } from '../../shared/store/types';
import { ApiError } from '../errors';
import { renderAtom, ATOM_CONTENT_TYPE } from '../feed/atom';
import { renderRss, RSS_CONTENT_TYPE } from '../feed/rss';
import { buildFeedModel } from '../feed/build-model';
import { notModified, validatorsFor, type Validators } from '../feed/conditional';
import { FeedStateReader, type FeedState } from '../feed/feed-state';
import { RenderCache } from '../feed/render-cache';
import { queryOf, setChannelId } from '../http/locals';
import type { Handler } from '../http/rate-limit';
import { withoutApiKey } from '../http/strip-api-key';
import { validateFeedQuery } from '../query/feed-query';
import { ChannelResolver } from '../resolve-channel';
import { ChannelRegistrar } from '../channel-registrar';

export interface FeedDeps {
  store: Pick<Store, 'getHandle' | 'putHandle' | 'registerChannel' | 'listFeedEntries' | 'feedVersion'>;
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

/**
 * This request's own URL, minus api_key, for link rel="self". `req.protocol` and `req.host` follow
 * X-Forwarded-Proto/Host only when TRUST_PROXY trusts the peer.
 */
function selfUrlOf(req: Request): string {
  const host = req.host !== undefined && HOST.test(req.host) ? req.host : 'localhost';
  return `${req.protocol}://${host}${withoutApiKey(req.originalUrl)}`;
}

export function feed(deps: FeedDeps): Handler {
  const resolver = new ChannelResolver(deps.store, deps.platform);
  const registrar = new ChannelRegistrar(deps.store);
  const states = new FeedStateReader(deps.store);
  const cache = new RenderCache(deps.renderCacheBytes);

  return async (req, res) => {
    const checked = validateFeedQuery(queryOf(req));
    if (!checked.ok) throw new ApiError(checked.error, checked.context);
    const { channel: ref, format, maxItems } = checked.value;
    const now = deps.clock();

    const { channelId, handle } = await resolver.resolve(ref, now);
    setChannelId(res, channelId);
    const channel = await registrar.register({ channelId, wanted: maxItems, handle }, now);
    let state = await states.read(channelId, maxItems, now);
    if (state === null) throw new ApiError('noVideosYet', { channelId });

    const selfUrl = selfUrlOf(req);
    const author = channel.title?.trim() || channelId;
    const validators = (s: FeedState) => validatorsFor({ channelId, format, maxItems, version: s.version, count: s.count, fingerprint: s.fingerprint, author, selfUrl });
    let v = validators(state);
    if (notModified(req.headers, v)) {
      sendValidators(res, v);
      res.statusCode = 304;
      res.end();
      return;
    }

    let body = cache.get(v.etag);
    if (body === undefined) {
      if (state.videos === null) {
        // Render-cache miss on a remembered state: list now; if the entries moved meanwhile, the
        // validators follow what is rendered.
        state = (await states.list(channelId, maxItems, state.version, now)) ?? state;
        v = validators(state);
      }
      const model = buildFeedModel({ channelId, channelTitle: channel.title, videos: state.videos ?? [], updated: state.version, selfUrl });
      body = Buffer.from(format === 'rss' ? renderRss(model) : renderAtom(model), 'utf8');
      cache.set(v.etag, body);
    }
    sendValidators(res, v);
    res.statusCode = 200;
    res.setHeader('Content-Type', format === 'rss' ? RSS_CONTENT_TYPE : ATOM_CONTENT_TYPE);
    res.setHeader('Content-Length', body.length);
    res.end(body);
  };
}

function sendValidators(res: Response, v: Validators): void {
  res.setHeader('ETag', v.etag);
  res.setHeader('Last-Modified', v.lastModified);
  res.setHeader('Cache-Control', FEED_CACHE_CONTROL);
}
