// The two id shapes of the platform, written once: the API checks a client's channel id with
// CHANNEL_ID, the platform client checks every id the platform hands back (feed, browse, player)
// before it reaches the store (docs/crawler.md §2).

/** `UC` + 22 of `[A-Za-z0-9_-]` (spec, channel_id). */
export const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;

/** 11 of `[A-Za-z0-9_-]`: the only video ids the platform issues. */
export const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

export const isVideoId = (v: string): boolean => VIDEO_ID.test(v);
