// The named slices of the store that modules ask for: each is what one part of the API or the
// crawler calls, so that a module names the part it uses (and a test can hand it just that) and the
// same method list is not written out again wherever it is needed.

import type { ChannelStore } from './channels';
import type { HandleStore } from './handles';
import type { OperatorStore } from './operators';
import type { PlatformCheckStore, PlatformPacingStore } from './platform-state';
import type { PlaylistStore } from './playlists';
import type { RateLimitStore } from './rate-limits';
import type { SearchStore } from './search';
import type { SubscriptionStore } from './subscriptions';
import type { SummaryStore } from './summaries';
import type { TranscriptStore } from './transcripts';
import type { VideoStore } from './videos';
import type { WebSubStore } from './websub';

/** A channel's record by id. */
export type ChannelLookupStore = Pick<ChannelStore, 'getChannel'>;

/** Stored videos by id with their transcripts (the transcript file, the language backfill). */
export type StoredTextStore = Pick<VideoStore, 'getVideos'> & Pick<TranscriptStore, 'getTranscripts'>;

/** A channel feed's version, entries and their transcripts (api/feed's state reader). */
export type FeedReadStore = Pick<VideoStore, 'feedVersion' | 'listFeedEntries'> & Pick<TranscriptStore, 'getTranscripts'>;

/** The API's handle lookups: the cache, the per-key limit, and the platform's shared pacing. */
export type HandleLookupStore = HandleStore & RateLimitStore & PlatformPacingStore;

/** A reader's request registering the work item it asks for, with its languages. */
export type RegistrationStore = Pick<ChannelStore, 'registerChannel' | 'getChannel' | 'newChannelsOfKey'> & Pick<TranscriptStore, 'askLanguages'>;

/** Recording that a feed's key now follows what it asked for. */
export type FollowStore = Pick<SubscriptionStore, 'follow'>;

/** GET /: a channel feed. */
export type FeedStore = RegistrationStore & FeedReadStore & HandleLookupStore & FollowStore & Pick<SummaryStore, 'getSummaries'>;

/** GET /playlist: a playlist feed. */
export type PlaylistFeedStore = RegistrationStore & FollowStore & Pick<PlaylistStore, 'getPlaylist'> & StoredTextStore & Pick<SummaryStore, 'getSummaries'>;

/** GET /search: a search feed, scoped to a channel or to a key's subscriptions, and its scope's version. */
export type SearchFeedStore = SearchStore & ChannelLookupStore & Pick<SubscriptionStore, 'listSubscriptions' | 'subscriptionFeedVersion'> & HandleLookupStore & SearchVersionStore & Pick<SummaryStore, 'getSummaries'>;

/** The store's version of a search's scope (api/search/search-version.ts). */
export type SearchVersionStore = Pick<VideoStore, 'newestFeedWrite' | 'feedVersion'> & Pick<SubscriptionStore, 'subscriptionFeedVersion'>;

/** /subscriptions: a key's list of followed channels. */
export type SubscriptionListStore = Pick<SubscriptionStore, 'follow' | 'unfollow' | 'listSubscriptions'>;

/** GET /subscriptions/feed: a key's combined feed. */
export type SubscriptionFeedStore = Pick<SubscriptionStore, 'subscriptionFeed' | 'subscriptionFeedVersion'> & StoredTextStore & Pick<SummaryStore, 'getSummaries'>;

/** The crawler's resolution of followed handles. */
export type HandleResolutionStore = Pick<SubscriptionStore, 'subscribedHandlesToResolve' | 'resolveSubscribedHandle'> & Pick<HandleStore, 'getHandle'>;

/** An operator's view of one channel (api/admin/channel-view.ts). */
export type ChannelViewStore = Pick<OperatorStore, 'channelStats' | 'listRuns'> & Pick<TranscriptStore, 'wantedLanguages'> & Pick<PlaylistStore, 'getPlaylist'> & Pick<VideoStore, 'getVideos'> & Pick<WebSubStore, 'webSubStates'>;

/** The API's side of the platform check: ask for one, read the last report. */
export type PlatformCheckAskStore = Pick<PlatformCheckStore, 'requestPlatformCheck' | 'getPlatformCheck'>;

/** The crawler's side of the platform check: claim the request, store the report. */
export type PlatformCheckWorkStore = Pick<PlatformCheckStore, 'claimPlatformCheck' | 'finishPlatformCheck'>;

/** Batch writes of videos (benchmarks' loading). */
export type VideoWriteStore = Pick<VideoStore, 'upsertVideos'>;
