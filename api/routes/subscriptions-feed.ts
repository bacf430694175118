// GET /subscriptions/feed: one feed of everything the key follows, newest first, each entry naming
// its channel. One store query (subscriptionFeed) lists the entries without their transcripts;
// their ids, write times and channel names make the strong ETag, so a cache-warm or conditional
// request reads nothing else: the shared tail (http/feed-answer.ts) answers a 304, or the rendered
// body from the app's cache. Only a miss reads the full records and transcripts and renders, a few
// at a time.

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import PQueue from 'p-queue';
import { categoryLogger, type Logger } from '../../shared/logger';
import type { SubscriptionFeedEntry, SubscriptionFeedStore, SummaryKey } from '../../shared/store/types';
import type { ApiCache } from '../cache';
import { ApiError } from '../errors';
import { buildFeedModel, STATE_TTL_MS, validatorsFor, type FeedModel, type Validators } from '../feed/state';
import { requireKeyId, queryOf } from '../http/request-state';
import { validateCombinedFeedQuery, type FeedOptions } from '../query/feed-query';
import { FEED_TITLE_PREFIX } from '../service-info';
import { PUBLIC_VIDEO_HOST } from '../../shared/video-links';
import { INCLUDE_NAMES, RENDERERS } from '../feed/renderers';
import { requestOrigin } from '../http/origin';
import { defaultSummaryKey, readSummaries, type FeedSummaries } from '../feed/summaries';
import type { AnswerFeed } from '../http/feed-answer';
import { remembered } from '../../shared/ttl-memo';

export interface CombinedFeedDeps {
  store: SubscriptionFeedStore;
  cache: ApiCache;
  clock: () => Date;
  /** The shared tail: 304, cached body, content coding (api/http/feed-answer.ts). */
  answer: AnswerFeed;
  logger: Logger;
  maxRenders?: number;
  publicBaseUrl: string | null;
  trustProxy: (address: string, hop: number) => boolean;
  /** Which stored summaries `summary=` shows; left out: the defaults. */
  summaryKey?: SummaryKey;
}

/** The combined feed's id, title and links: the same for every key, its entries are what differ. */
export const COMBINED_FEED_PATH = '/subscriptions/feed';

/** Digest of what the listed entries put in the body: which videos, their write times, their channel names. */
function fingerprintOf(entries: readonly SubscriptionFeedEntry[]): string {
  const h = createHash('sha256');
  for (const e of entries) h.update(`${e.videoId}:${e.fetchedAt.getTime()}:${e.channelId}:${e.channelTitle ?? ''}\n`);
  return h.digest('base64url').slice(0, 22);
}

/** This request's own URL for link rel="self": the validated options in one order and spelling, never api_key. */
function selfQuery(o: FeedOptions, raw: Readonly<Record<string, unknown>>): string {
  const params: string[] = [];
  if (typeof raw.format === 'string' && raw.format !== '') params.push(`format=${RENDERERS[o.format].name}`);
  if (typeof raw.max_items === 'string' && raw.max_items !== '') params.push(`max_items=${o.maxItems}`);
  const included = o.kinds.flatMap((k) => INCLUDE_NAMES[k] ?? []);
  if (included.length > 0) params.push(`include=${included.join(',')}`);
  if (o.languages !== null) params.push(`lang=${o.languages.join(',')}`);
  if (o.summary !== 'off') params.push(`summary=${o.summary === 'on' ? '1' : 'only'}`);
  return params.length === 0 ? '' : `?${params.join('&')}`;
}

/** What a listing decided, kept while the store's version token stays the same (and at most STATE_TTL_MS). */
interface Listed {
  token: string;
  shape: Shape;
  at: number;
}

/** What of a listing enters the validators, and the ids `summary=` reads summaries for. */
interface Shape {
  version: Date;
  count: number;
  fingerprint: string;
  ids: readonly string[];
}

// Nothing stored yet (or nothing followed): an empty feed, last modified at the epoch.
const shapeOf = (entries: readonly SubscriptionFeedEntry[]): Shape => ({
  version: new Date(entries.reduce((max, e) => Math.max(max, e.fetchedAt.getTime()), 0)),
  count: entries.length,
  fingerprint: fingerprintOf(entries),
  ids: entries.map((e) => e.videoId),
});

