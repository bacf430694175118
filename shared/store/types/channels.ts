// Channels: the work collection (one work item per channel or playlist), its leases and schedule.

/** What a work item is: a channel (its uploads) or a playlist (its own order). */
export type WorkKind = 'channel' | 'playlist';

export interface ChannelRecord {
  /** The work item's id: a channel id (`UC…`), or for a playlist its playlist id. */
  channelId: string;
  /** `channel` on every record written before playlists existed. */
  kind: WorkKind;
  /** Lower-cased handle without `@`, when the channel was first asked for by handle. */
  handle: string | null;
  title: string | null;
  /** Largest max_items asked for (1..100): how many of the newest videos the crawler keeps. */
  wanted: number;
  dueAt: Date;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  lastCrawlAt: Date | null;
  /** Free text such as `ok`, `blocked`, `error`. */
  lastOutcome: string | null;
  lastError: string | null;
  consecutiveFailures: number;
  createdAt: Date;
  /**
   * How many of the channel's newest uploads the stored videos are known to hold without a gap, as
   * of the last run that finished its work (100, the most any listing gives, once a listing reached
   * the channel's end). Lets a refresh trust the channel feed alone; null = unknown, so the next
   * run that wants more than the feed holds lists the channel in full.
   */
  coveredWanted: number | null;
  /** Some API key follows the channel (kept in step with the subscriptions by the store). */
  followed: boolean;
  /**
   * Last time a reader asked for the channel's feed (or an import named it); null on records from
   * before it was kept. With `followed`, decides whether the channel is still refreshed (rules.ts).
   */
  askedAt: Date | null;
  /**
   * Since when a reader has been waiting for work no run has served yet (the channel is new, its
   * `wanted` grew, or a language was added); null when nothing is awaited.
   */
  awaitedAt: Date | null;
  /**
   * The key (keyId) whose request made the channel awaited; null when nothing is awaited or no key
   * asked (an operator, an import). Awaited work is served round-robin by this key.
   */
  awaitedBy: string | null;
}

export interface RegisterChannelInput {
  channelId: string;
  /** Set when the work item is created (default `channel`); never changes an existing one. */
  kind?: WorkKind;
  wanted: number;
  handle?: string | null;
  title?: string | null;
  /**
   * The key whose request this is (keyId): it becomes the channel's awaitedBy when the request
   * makes the channel awaited, and the channel's creator when it is new (newChannelsOfKey).
   */
  keyId?: string | null;
}

export interface ReleaseInput {
  nextDueAt: Date;
  outcome: string;
  error?: string | null;
  /** New value of consecutiveFailures (0 after a good run). */
  consecutiveFailures: number;
  title?: string | null;
  /** New coveredWanted; left out or null = unknown (a run that did not finish its work). */
  coveredWanted?: number | null;
  /**
   * The run stopped early to let another key's awaited work go first: the channel is due again at
   * once and, if it was awaited, stays awaited one round later (nextDueAt is then ignored).
   */
  yielded?: boolean;
}

/** The work items: registration by readers, claims and releases by crawlers. */
export interface ChannelStore {
  /**
   * Create the channel's work item, or raise `wanted` to max(current, input.wanted).
   * A new channel, or one whose `wanted` grew, becomes due at `now`; otherwise its schedule stays.
   * Either way the channel was asked for at `now` (askedAt), which keeps it refreshed (rules.ts).
   */
  registerChannel(input: RegisterChannelInput, now: Date): Promise<ChannelRecord>;
  getChannel(channelId: string): Promise<ChannelRecord | null>;
  /**
   * The channel's title as the crawler's listing gives it, written before the run stores its first
   * batch, so that a feed names its channel as soon as its first entry is there (not only when the
   * run ends). Changes only the title of a known channel; an unknown id is left alone.
   */
  nameChannel(channelId: string, title: string): Promise<void>;
  /**
   * Atomically claim the channel with the earliest due time that is due (dueAt <= now) and whose
   * lease is free or expired, among the channels still refreshed (rules.ts isRefreshed: followed by
   * a key, or asked for within KEEP_REFRESHING_MS). Returns null when there is no such channel.
   */
  claimDueChannel(owner: string, leaseMs: number, now: Date): Promise<ChannelRecord | null>;
  /**
   * Like claimDueChannel, among the due channels a reader is waiting for that no run has served
   * yet (registered new, its `wanted` grew, or a language was added), round-robin by the key that
   * asked (awaitedBy): each key's next awaited channel is one round after its previous one, and a
   * key with none waiting joins the round being served, so one key's many requests never keep
   * another key's one waiting behind them. Within a round the one waiting longest first. The
   * crawler claims these before the rhythm's backlog and outside the listing share.
   */
  claimAskedChannel(owner: string, leaseMs: number, now: Date): Promise<ChannelRecord | null>;
  /**
   * How far behind the listing schedule is: channels due, not leased and still refreshed, and the
   * earliest due time among them.
   */
  listingBacklog(now: Date): Promise<{ due: number; oldestDueAt: Date | null }>;
  /** Extend a lease this owner still holds. False when the lease was lost. */
  renewLease(channelId: string, owner: string, leaseMs: number, now: Date): Promise<boolean>;
  /**
   * Record the run's outcome, set the next due time and free the lease. False if not the owner.
   * If `wanted` grew while the lease was held, the channel is due at `now` instead of nextDueAt.
   */
  releaseChannel(channelId: string, owner: string, result: ReleaseInput, now: Date): Promise<boolean>;
  /**
   * A restarted crawler taking back what its previous run (same owner name) left leased when it
   * was killed: frees those leases and makes the channels due no later than `now`, keeping their
   * history and failure counts. Returns how many channels it freed.
   */
  reclaimLeases(owner: string, now: Date): Promise<number>;
  /**
   * Whether awaited work should go before the rest of this channel's run: another channel, due and
   * free at `now`, awaited by another key (work no key asked for counts as one key) in a round no
   * later than this channel's; for a channel nobody awaits, any awaited work. A run asks between
   * batches and yields (ReleaseInput.yielded); the round keeps two keys' long first crawls from
   * handing the turn back and forth after every batch.
   */
  awaitedWorkWaiting(channelId: string, now: Date): Promise<boolean>;
  /**
   * Channels (and playlists) the key created since `since` (the first registerChannel of an id with
   * that keyId): how many, and when the oldest of them was created (null when none).
   */
  newChannelsOfKey(keyId: string, since: Date): Promise<{ count: number; oldest: Date | null }>;
}
