// The typed feed model both renderers read. Built once per request from stored records
// (build-model.ts); renderers never see a store record, so they stay pure and easy to test.

export interface FeedEntry {
  readonly videoId: string;
  readonly title: string;
  /** https://youtube.com/watch?v=<id> */
  readonly link: string;
  /** Transcript HTML (or the one-line note for a video without captions). */
  readonly html: string;
  readonly published: Date;
  /** Atom entry `updated`: the publish time, so re-crawls never make readers resurface entries. */
  readonly updated: Date;
}

export interface FeedModel {
  readonly channelId: string;
  /** "<prefix> - <channel id>" (spec). */
  readonly title: string;
  /** Channel title when the crawler has seen it, else the channel id (Atom author/name). */
  readonly author: string;
  /** Newest stored change of the feed (feedVersion). */
  readonly updated: Date;
  /** https://youtube.com/channel/<id> */
  readonly link: string;
  /** This request's own URL without its api_key parameter (link rel="self"). */
  readonly selfUrl: string;
  /** Newest first. */
  readonly entries: readonly FeedEntry[];
}
