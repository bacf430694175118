// GET /: validate → resolve the channel → register the work item → feed state (version, count)
// → 404, or the validators handed to the shared tail (http/feed-answer.ts: 304, the cached body,
// its content coding). The feed state and model are one step (feed/state.ts); rendering is pure
// (feed/render.ts) and runs only when the tail finds no body under the ETag.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { categoryLogger, type Logger } from '../../shared/logger';
import type { PlatformClient } from '../../shared/platform/types';
import type { ChannelRecord, FeedKind, RegisterChannelInput, FeedStore, ChannelLookupStore, RegistrationStore } from '../../shared/store/types';
import { ApiCache, type CacheSlot } from '../cache';
import { ApiError } from '../errors';
import { crawlViewOf } from '../feed/crawl-view';
import type { AnswerFeed } from '../http/feed-answer';
import { JSON_FEED_CONTENT_TYPE, renderJsonFeed } from '../feed/json-feed';
import { needsDublinCore, renderAtom, renderRss, ATOM_CONTENT_TYPE, RSS_CONTENT_TYPE } from '../feed/render';
import { renderInSteps, type StepShape } from '../feed/render-in-steps';
import { RenderQueue } from '../feed/render-queue';
import { FeedStateReader, validatorsFor, type FeedState, type Validators } from '../feed/state';
import { keyIdOf, requireKeyId, queryOf, setChannelId } from '../http/locals';
import { FollowRecorder } from '../subscriptions/follow-recorder';
import { validateFeedQuery, type FeedFormat, type FeedOptions, type FeedQuery, type RawQuery } from '../query/feed-query';
import { ChannelResolver, type HandleLookupLimits } from '../resolve-channel';
import { normalizeHandle, type ChannelRef } from '../../shared/channel-ref';

export interface FeedDeps {
  store: FeedStore;
  platform: Pick<PlatformClient, 'resolveHandle'>;
  /** What the API's handle lookups may spend (resolve-channel.ts). */
  handleLookups?: HandleLookupLimits;
  /** CRAWL_NEW_CHANNELS_PER_KEY_HOUR: new channels one key may register in any hour; left out: no bound. */
  newChannelsPerKeyHour?: number;
  clock: () => Date;
  cache: ApiCache;
  logger: Logger;
  /** Feeds listed and rendered at once (API_MAX_RENDERS). */
  maxRenders?: number;
  /** Bytes the feeds being listed and rendered may hold together (API_RENDER_BYTES, default 64 MiB). */
  renderBytes?: number;
  /** Express's compiled `trust proxy` (TRUST_PROXY): whether X-Forwarded-* from this peer count. */
  trustProxy: (address: string, hop: number) => boolean;
  /**
   * PUBLIC_BASE_URL, or null: then the self link's scheme and host come from the request, so a
   * client that varies Host gets a new ETag and a fresh render each time (docs/operations.md).
   */
  publicBaseUrl: string | null;
  /** The shared tail: 304, cached body, content coding (api/http/feed-answer.ts). */
  answer: AnswerFeed;
}

/** The feed route on plain node:http objects: Express's GET / and the direct path both run it. */
export type FeedHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** Each format: its renderer, Content-Type, and its name as the self link spells it. */
export const RENDERERS: Readonly<Record<FeedFormat, StepShape & { contentType: string; name: string }>> = {
  atom: { render: renderAtom, contentType: ATOM_CONTENT_TYPE, name: 'Atom', tail: '</feed>', separator: '' },
  rss: { render: renderRss, contentType: RSS_CONTENT_TYPE, name: 'Rss', tail: '</channel></rss>', separator: '', head: (entries) => ({ dublinCore: needsDublinCore(entries) }) },
  json: { render: renderJsonFeed, contentType: JSON_FEED_CONTENT_TYPE, name: 'Json', tail: ']}', separator: ',' },
};

/** API_RENDER_BYTES' default. */
export const DEFAULT_RENDER_BYTES = 64 * 1024 * 1024;
/**
 * What a render holds beside its listed rows, as a multiple of them: the entries' HTML, the
 * document's pieces and its bytes.
 */
const RENDER_COPIES = 3;
/** A render that must wait keeps rows it has listed up to this size; larger ones are listed again in its turn. */
const ROWS_KEPT_WHILE_WAITING = 1024 * 1024;

/** Each kind `include` can add, as the self link spells it. */
export const INCLUDE_NAMES: Readonly<Partial<Record<FeedKind, string>>> = { short: 'shorts', live: 'live' };

