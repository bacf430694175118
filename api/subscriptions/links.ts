// The links a subscription list hands out: each channel's transcript feed on this service (from
// PUBLIC_BASE_URL when set, else the address the request came to), carrying the caller's api_key so
// that a reader can use it as is, and the channel's page on the platform.

import type { IncomingMessage } from 'node:http';
import type { ChannelRef } from '../../shared/channel-ref';
import { presentedKey } from '../http/keyed';
import { queryOf } from '../http/locals';
import { requestOrigin } from '../routes/feed';
import { PUBLIC_VIDEO_HOST } from '../service-info';

export interface LinkDeps {
  publicBaseUrl: string | null;
  trustProxy: (address: string, hop: number) => boolean;
}

/** Builds the feed and page links of one request's answer. */
export function linksFor(req: IncomingMessage, deps: LinkDeps): { feedUrl(ref: ChannelRef): string; pageUrl(ref: ChannelRef): string } {
  const origin = deps.publicBaseUrl ?? requestOrigin(req, deps.trustProxy);
  const key = presentedKey(req, queryOf(req));
  const keyParam = key === null ? '' : `&api_key=${encodeURIComponent(key)}`;
  return {
    feedUrl: (ref) => `${origin}/?${ref.kind === 'id' ? `channel_id=${ref.channelId}` : `channel=${encodeURIComponent(ref.handle.toLowerCase())}`}${keyParam}`,
    pageUrl: (ref) => `https://www.${PUBLIC_VIDEO_HOST}/${ref.kind === 'id' ? `channel/${ref.channelId}` : `@${encodeURIComponent(ref.handle)}`}`,
  };
}
