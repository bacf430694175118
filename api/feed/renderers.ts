// Each feed format's renderer, Content-Type and name as the self link spells it, and the names of
// the kinds `include` adds: the channel, playlist, search and subscriptions feeds share them.

import type { FeedKind } from '../../shared/store/types';
import type { FeedFormat } from '../query/feed-query';
import { JSON_FEED_CONTENT_TYPE, renderJsonFeed } from './json-feed';
import { needsDublinCore, renderAtom, renderRss, ATOM_CONTENT_TYPE, RSS_CONTENT_TYPE } from './render';
import type { StepShape } from './render-in-steps';

/** Each format: its renderer, Content-Type, and its name as the self link spells it. */
export const RENDERERS: Readonly<Record<FeedFormat, StepShape & { contentType: string; name: string }>> = {
  atom: { render: renderAtom, contentType: ATOM_CONTENT_TYPE, name: 'Atom', tail: '</feed>', separator: '' },
  rss: { render: renderRss, contentType: RSS_CONTENT_TYPE, name: 'Rss', tail: '</channel></rss>', separator: '', head: (entries) => ({ dublinCore: needsDublinCore(entries) }) },
  json: { render: renderJsonFeed, contentType: JSON_FEED_CONTENT_TYPE, name: 'Json', tail: ']}', separator: ',' },
};
/** Each kind `include` can add, as the self link spells it. */
export const INCLUDE_NAMES: Readonly<Partial<Record<FeedKind, string>>> = { short: 'shorts', live: 'live' };
