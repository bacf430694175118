// The links a subscription list hands out: each channel's transcript feed on this service (from
// PUBLIC_BASE_URL when set, else the address the request came to), carrying the caller's api_key so
// that a reader can use it as is, and the channel's page on the platform; the same for a playlist.

import type { IncomingMessage } from 'node:http';
import type { FollowRef } from './channel-refs';
import { presentedKey } from '../http/keyed';
import { queryOf } from '../http/request-state';
import { requestOrigin } from '../http/origin';
import { PUBLIC_VIDEO_HOST } from '../../shared/video-links';
import { normalizeHandle } from '../../shared/channel-ref';

export interface LinkDeps {
  publicBaseUrl: string | null;
  trustProxy: (address: string, hop: number) => boolean;
}

const feedParam = (ref: FollowRef): string =>
  ref.kind === 'id' ? `channel_id=${ref.channelId}` : ref.kind === 'playlist' ? `playlist_id=${ref.playlistId}` : `channel=${encodeURIComponent(normalizeHandle(ref.handle))}`;
const pagePath = (ref: FollowRef): string =>
  ref.kind === 'id' ? `channel/${ref.channelId}` : ref.kind === 'playlist' ? `playlist?list=${ref.playlistId}` : `@${encodeURIComponent(ref.handle)}`;

export interface Links {
  feedUrl(ref: FollowRef): string;
  pageUrl(ref: FollowRef): string;
}

/** Builds the feed and page links of one request's answer. */
export function linksFor(req: IncomingMessage, deps: LinkDeps): Links {
  return linksAt(deps.publicBaseUrl ?? requestOrigin(req, deps.trustProxy), presentedKey(req, queryOf(req)));
}

/** The same links from a known origin and key (the web app's: its session stands for the key). */
export function linksAt(origin: string, key: string | null): Links {
  const keyParam = key === null ? '' : `&api_key=${encodeURIComponent(key)}`;
  return {
    feedUrl: (ref) => `${origin}/?${feedParam(ref)}${keyParam}`,
    pageUrl: (ref) => `https://www.${PUBLIC_VIDEO_HOST}/${pagePath(ref)}`,
  };
}
