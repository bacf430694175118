// A video the hub notified, fetched without listing its channel (player + timed text). The
// notification is a ping, not data: a video already stored costs nothing, nor does one older than
// the channel's wanted window (bursts of years-old videos happen); one that is not ready yet (the
// ping can come up to an hour before the page) is tried again after the waits of pushedRetryAt and
// then left to the channel's listings. Only what the platform answered is stored.

import type { PushedVideo } from '../shared/store/types';
import { RunBlockedError, RunStoppedError } from './run-ending';
import { platformCall, type ChannelRunDeps } from './channel-run';
import { pushedRetryAt } from '../shared/push-schedule';
import { fetchVideo } from './video-fetch';
import { LANGUAGES_KEPT_PER_CHANNEL } from '../shared/store/language-choice';
import { categoryLogger } from '../shared/logger';

export type PushedOutcome = 'stored' | 'known' | 'old' | 'not_ready' | 'given_up' | 'unknown_channel' | 'blocked' | 'stopped';

/** After a block the pushed video waits like its channel would, at least this long. */
const BLOCKED_WAIT_MS = 30 * 60_000;

export async function runPushedVideo(deps: ChannelRunDeps, video: PushedVideo, owner: string, signal: AbortSignal): Promise<PushedOutcome> {
  const { store, timing } = deps;
  const log = categoryLogger(deps.logger, 'crawler.push');
  const { videoId, channelId } = video;
  const finish = (next: Date | null): Promise<void> => store.finishPushedVideo(videoId, owner, next);

  if ((await store.storedVideoIds([videoId])).length > 0) {
    await finish(null);
    return 'known';
  }
  const channel = await store.getChannel(channelId);
  if (channel === null) {
    await finish(null);
    return 'unknown_channel';
  }
  if (video.publishedAt !== null) {
    const newest = await store.recentPublishTimes(channelId, channel.wanted);
    const edge = newest[channel.wanted - 1];
    if (edge !== undefined && video.publishedAt.getTime() < edge.getTime()) {
      await finish(null);
      log.debug({ channelId, videoId, publishedAt: video.publishedAt.toISOString() }, 'pushed video older than the wanted window ignored');
      return 'old';
    }
  }

  const { call } = platformCall(deps, signal);
  const languages = await store.wantedLanguages(channelId, LANGUAGES_KEPT_PER_CHANNEL, timing.now());
  try {
    const fetched = await fetchVideo(
      { platform: deps.platform, call, logger: log, now: () => timing.now(), browserTranscript: deps.browserTranscript, languages },
      channelId,
      { videoId, title: video.title, publishedAt: video.publishedAt, short: false },
      undefined,
    );
    const { record } = fetched;
    if (record.state === 'ready' || record.state === 'no_transcript') {
      await store.upsertVideos([record], fetched.transcripts);
      await finish(null);
      log.info({ channelId, videoId, state: record.state, attempts: video.attempts + 1 }, 'pushed video stored without a listing');
      return 'stored';
    }
    const next = pushedRetryAt(video.attempts + 1, timing.now().getTime());
    await finish(next === null ? null : new Date(next));
    log.info({ channelId, videoId, state: record.state, reason: record.lastError, retryAt: next === null ? null : new Date(next).toISOString() }, next === null ? 'pushed video still not ready; left to the channel\'s listings' : 'pushed video not ready yet; trying again');
    return next === null ? 'given_up' : 'not_ready';
  } catch (err) {
    if (err instanceof RunStoppedError) {
      await finish(timing.now());
      return 'stopped';
    }
    if (err instanceof RunBlockedError) {
      await finish(new Date(timing.now().getTime() + BLOCKED_WAIT_MS));
      return 'blocked';
    }
    throw err;
  }
}
