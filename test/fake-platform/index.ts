// The fake video platform: real HTTP on loopback answering every endpoint of
// docs/crawler.md in the shapes of the real captures. See README.md beside this file.

export { startFakePlatform, type FakePlatform, type StartOptions } from './server';
export type { Block429Options, ConsentMode, ScenarioControls, ScenarioState } from './scenarios';
export type { CaptionsKind, FakeChannelSpec, FakeCounters, FakeCue, FakePlaylistEntry, FakePlaylistSpec, FakeVideoSpec } from './types';
export { PLAYLIST_FEED_SIZE, PLAYLIST_PAGE_SIZE } from './playlist-json';
export {
  CHANNEL_ID_RE,
  DEFAULT_CAPTIONS_MIX,
  DEFAULT_NEWEST_AT,
  HANDLE_RE,
  makeChannel,
  VIDEO_ID_RE,
  type CaptionsMix,
  type MakeChannelOptions,
} from './data';
export { asrStyle, generateCues } from './cues';
export { CLEARANCE_COOKIE, solveChallenge } from './challenge';
export { CONSENT_V } from './walls';
export { INNERTUBE_API_KEY } from './routes-pages';
export { FEED_SIZE } from './feed-xml';
export { PAGE_SIZE } from './browse-json';
export { TAB_PARAMS } from './channel-json';
export { HUB_MAX_LEASE_SECONDS, startFakeHub, topicOf, type FakeHub, type HubCounters, type HubRequest, type HubSubscription, type NotifiedVideo } from './hub';