export type CombinedFeedHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function combinedFeed(deps: CombinedFeedDeps): CombinedFeedHandler {
  const renders = new PQueue({ concurrency: deps.maxRenders ?? 2 });
  const listings = deps.cache.slot<Listed>('combined-feed-state');
  const etags = deps.cache.slot<Validators>('validators');
  const log = categoryLogger(deps.logger, 'api.feed');

  const summaryKey = deps.summaryKey ?? defaultSummaryKey();
  const validatorsOf = (shape: Shape, o: FeedOptions, selfUrl: string, summaries: FeedSummaries): Validators =>
    validatorsFor({ channelId: COMBINED_FEED_PATH, format: o.format, maxItems: o.maxItems, version: shape.version, count: shape.count, fingerprint: shape.fingerprint, author: FEED_TITLE_PREFIX, selfUrl, summaries: summaries.fingerprint }, etags);

  return async (req, res) => {
    const raw = queryOf(req);
    const checked = validateCombinedFeedQuery(raw);
    if (!checked.ok) throw new ApiError(checked.error, checked.context);
    const options = checked.value;
    const { format, maxItems, kinds, languages, summary: summaryMode } = options;

    const keyId = requireKeyId(res);
    const now = deps.clock().getTime();
    const origin = deps.publicBaseUrl ?? requestOrigin(req, deps.trustProxy);
    const selfUrl = `${origin}${COMBINED_FEED_PATH}${selfQuery(options, raw)}`;
    // A cache-warm request reads one version token; the entries are listed only when it moved.
    const token = await deps.store.subscriptionFeedVersion(keyId);
    const stateKey = `${keyId}\n${format}\n${maxItems}\n${kinds.join(',')}\n${selfUrl}`;
    const seen = remembered(listings, stateKey, now, STATE_TTL_MS);
    let entries: readonly SubscriptionFeedEntry[] | null = null;
    let shape: Shape;
    if (seen !== undefined && seen.token === token) {
      shape = seen.shape;
    } else {
      entries = await deps.store.subscriptionFeed(keyId, maxItems, kinds);
      shape = shapeOf(entries);
      listings.set(stateKey, { token, shape, at: now });
    }
    // Stored summaries only (no model call): read each request, their digest is in the ETag.
    const summaries = await readSummaries(deps.store, shape.ids, summaryKey);
    const v = validatorsOf(shape, options, selfUrl, summaries);
    await deps.answer(req, res, {
      route: COMBINED_FEED_PATH,
      validators: v,
      contentType: RENDERERS[format].contentType,
      render: () =>
        renders.add(async () => {
          // A render needs the entries: listed now when this request reused remembered validators,
          // and the answer then carries the validators of what is rendered.
          const listed = entries ?? (await deps.store.subscriptionFeed(keyId, maxItems, kinds));
          const rv = entries === null ? validatorsOf(shapeOf(listed), options, selfUrl, summaries) : v;
          const ids = listed.map((e) => e.videoId);
          const [videos, transcripts] = await Promise.all([deps.store.getVideos(ids), deps.store.getTranscripts(ids)]);
          const model = buildFeedModel({ channelId: COMBINED_FEED_PATH, channelTitle: null, videos, transcripts, languages, updated: new Date(rv.lastModified), selfUrl, summaryMode, summaries }, (video, reason) =>
            log.warning({ videoId: String(video.videoId), reason }, `stored video skipped: its ${reason} cannot be rendered`),
          );
          const names = new Map(listed.map((e) => [e.videoId, e.channelTitle?.trim() || e.channelId]));
          const combined: FeedModel = {
            ...model,
            channelId: `${origin}${COMBINED_FEED_PATH}`,
            title: `${FEED_TITLE_PREFIX} - subscriptions`,
            author: FEED_TITLE_PREFIX,
            description: 'Transcripts of the newest videos of every followed channel',
            link: `https://www.${PUBLIC_VIDEO_HOST}/feed/subscriptions`,
            entries: model.entries.map((e) => ({ ...e, author: names.get(e.videoId) ?? '' })),
          };
          return { body: Buffer.from(RENDERERS[format].render(combined), 'utf8'), validators: rv };
        }),
    });
  };
}
