// JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/) from the same feed model as Atom and RSS:
// `format=Json`. Items carry the transcript as `content_html` with the same extras (thumbnail as
// `image`, summary, dates, the transcript file as an attachment; the duration under the `_transcript_feed` extension, since JSON Feed names
// no field for it); JSON.stringify does all escaping, after shownJson dropped what no text may show.

import { shownJson } from '../../shared/transcript/shown-text';
import { appVideoUrl } from './app-links';
import { atomDate, WEBVTT_TYPE } from './render';
import type { FeedModel } from './state';

export const JSON_FEED_CONTENT_TYPE = 'application/feed+json';
export const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1.1';

interface JsonFeedItem {
  id: string;
  url: string;
  /** The entry's transcript page in the web app. */
  external_url: string;
  title: string;
  content_html: string;
  /** The transcript's language (JSON Feed 1.1 item `language`). */
  language?: string;
  summary?: string;
  image: string;
  date_published: string;
  date_modified: string;
  authors?: { name: string }[];
  attachments?: { url: string; mime_type: string; title: string }[];
  _transcript_feed?: { duration_seconds: number };
}

export interface JsonFeed {
  version: string;
  title: string;
  home_page_url: string;
  feed_url: string;
  description: string;
  authors: { name: string }[];
  language: string;
  items: JsonFeedItem[];
}

export function jsonFeedOf(feed: FeedModel): JsonFeed {
  return {
    version: JSON_FEED_VERSION,
    title: feed.title,
    home_page_url: feed.link,
    feed_url: feed.selfUrl,
    description: feed.description,
    authors: [{ name: feed.author }],
    language: 'en',
    items: feed.entries.map((e) => ({
      id: e.videoId,
      url: e.link,
      // The entry's page in the web app; `url` stays the spec's link to the platform.
      external_url: appVideoUrl(feed.selfUrl, e.videoId),
      title: e.title,
      content_html: e.html,
      ...(e.language ? { language: e.language } : {}),
      ...(e.summary ? { summary: e.summary } : {}),
      image: e.thumbnail,
      // RFC 3339, the same form as Atom's.
      date_published: atomDate(e.published),
      date_modified: atomDate(e.updated),
      ...(e.author === undefined ? {} : { authors: [{ name: e.author }] }),
      ...(e.transcriptFile == null ? {} : { attachments: [{ url: e.transcriptFile.url, mime_type: WEBVTT_TYPE, title: `Transcript (${e.transcriptFile.language})` }] }),
      ...(e.durationSeconds === null ? {} : { _transcript_feed: { duration_seconds: e.durationSeconds } }),
    })),
  };
}

export function renderJsonFeed(feed: FeedModel): string {
  return shownJson(jsonFeedOf(feed));
}
