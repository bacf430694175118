// The three ways a client names a channel, reduced to a channel id or a handle: the one parser the
// API (request validation) and the platform client (resolve_url) share. Channel URLs are matched as
// text, not through the WHATWG URL parser, because that parser forgives too much (default ports,
// backslashes, credentials, percent-encoded hosts) for a strict allow-list.

import { CHANNEL_ID } from './ids';

/** Lower-cased handle without a leading `@`: "@SomeName" and "somename" are one key everywhere (the platform ignores case),
 * in the store, in cache keys and in the links the service writes. */
export function normalizeHandle(handle: string): string {
  return handle.trim().replace(/^@/, '').toLowerCase();
}

export type ChannelRef = { readonly kind: 'id'; readonly channelId: string } | { readonly kind: 'handle'; readonly handle: string };

const HANDLE = /^@?([A-Za-z0-9_-]{1,30})$/;

/**
 * Scheme and host compare case-insensitively (as URLs do); the path is exact. One trailing slash is
 * accepted; a query, fragment, port, credentials or any further path segment is not.
 */
const CHANNEL_URL = /^https:\/\/(?:www\.)?youtube\.com(\/.*)$/i;
const CHANNEL_PATH = new RegExp(`^/(?:channel/(${CHANNEL_ID.source.slice(1, -1)})|@([A-Za-z0-9_-]{1,30}))/?$`);

/** `@name` or `name` → the handle without `@`, case kept (the platform ignores case). */
export function parseHandle(raw: string): ChannelRef | null {
  const m = HANDLE.exec(raw);
  return m ? { kind: 'handle', handle: m[1]! } : null;
}

export function parseChannelUrl(raw: string): ChannelRef | null {
  const url = CHANNEL_URL.exec(raw);
  if (!url) return null;
  const p = CHANNEL_PATH.exec(url[1]!);
  if (!p) return null;
  return p[1] !== undefined ? { kind: 'id', channelId: p[1] } : { kind: 'handle', handle: p[2]! };
}
