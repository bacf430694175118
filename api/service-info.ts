// Fixed texts of the service: display name, feed-title prefix, version, and the usage strings that
// both /info and the 400 error bodies carry (the spec wants the same keys in both places).

import pkg from '../package.json';

/** Shown by /health and /info. */
export const SERVICE_NAME = 'YouTube Transcript Feed';

/** The spec's fixed feed-title prefix: "<prefix> - <channel id>". */
export const FEED_TITLE_PREFIX = 'YouTube Transcripts';

/** major.minor.patch, from package.json so that a release bump changes it in one place. */
export const VERSION: string = pkg.version;

export type UsageKey = 'channel_id' | 'channel' | 'channel_url' | 'format' | 'max_items';
export type Usage = Readonly<Record<UsageKey, string>>;

export const USAGE: Usage = Object.freeze({
  channel_id: 'Channel id: starts with UC, 24 characters (letters, digits, _ and -). Example: UCuAXFkgsw1L7xaCfnd5JJOw',
  channel: 'Channel handle, with or without a leading @: at most 30 letters, digits, _ or -. Example: @veritasium',
  channel_url: 'Channel URL: https://www.youtube.com/channel/UC…, https://www.youtube.com/@handle, or the same without www.',
  format: 'Atom (default), Rss or Json (JSON Feed 1.1), case-insensitive.',
  max_items: 'Number of newest videos in the feed: a whole number from 1 to 100, default 10.',
});

/**
 * Optional parameters beyond the spec's five. The spec fixes the keys of `usage`, so
 * /info lists these under their own key.
 */
export const EXTRA_USAGE: Readonly<Record<string, string>> = Object.freeze({
  lang: 'Transcript languages in order of preference, up to 5 codes: e.g. tr or tr,en. Each entry shows the first listed language the video has (manual before automatic), else the platform\'s machine translation into the first; without lang, TRANSCRIPT_LANGUAGES decides.',
  playlist_id: 'Instead of a channel: a playlist id (PL…, OLAK5uy_…, UU… or FL…). Its entries come in the playlist\'s own order; max_items, format, lang and include as for channels.',
  playlist_url: 'Instead of a channel: https://www.youtube.com/playlist?list=<playlist_id> (or without www.).',
  include: 'Also list Shorts and/or live streams: shorts, live or shorts,live. Default: regular videos only; upcoming premieres are never listed.',
});

export const ENDPOINTS: Readonly<Record<string, string>> = Object.freeze({
  '/': 'Feed of a channel with each video\'s transcript (Atom, RSS 2.0 or JSON Feed 1.1). Requires an API key.',
  '/health': 'Liveness check. No API key needed.',
  '/info': 'This description. Requires an API key.',
  '/search': 'Saved-search feed over every stored transcript: q (words, "phrases", -exclusions, a OR b), optional channel_id/channel/channel_url (up to 20) or subscriptions=1, format, max_items (1-100, default 20), include, lang. Requires an API key.',
  '/transcripts/<video_id>.<vtt|srt|txt>': 'One stored transcript as a WebVTT, SubRip or plain-text file, e.g. /transcripts/dQw4w9WgXcQ.vtt?lang=tr (lang as for feeds). Requires an API key.',
});

export const EXAMPLES: readonly string[] = Object.freeze([
  '/?channel_id=UCuAXFkgsw1L7xaCfnd5JJOw',
  '/?channel=@veritasium&format=Rss',
  '/?channel_id=UCuAXFkgsw1L7xaCfnd5JJOw&format=Json',
  '/?channel_id=UCuAXFkgsw1L7xaCfnd5JJOw&include=shorts,live',
  '/?channel_id=UCuAXFkgsw1L7xaCfnd5JJOw&lang=tr,en',
  '/?channel_url=https%3A%2F%2Fwww.youtube.com%2F%40veritasium&max_items=25',
  '/?channel_id=UCuAXFkgsw1L7xaCfnd5JJOw&format=Atom&max_items=50&api_key=YOUR_KEY',
  '/?playlist_id=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf&max_items=50',
]);
