// The store: the one place the API and the crawler meet. Two implementations (SQLite, MongoDB)
// satisfy this interface and pass the same contract suite (test/store/contract.ts).
// Every method takes `now` explicitly so that tests control time without sleeping.
//
// The records and methods live by record family in types/ (channels, videos, transcripts, search,
// playlists, handles, subscriptions, rate limits, platform, operators, WebSub, web app sessions); `Store` is their
// intersection, and the named slices modules ask for are in types/slices.ts. Import from here:
// this file is the index.

import type { ChannelStore } from './types/channels';
import type { HandleStore } from './types/handles';
import type { OperatorStore } from './types/operators';
import type { PlatformCheckStore, PlatformPacingStore } from './types/platform-state';
import type { PlaylistStore } from './types/playlists';
import type { RateLimitStore } from './types/rate-limits';
import type { SearchStore } from './types/search';
import type { SubscriptionStore } from './types/subscriptions';
import type { SummaryStore } from './types/summaries';
import type { TranscriptStore } from './types/transcripts';
import type { VideoStore } from './types/videos';
import type { WebSessionStore } from './types/web-sessions';
import type { WebSubStore } from './types/websub';

export * from './types/channels';
export * from './types/handles';
export * from './types/operators';
export * from './types/platform-state';
export * from './types/playlists';
export * from './types/rate-limits';
export * from './types/search';
export * from './types/slices';
export * from './types/subscriptions';
export * from './types/summaries';
export * from './types/transcripts';
export * from './types/videos';
export * from './types/web-sessions';
export * from './types/websub';

/** A store operation failed because the backing database is closed or unreachable. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export interface Store
  extends ChannelStore, VideoStore, TranscriptStore, SearchStore, PlaylistStore, HandleStore, SubscriptionStore,
    RateLimitStore, PlatformPacingStore, PlatformCheckStore, OperatorStore, WebSubStore, SummaryStore,
    WebSessionStore {
  /** `sqlite` or `mongodb`, for logs. */
  readonly kind: 'sqlite' | 'mongodb';
  close(): Promise<void>;
}
