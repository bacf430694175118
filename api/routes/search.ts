// GET /search: a saved search as a feed. Validate (api/query/search-query.ts) → resolve the named
// channels → one store search → strong validators over everything the body is made of → the
// shared tail (http/feed-answer.ts: 304, or the feed rendered once per ETag and kept in the app's
// one cache). No match is an empty feed, never a 404: a reader keeps the subscription and new
// matches arrive as they are stored.

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlatformClient } from '../../shared/platform/types';
import type { SearchHit, SearchScope, VideoRecord, SearchFeedStore } from '../../shared/store/types';
import type { AnswerFeed } from '../http/feed-answer';
import { ApiError } from '../errors';
import { buildSearchModel } from '../feed/search-model';
import type { Validators } from '../feed/state';
import { keyIdOf, queryOf } from '../http/locals';
import type { RawQuery } from '../query/feed-query';
import { validateSearchQuery, type SearchRequest } from '../query/search-query';
import { ChannelResolver, type HandleLookupLimits } from '../resolve-channel';
import { INCLUDE_NAMES, linkKeyOf, originOf, RENDERERS } from './feed';

export interface SearchDeps {
  store: SearchFeedStore;
  /** What the API's handle lookups may spend (resolve-channel.ts). */
  handleLookups?: HandleLookupLimits;
  platform: Pick<PlatformClient, 'resolveHandle'>;
  clock: () => Date;
  /** The shared tail: 304, cached body, content coding (api/http/feed-answer.ts). */
  answer: AnswerFeed;
  trustProxy: (address: string, hop: number) => boolean;
  publicBaseUrl: string | null;
}

/** The self link's query: the validated parameters in one order and spelling (never api_key). */
function selfQuery(s: SearchRequest, raw: RawQuery, channelIds: readonly string[]): string {
  const params = new URLSearchParams({ q: s.text });
  for (const id of channelIds) params.append('channel_id', id);
  if (s.subscriptions) params.set('subscriptions', '1');
  if (typeof raw.format === 'string' && raw.format !== '') params.set('format', RENDERERS[s.format].name);
  if (typeof raw.max_items === 'string' && raw.max_items !== '') params.set('max_items', String(s.maxItems));
  const included = Object.entries(INCLUDE_NAMES).filter(([kind]) => (s.kinds as readonly string[]).includes(kind)).map(([, name]) => name);
  if (included.length > 0) params.set('include', included.join(','));
  if (s.languages !== null) params.set('lang', s.languages.join(','));
  return params.toString();
}

/** The video's entry in its channel's feed: the kinds and languages it is shown with, the reader's key. */
function channelFeedUrl(origin: string, s: SearchRequest, linkKey: string): (v: VideoRecord) => string {
  return (v) => {
    const params = new URLSearchParams({ channel_id: v.channelId });
    const include = v.videoKind !== null ? INCLUDE_NAMES[v.videoKind as keyof typeof INCLUDE_NAMES] : undefined;
    if (include !== undefined) params.set('include', include);
    if (s.languages !== null) params.set('lang', s.languages.join(','));
    if (linkKey !== '') params.set('api_key', linkKey);
    return `${origin}/?${params.toString()}`;
  };
}

/** Newest stored change among the hits: their videos and every transcript they were matched on. */
function newestChange(hits: readonly SearchHit[]): Date {
  let ms = 0;
  for (const h of hits) {
    ms = Math.max(ms, h.video.fetchedAt.getTime());
    for (const t of h.transcripts) ms = Math.max(ms, t.fetchedAt.getTime());
  }
  return new Date(ms);
}

/** Strong: the digest covers every input of the body, so equal tags mean byte-equal bodies. */
function validatorsOf(parts: readonly string[], updated: Date): Validators {
  const digest = createHash('sha256').update(parts.join('\n')).digest('base64url');
  return { etag: `"${digest.slice(0, 27)}"`, lastModified: updated.toUTCString() };
}

export function search(deps: SearchDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const resolver = new ChannelResolver(deps.store, deps.platform, deps.handleLookups);

  return async (req, res) => {
    const raw = queryOf(req);
    const checked = validateSearchQuery(raw);
    if (!checked.ok) throw new ApiError(checked.error, checked.context);
    const s = checked.value;
    const now = deps.clock();

    const named: string[] = [];
    for (const ref of s.channels) {
      const { channelId } = await resolver.resolve(ref, now, keyIdOf(res));
      if (!named.includes(channelId)) named.push(channelId);
    }
    let channelIds: string[] | null = named.length > 0 ? named : null;
    if (s.subscriptions) {
      // The key's followed channels (handles the crawler has not resolved yet have no videos).
      const keyId = keyIdOf(res);
      const followed = keyId === undefined ? [] : (await deps.store.listSubscriptions(keyId)).flatMap((sub) => (sub.channelId === null ? [] : [sub.channelId]));
      channelIds = channelIds === null ? followed : channelIds.filter((id) => followed.includes(id));
    }
    const scope: SearchScope = { channelIds, kinds: s.kinds };
    const hits = await deps.store.searchVideos(s.query, scope, s.maxItems);

    const channelNames = new Map<string, string>();
    for (const id of new Set(hits.map((h) => h.video.channelId))) {
      const title = (await deps.store.getChannel(id))?.title?.trim();
      if (title) channelNames.set(id, title);
    }

    const origin = originOf(req, deps);
    const selfUrl = `${origin}/search?${selfQuery(s, raw, named)}`;
    const linkKey = linkKeyOf(req, raw);
    const updated = newestChange(hits);
    const v = validatorsOf(
      [
        s.format,
        selfUrl,
        linkKey === '' ? '' : createHash('sha256').update(linkKey).digest('hex'),
        String(updated.getTime()),
        ...hits.map((h) => `${h.video.videoId}:${h.video.fetchedAt.getTime()}:${h.transcripts.map((t) => `${t.language}@${t.fetchedAt.getTime()}`).join(',')}`),
        ...[...channelNames].map(([id, name]) => `${id}=${name}`),
      ],
      updated,
    );
    await deps.answer(req, res, {
      route: '/search',
      validators: v,
      contentType: RENDERERS[s.format].contentType,
      render: async () => {
        const model = buildSearchModel({ text: s.text, query: s.query, hits, channelNames, languages: s.languages, updated, selfUrl, wholeTranscriptUrl: channelFeedUrl(origin, s, linkKey) });
        return { body: Buffer.from(RENDERERS[s.format].render(model), 'utf8'), validators: v };
      },
    });
  };
}
