// Push (WebSub): each channel's subscription at the platform's hub and the videos the hub notified.

/**
 * Where a channel's push subscription at the platform's WebSub hub stands: asked for and waiting for
 * the hub's verification, verified (push is on while the lease runs), denied by the hub, or failed
 * (the hub refused or never verified; tried again later), or being ended (nobody follows the channel
 * any more: the crawler asked the hub to stop, and the record goes once the hub verifies that). The
 * channel is polled unless verified with a lease that has not lapsed.
 */
export type WebSubStatus = 'requested' | 'verified' | 'denied' | 'failed' | 'unsubscribing';

export interface WebSubRecord {
  channelId: string;
  /** The hub topic asked for (`…/xml/feeds/videos.xml?channel_id=UC…`). */
  topic: string;
  /** The callback's unguessable last path segment (`/websub/<token>`). */
  token: string;
  /** hub.secret: the notifications' HMAC key. */
  secret: string;
  status: WebSubStatus;
  /** When the last subscribe request was sent. */
  requestedAt: Date | null;
  verifiedAt: Date | null;
  /** The lease the hub granted at its last verification. */
  leaseSeconds: number | null;
  leaseExpiresAt: Date | null;
  /** When the crawler's subscriber looks at it next: the verification deadline, the renewal, or the retry. */
  nextActionAt: Date;
  /** Failed subscribe attempts in a row. */
  failures: number;
  lastError: string | null;
  updatedAt: Date;
}

/** A video the hub notified: due for a fetch without a listing. */
export interface PushedVideo {
  videoId: string;
  channelId: string;
  /** From the notification (titles lag; the fetch takes the platform's). */
  title: string;
  publishedAt: Date | null;
  dueAt: Date;
  /** Fetch attempts so far (a notification can come before the video is ready). */
  attempts: number;
}

export type PushedVideoInput = Pick<PushedVideo, 'videoId' | 'channelId' | 'title' | 'publishedAt'>;

/** Push subscriptions, notified videos, and what a notification changes. */
export interface WebSubStore {
  /** Create or replace the channel's push subscription record. */
  putWebSub(record: WebSubRecord): Promise<void>;
  /**
   * The push state of these channels (null: of every channel, by channel id), at most `limit`: the
   * one read an operator's view needs.
   */
  webSubStates(channelIds: readonly string[] | null, limit: number): Promise<WebSubRecord[]>;
  webSubByToken(token: string): Promise<WebSubRecord | null>;
  /** Forget the channel's push subscription record, only while it still has this token. False when it had not. */
  deleteWebSub(channelId: string, token: string): Promise<boolean>;
  /** Subscriptions whose nextActionAt <= now (verification deadline, renewal, retry), earliest first. */
  webSubDue(now: Date, limit: number): Promise<WebSubRecord[]>;
  /**
   * Videos the hub notified become due now (kept once per video; a repeat makes it due again). A
   * notification is a ping: the crawler decides whether it is worth a fetch.
   */
  pushVideos(videos: readonly PushedVideoInput[], now: Date): Promise<void>;
  /** Atomically claim the earliest due pushed video whose lease is free or expired. */
  claimPushedVideo(owner: string, leaseMs: number, now: Date): Promise<PushedVideo | null>;
  /** Done with a claimed pushed video: forget it (null), or try again at `nextAt` (one more attempt counted). */
  finishPushedVideo(videoId: string, owner: string, nextAt: Date | null): Promise<void>;
  /** The platform deleted these videos: they leave every feed (state unavailable, no retry). Returns how many were stored. */
  removeFromFeeds(videoIds: readonly string[], now: Date): Promise<number>;
  /** Make the channel due no later than `now` (push fell back to polling): a listing happens soon. */
  pollChannelNow(channelId: string, now: Date): Promise<void>;
}
