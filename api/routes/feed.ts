// GET /: validate → resolve the channel → register the work item → feed state (version, count)
// → 404, or the validators handed to the shared tail (http/feed-answer.ts: 304, the cached body,
// its content coding). The feed state and model are one step (feed/state.ts); rendering is pure
// (feed/render.ts) and runs only when the tail finds no body under the ETag.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { categoryLogger, type Logger } from '../../shared/logger';
import type { PlatformClient } from '../../shared/platform/types';
import type { FeedStore } from '../../shared/store/types';
import type { ApiCache } from '../cache';
import { ApiError } from '../errors';
import { crawlViewOf } from '../feed/crawl-view';
import type { AnswerFeed } from '../http/feed-answer';
import { RENDERERS } from '../feed/renderers';
import { renderInSteps } from '../feed/render-in-steps';
import { RenderQueue } from '../feed/render-queue';
import { linkKeyOf, selfUrlOf, transcriptFileUrl } from '../feed/self-links';
import { FeedStateReader, validatorsFor, type FeedState, type Validators } from '../feed/state';
import { originOf } from '../http/origin';
import { requireKeyId, queryOf, setChannelId } from '../http/request-state';
import { ChannelTitles } from '../registration/channel-titles';
import { ChannelFollowing } from '../registration/following';
import { validateFeedQuery } from '../query/feed-query';
import { defaultSummaryKey, readSummaries } from '../feed/summaries';
import type { SummaryKey } from '../../shared/store/types';
import type { HandleLookupLimits } from '../resolve-channel';

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
  /** Which stored summaries `summary=` shows (SUMMARY_LANGUAGE, the prompt version); left out: the defaults. */
  summaryKey?: SummaryKey;
}

/** The feed route on plain node:http objects: Express's GET / and the direct path both run it. */
export type FeedHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** API_RENDER_BYTES' default. */
export const DEFAULT_RENDER_BYTES = 64 * 1024 * 1024;
/**
 * What a render holds beside its listed rows, as a multiple of them: the entries' HTML, the
 * document's pieces and its bytes.
 */
const RENDER_COPIES = 3;
/** A render that must wait keeps rows it has listed up to this size; larger ones are listed again in its turn. */
const ROWS_KEPT_WHILE_WAITING = 1024 * 1024;

export function feed(deps: FeedDeps): FeedHandler {
  // Resolving, registering and following: the same steps the web app's Add box takes (registration/following.ts).
  const following = new ChannelFollowing(deps);
  const registrar = following.registrar;
  const titles = new ChannelTitles(deps.store, deps.cache);
  // A listed feed is in memory until it is rendered (tens of MB for long transcripts): listings and
  // renders run a few at a time and within a byte budget (render-queue.ts), each render in steps
  // that give the event loop back (render-in-steps.ts), and requests for the same representation
  // share one render (the answer's tail).
  const renders = new RenderQueue({ concurrency: deps.maxRenders ?? 2, bytes: deps.renderBytes ?? DEFAULT_RENDER_BYTES });
  const states = new FeedStateReader(deps.store, deps.cache, (work, bytes) => renders.run(bytes, work));
  const etags = deps.cache.slot<Validators>('validators');
  const log = categoryLogger(deps.logger, 'api.feed');
  const summaryKey = deps.summaryKey ?? defaultSummaryKey();

  return async (req, res) => {
    const raw = queryOf(req);
    const checked = validateFeedQuery(raw);
    if (!checked.ok) throw new ApiError(checked.error, checked.context);
    const { channel: ref, format, maxItems, kinds, languages, summary: summaryMode } = checked.value;
    const now = deps.clock();

    const resolved = await following.resolve(ref, requireKeyId(res), maxItems, now);
    const { channelId } = resolved;
    setChannelId(res, channelId);
    const channel = await following.channel(resolved, requireKeyId(res), maxItems, now);
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
    // Summaries are read, never made, here: one store read, and their digest is in the ETag.
    const summaries = await readSummaries(deps.store, state.ids, summaryKey);
    const validators = (s: FeedState) => validatorsFor({ channelId, format, maxItems, version: s.version, count: s.count, fingerprint: s.fingerprint, author, selfUrl, linkKey: fileLinks ? linkKey : '', summaries: summaries.fingerprint }, etags);
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
        const out = await renderInSteps(RENDERERS[format], { channelId, channelTitle, videos: s.videos ?? [], transcripts: s.transcripts ?? [], languages, updated: s.version, selfUrl, summaryMode, summaries, ...files }, (video, reason) =>
          log.warning({ channelId, videoId: String(video.videoId), reason }, `stored video skipped: its ${reason} cannot be rendered`),
        );
        return { body: out, validators: validators(s) };
      }),
    });
  };
}
