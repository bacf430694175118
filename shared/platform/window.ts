// The crawler's window on a channel: its newest `wanted` regular uploads, plus the Shorts among them.
// Feeds list regular videos by default, so a window of `wanted` uploads of every kind would leave a
// default feed short on a channel that posts Shorts; the Shorts among the regular ones stay inside,
// so a feed that includes Shorts still finds its newest `wanted` of mixed kinds there
// (docs/crawler.md §2). Only the channel feed marks Shorts; browse lists none.

import type { ListedVideo } from './types';

type Kinded = Pick<ListedVideo, 'short'>;

/** How many of `videos` are not Shorts. */
export function regularCount(videos: readonly Kinded[]): number {
  return videos.reduce((n, v) => (v.short === true ? n : n + 1), 0);
}

/** The shortest prefix of `videos` (newest first) that holds `wanted` non-Short videos, or all of them. */
export function windowOf<T extends Kinded>(videos: readonly T[], wanted: number): T[] {
  let regular = 0;
  let end = 0;
  for (const v of videos) {
    if (regular >= wanted) break;
    if (v.short !== true) regular += 1;
    end += 1;
  }
  return videos.slice(0, end);
}