const HOST = /^[A-Za-z0-9.\-:[\]]{1,255}$/;

/** First value of a header that proxies may repeat or list. */
function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return undefined;
  const comma = v.indexOf(',');
  return (comma < 0 ? v : v.slice(0, comma)).trim();
}

/**
 * This request's own URL for link rel="self", rebuilt from the validated query: only the spec's
 * parameters, in one order and spelling. api_key and unknown parameters never reach it, so they
 * can neither leak into the body nor make a new ETag that misses the render cache (spec: unknown
 * parameters are ignored). The address is PUBLIC_BASE_URL when set; else scheme and host follow
 * X-Forwarded-Proto/Host only when TRUST_PROXY trusts the peer, exactly as Express's req.protocol
 * and req.host do.
 */
function selfUrlOf(req: IncomingMessage, q: FeedQuery, raw: RawQuery, deps: Pick<FeedDeps, 'trustProxy' | 'publicBaseUrl'>): string {
  return `${originOf(req, deps)}/?${selfQuery(q, raw)}`;
}

/** The address this service is reached at: PUBLIC_BASE_URL, else what the request says (see above). */
export function originOf(req: IncomingMessage, deps: Pick<FeedDeps, 'trustProxy' | 'publicBaseUrl'>): string {
  return deps.publicBaseUrl ?? requestOrigin(req, deps.trustProxy);
}

/**
 * The api_key a feed's links to transcript files carry: the one the reader put in the feed's URL,
 * so a podcast app fetches the file as it is. None when the key came in the X-API-Key header
 * (which wins over the parameter): that client sends its header with the file request too.
 */
export function linkKeyOf(req: IncomingMessage, raw: RawQuery): string {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return '';
  return typeof raw.api_key === 'string' ? raw.api_key : '';
}

/** A video's WebVTT file as the feed links it: the feed's `lang` and the reader's api_key kept. */
export function transcriptFileUrl(origin: string, languages: readonly string[] | null, linkKey: string): (videoId: string) => string {
  const params = new URLSearchParams();
  if (languages !== null) params.set('lang', languages.join(','));
  if (linkKey !== '') params.set('api_key', linkKey);
  const query = params.size > 0 ? `?${params.toString()}` : '';
  return (videoId) => `${origin}/transcripts/${encodeURIComponent(videoId)}.vtt${query}`;
}

