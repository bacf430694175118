// The fake platform's data model: what a test says a channel holds. Everything the fake answers
// (feed, browse pages, player answers, timed text) is derived from these specs, so a test that
// builds a channel knows exactly what a correct client must end up with.

/** The age check's spellings (player-refusals.ts): the captured LOGIN_REQUIRED one and the 2026 ones. */
export type AgeSpelling = 'inappropriate' | 'AGE_VERIFICATION_REQUIRED' | 'AGE_CHECK_REQUIRED' | 'confirm_your_age' | 'age_restricted_reason';

/** How a video's captions look on the platform (docs/crawler.md §3–4). */
export type CaptionsKind =
  | 'manual' // one uploaded track in `language`
  | 'automatic' // only the speech-recognition track (`kind: "asr"`)
  | 'both' // a manual track and an automatic one in `language`
  | 'foreign' // one manual track in a language other than English (`language`, default `de`)
  | 'none' // status OK, no `captions` key
  | 'unavailable' // player ERROR "This video is unavailable"
  | 'age_restricted'; // player LOGIN_REQUIRED "This video may be inappropriate for some users."

export interface FakeCue {
  /** Seconds from the start. */
  start: number;
  /** Seconds; missing on some real cues. */
  dur?: number;
  /** Plain text as spoken; the fake escapes it the way the platform does. Empty text occurs. */
  text: string;
}

export interface FakeVideoSpec {
  /** 11 characters of [A-Za-z0-9_-]. */
  videoId: string;
  title: string;
  publishedAt: Date;
  captions: CaptionsKind;
  /** Caption language (default `en`, `de` for `foreign`). */
  language?: string;
  /** The transcript; generated from the video id when left out. */
  cues?: FakeCue[];
  /** A Short: in the channel feed (link `/shorts/<id>`), left out of the Videos tab. */
  short?: boolean;
  /** `videoDetails.shortDescription` (chapters live here); a generated one when left out. */
  description?: string;
  /**
   * A live stream that has aired (`isLiveContent`, in the feed, not on the Videos tab), or a
   * premiere / stream that has not aired yet (player LIVE_STREAM_OFFLINE, `isUpcoming`).
   */
  live?: 'stream' | 'upcoming';
  /**
   * Made for kids: VISIONOS (and ANDROID_VR) cannot play it (UNPLAYABLE, or since July 2026 ERROR,
   * with the made-for-kids reason, to those clients only; `kidsRefusal` switches the status).
   */
  madeForKids?: boolean;
  /** False: its owner keeps it off other sites (the embedded player answers "Playback on other websites has been disabled"). */
  embeddable?: boolean;
  /** With `captions: 'age_restricted'`: which spelling of the age check the player answers (default the captured "inappropriate"). */
  ageCheck?: AgeSpelling;
}

export interface FakeChannelSpec {
  /** `UC` + 22 of [A-Za-z0-9_-]. */
  channelId: string;
  /** Without `@`. Matched case-insensitively, like the platform does. */
  handle: string;
  title: string;
  /** Any order; the fake keeps them newest first. */
  videos: FakeVideoSpec[];
}

/** One entry of a playlist: a hosted video by id, or a private / deleted video the platform shows as unavailable. */
export type FakePlaylistEntry = { videoId: string; gone?: undefined } | { videoId: string; gone: 'private' | 'deleted' };

export interface FakePlaylistSpec {
  /** A playlist id (PL…, OLAK5uy_…, UU…, FL…). */
  playlistId: string;
  title: string;
  /** A hosted channel: the playlist's owner (its author). */
  ownerChannelId: string;
  /** The playlist's own order. Hosted videos of any channel. */
  entries: FakePlaylistEntry[];
  /** The platform says the playlist is private, or that it does not exist. */
  state?: 'private' | 'deleted';
}

/** Per-endpoint request counts (platform requests only; the control endpoint is not counted). */
export interface FakeCounters {
  resolve: number;
  handlePage: number;
  channelPage: number;
  feed: number;
  browse: number;
  browseContinuation: number;
  watch: number;
  /** The embedded player page (/embed/<id>), which only a real browser's player turns into captions. */
  embed: number;
  player: number;
  /** InnerTube visitor_id: one per client session (identity.ts). */
  visitorId: number;
  timedtext: number;
  /** Requests to paths the platform does not serve here (favicon, typos…). */
  other: number;
  total: number;
}

export function emptyCounters(): FakeCounters {
  return {
    resolve: 0,
    handlePage: 0,
    channelPage: 0,
    feed: 0,
    browse: 0,
    browseContinuation: 0,
    watch: 0,
    embed: 0,
    player: 0,
    visitorId: 0,
    timedtext: 0,
    other: 0,
    total: 0,
  };
}

export type CounterName = Exclude<keyof FakeCounters, 'total'>;

/** One entry as a client sees it: the hosted video, or a gap the platform shows as unavailable. */
export type PlaylistEntry = { kind: 'video'; video: FakeVideoSpec; channel: FakeChannelSpec } | { kind: 'gone'; videoId: string; why: 'private' | 'deleted' };