/** scheme://host the request was sent to, as far as this process can tell. */
export function requestOrigin(req: IncomingMessage, trust: FeedDeps['trustProxy']): string {
  const trusted = trust(req.socket.remoteAddress ?? '', 0);
  const forwardedProto = trusted ? first(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const proto = forwardedProto === 'http' || forwardedProto === 'https' ? forwardedProto : (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const forwardedHost = trusted ? first(req.headers['x-forwarded-host']) : undefined;
  const claimed = forwardedHost || req.headers.host;
  const host = claimed !== undefined && HOST.test(claimed) ? claimed : 'localhost';
  return `${proto}://${host}`;
}

/** The self link's query: the validated spec parameters in one order and spelling. */
function selfQuery(q: FeedQuery, raw: RawQuery): string {
  return [q.channel.kind === 'id' ? `channel_id=${q.channel.channelId}` : `channel=${normalizeHandle(q.channel.handle)}`, ...feedQueryTail(q, raw)].join('&');
}

/** The self link's parameters after the channel or playlist, each only when the request gave it. */
export function feedQueryTail(q: FeedOptions, raw: RawQuery): string[] {
  const params: string[] = [];
  if (typeof raw.format === 'string' && raw.format !== '') params.push(`format=${RENDERERS[q.format].name}`);
  if (typeof raw.max_items === 'string' && raw.max_items !== '') params.push(`max_items=${q.maxItems}`);
  const included = Object.entries(INCLUDE_NAMES).filter(([kind]) => q.kinds.includes(kind as FeedKind)).map(([, name]) => name);
  if (included.length > 0) params.push(`include=${included.join(',')}`);
  // Each language list is its own feed: its own self link, so its own ETag and render-cache entry.
  if (q.languages !== null) params.push(`lang=${q.languages.join(',')}`);
  return params;
}

export function feed(deps: FeedDeps): FeedHandler {
  const resolver = new ChannelResolver(deps.store, deps.platform, deps.handleLookups);
  const registrar = new ChannelRegistrar(deps.store, deps.cache, deps.newChannelsPerKeyHour);
  const titles = new ChannelTitles(deps.store, deps.cache);
  const follows = new FollowRecorder(deps.store, deps.cache);
  // A listed feed is in memory until it is rendered (tens of MB for long transcripts): listings and
  // renders run a few at a time and within a byte budget (render-queue.ts), each render in steps
  // that give the event loop back (render-in-steps.ts), and requests for the same representation
  // share one render (the answer's tail).
  const renders = new RenderQueue({ concurrency: deps.maxRenders ?? 2, bytes: deps.renderBytes ?? DEFAULT_RENDER_BYTES });
  const states = new FeedStateReader(deps.store, deps.cache, (work, bytes) => renders.run(bytes, work));
  const etags = deps.cache.slot<Validators>('validators');
  const log = categoryLogger(deps.logger, 'api.feed');

  /**
   * A handle the platform could not be asked about is followed by the key as an import follows it,
   * so the crawler resolves it when the platform answers again; the 404 is thrown on.
   */
  const queueUnreached = async (err: unknown, ref: ChannelRef, keyId: string, wanted: number, now: Date): Promise<never> => {
    if (err instanceof ApiError && err.code === 'handleNotReached' && ref.kind === 'handle') {
      await deps.store.follow(keyId, [{ handle: ref.handle }], 'feed', wanted, now);
      log.info({ handle: normalizeHandle(ref.handle) }, 'handle not resolved (platform unreachable or blocking); queued for the crawler');
    }
    throw err;
  };

  return async (req, res) => {
    const raw = queryOf(req);
    const checked = validateFeedQuery(raw);
    if (!checked.ok) throw new ApiError(checked.error, checked.context);
    const { channel: ref, format, maxItems, kinds, languages } = checked.value;
    const now = deps.clock();

    const { channelId, handle } = await resolver.resolve(ref, now, keyIdOf(res)).catch((err: unknown) => queueUnreached(err, ref, requireKeyId(res), maxItems, now));
    setChannelId(res, channelId);
    const channel = await registrar.register({ channelId, wanted: maxItems, handle, keyId: requireKeyId(res) }, now);
    await follows.record(requireKeyId(res), channelId, maxItems, now);
    if (languages !== null) await registrar.askLanguages(channelId, languages, now, requireKeyId(res));
    const state = await states.read(channelId, maxItems, now, kinds);
    if (state === null) throw new ApiError('noVideosYet', { channelId, crawl: crawlViewOf(channel, now) });

    const selfUrl = selfUrlOf(req, checked.value, raw, deps);
    const linkKey = linkKeyOf(req, raw);
    const channelTitle = await titles.at(channel, state.version);
    // The name is part of the ETag: when it arrives, readers get the named feed, never a 304.
    const author = channelTitle?.trim() || channelId;
    // The Atom document links no files, so its body (and ETag) is the same for every key.
    const fileLinks = format !== 'atom';
    const validators = (s: FeedState) => validatorsFor({ channelId, format, maxItems, version: s.version, count: s.count, fingerprint: s.fingerprint, author, selfUrl, linkKey: fileLinks ? linkKey : '' }, etags);
    const weight = RENDER_COPIES * states.estimate(channelId, maxItems);
    // Rows this request listed are used when its render can start at once, or when they are small;
    // large ones are let go while it waits and listed again in its turn, so waiting renders hold
    // no large feeds.
    let listed: FeedState | null = state.videos !== null && (!renders.wouldWait(weight) || weight <= ROWS_KEPT_WHILE_WAITING) ? state : null;
    const unlisted: FeedState = { ...state, videos: null, transcripts: null };
    const v = validators(state);
    await deps.answer(req, res, {
      route: '/',
      validators: v,
      contentType: RENDERERS[format].contentType,
      render: () => renders.run(weight, async () => {
        let s = listed ?? unlisted;
        listed = null;
        if (s.videos === null) {
          // Render-cache miss on a remembered state: list now; if the entries moved meanwhile, the
          // validators follow what is rendered.
          s = (await states.list(channelId, maxItems, s.version, now, kinds, false)) ?? s;
        }
        const files = fileLinks ? { transcriptFileUrl: transcriptFileUrl(originOf(req, deps), languages, linkKey) } : {};
        const out = await renderInSteps(RENDERERS[format], { channelId, channelTitle, videos: s.videos ?? [], transcripts: s.transcripts ?? [], languages, updated: s.version, selfUrl, ...files }, (video, reason) =>
          log.warning({ channelId, videoId: String(video.videoId), reason }, `stored video skipped: its ${reason} cannot be rendered`),
        );
        return { body: out, validators: validators(s) };
      }),
    });
  };
}

// ── the channel's name ────────────────────────────────────────────────────

/**
 * The channel's title for its feed at a version. The crawler names a channel before it stores the
 * first batch, so the store, read after the version was, has the name of every entry the feed
 * shows; the registration remembered below may be older than both (a channel asked for by id has
 * no title until its first run). A remembered record without a title is therefore checked in the
 * store once per feed version.
 */
export class ChannelTitles {
  private readonly titles: CacheSlot<string>;

  constructor(
    private readonly store: ChannelLookupStore,
    cache: ApiCache = new ApiCache(),
  ) {
    this.titles = cache.slot('title-at-version');
  }

  /** Null when the crawler has not seen one. */
  async at(record: ChannelRecord, version: Date): Promise<string | null> {
    if (record.title !== null) return record.title;
    const key = `${record.channelId}\n${version.getTime()}`;
    const known = this.titles.get(key);
    if (known !== undefined) return known === '' ? null : known;
    const title = (await this.store.getChannel(record.channelId))?.title ?? null;
    this.titles.set(key, title ?? '');
    return title;
  }
}

// ── registering the channel's work item ───────────────────────────────────
// Every feed request registers (or refreshes) the channel's work item. registerChannel only
// changes the record when the channel is new or `wanted` grows, so repeating it with a wanted
// already registered is a no-op: this process remembers what it registered for a few seconds and
// skips those no-op writes. Another process raising `wanted` meanwhile changes nothing here: a
// larger wanted always goes to the store, and the store keeps the maximum.

/** How long a registration is trusted without asking the store; also bounds a stale channel title (a rename). */
export const REGISTRATION_TTL_MS = 5_000;

const HOUR_MS = 3_600_000;

interface Registration {
  record: ChannelRecord;
  wanted: number;
  at: number;
}

export class ChannelRegistrar {
  private readonly recent: CacheSlot<Registration>;
  private readonly asked: CacheSlot<number>;

  constructor(
    private readonly store: RegistrationStore,
    cache: ApiCache = new ApiCache(),
    /** New channels (work items the store does not know) one key may register in any hour; undefined: no bound. */
    private readonly newPerKeyHour?: number,
  ) {
    this.recent = cache.slot('registration');
    this.asked = cache.slot('languages-asked');
  }

  /**
   * Tell the crawler which languages readers want on the channel, as `register` tells
   * it the wanted count; the same list again within the TTL is not written again.
   */
  async askLanguages(channelId: string, languages: readonly string[], now: Date, keyId: string | null = null): Promise<void> {
    const key = `${channelId}\n${keyId ?? ''}\n${languages.join(',')}`;
    const at = this.asked.get(key);
    const t = now.getTime();
    if (at !== undefined && t - at >= 0 && t - at < REGISTRATION_TTL_MS) return;
    await this.store.askLanguages(channelId, languages, now, keyId);
    this.asked.set(key, t);
  }

  /**
   * A key's share of the crawler's new work: a channel the store does not know counts against the
   * key's CRAWL_NEW_CHANNELS_PER_KEY_HOUR; beyond it 429 with the seconds until the oldest of the
   * hour's new channels leaves the window, before anything is written. Concurrent requests of one
   * key can pass the check together, so the bound can be passed by the key's answers in progress
   * (API_MAX_CONNECTIONS_PER_KEY) at most.
   */
  private async checkNewChannelShare(channelId: string, keyId: string, now: Date): Promise<void> {
    if ((await this.store.getChannel(channelId)) !== null) return;
    const limit = this.newPerKeyHour!;
    const { count, oldest } = await this.store.newChannelsOfKey(keyId, new Date(now.getTime() - HOUR_MS));
    if (count < limit) return;
    const retryAfter = oldest === null ? 3600 : Math.min(3600, Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now.getTime()) / 1000)));
    throw new ApiError('newChannelsLimited', { limit, retryAfter, channelId });
  }

  async register(input: RegisterChannelInput, now: Date): Promise<ChannelRecord> {
    const seen = this.recent.get(input.channelId);
    const t = now.getTime();
    if (seen && seen.wanted >= input.wanted && t - seen.at >= 0 && t - seen.at < REGISTRATION_TTL_MS && (input.handle == null || seen.record.handle !== null)) {
      return seen.record;
    }
    if (this.newPerKeyHour !== undefined && input.keyId != null && seen === undefined) {
      await this.checkNewChannelShare(input.channelId, input.keyId, now);
    }
    const record = await this.store.registerChannel(input, now);
    this.recent.set(input.channelId, { record, wanted: record.wanted, at: t });
    return record;
  }
}
