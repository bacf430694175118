// The two renderers: pure functions from the feed model to an Atom 1.0 or RSS 2.0 document, exactly
// as the spec's tables, plus what validators and readers require beyond them (Atom: feed
// author/name, entry updated, link rel="self"; RSS: description, language, guid
// isPermaLink="false", atom:link rel="self"), and what readers show beside the transcript in
// elements the spec does not name: the channel's name (Atom subtitle, RSS description), per entry
// a Media RSS thumbnail, the duration (media:content) and a plain-text summary (Atom summary, RSS
// description), the transcript's language (Atom content xml:lang, RSS dc:language), in RSS the
// transcript file as podcast:transcript — never in place of content /
// content:encoded. One configured fast-xml-parser
// builder does all XML escaping (processEntities on), never code here, and drops what no text may
// show (shownText, as its value processors) from every text and attribute it writes. The rule for
// HTML fields (docs/api.md, "How texts are escaped"): a text from the platform is text; where a
// reader renders a field as HTML, it carries the text HTML-escaped once (then XML-escaped by the
// builder). Atom says so itself (type="text" / type="html"); RSS declares no type and readers render
// its titles and descriptions as HTML, so those four carry escaped text.

import { XMLBuilder } from 'fast-xml-parser';
import { escapeHtml } from '../../shared/transcript/entities';
import { shownText, shownValue } from '../../shared/transcript/shown-text';
import { appVideoUrl } from './app-links';
import type { FeedEntry, FeedModel } from './state';

export const ATOM_CONTENT_TYPE = 'application/atom+xml';
export const RSS_CONTENT_TYPE = 'application/rss+xml';
export const MEDIA_RSS_NS = 'http://search.yahoo.com/mrss/';
export const DUBLIN_CORE_NS = 'http://purl.org/dc/elements/1.1/';
/** Podcasting 2.0: `podcast:transcript` links each item's transcript file for podcast apps and readers. */
export const PODCAST_NS = 'https://podcastindex.org/namespace/1.0';
export const WEBVTT_TYPE = 'text/vtt';

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

const xmlBuilder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  cdataPropName: '__cdata',
  processEntities: true,
  suppressEmptyNode: false,
  format: false,
  tagValueProcessor: shownValue,
  attributeValueProcessor: shownValue,
});

export function renderAtom(feed: FeedModel): string {
  const doc = {
    feed: {
      '@_xmlns': 'http://www.w3.org/2005/Atom',
      '@_xml:lang': 'en',
      '@_xmlns:media': MEDIA_RSS_NS,
      id: feed.id ?? feed.channelId,
      title: feed.title,
      subtitle: feed.description,
      updated: atomDate(feed.updated),
      link: [{ '@_href': feed.link }, { '@_rel': 'self', '@_type': ATOM_CONTENT_TYPE, '@_href': feed.selfUrl }],
      author: { name: feed.author },
      entry: feed.entries.map((e) => ({
        id: e.videoId,
        title: e.title,
        ...(e.author === undefined ? {} : { author: { name: e.author } }),
        // The root's xml:lang is the spec's `en`; each transcript says its own language.
        content: { '@_type': 'html', ...(e.language ? { '@_xml:lang': e.language } : {}), '#text': e.html },
        // The spec's link to the platform first; the entry's page in the web app beside it.
        link: [{ '@_href': e.link }, { '@_rel': 'related', '@_type': 'text/html', '@_href': appVideoUrl(feed.selfUrl, e.videoId) }],
        published: atomDate(e.published),
        updated: atomDate(e.updated),
        ...(e.summary === null ? {} : { summary: { '@_type': 'text', '#text': e.summary } }),
        ...mediaOf(e),
      })),
    },
  };
  return XML_DECLARATION + xmlBuilder.build(doc);
}

export function renderRss(feed: FeedModel): string {
  const doc = {
    rss: {
      '@_version': '2.0',
      '@_xmlns:content': 'http://purl.org/rss/1.0/modules/content/',
      '@_xmlns:atom': 'http://www.w3.org/2005/Atom',
      '@_xmlns:media': MEDIA_RSS_NS,
      ...((feed.dublinCore ?? needsDublinCore(feed.entries)) ? { '@_xmlns:dc': DUBLIN_CORE_NS } : {}),
      '@_xmlns:podcast': PODCAST_NS,
      channel: {
        title: escapeHtml(feed.title),
        link: feed.link,
        description: escapeHtml(feed.description),
        language: 'en',
        lastBuildDate: rssDate(feed.updated),
        'atom:link': { '@_href': feed.selfUrl, '@_rel': 'self', '@_type': RSS_CONTENT_TYPE },
        item: feed.entries.map((e) => ({
          title: escapeHtml(e.title),
          // CDATA is the one text the builder's value processor does not see.
          'content:encoded': { __cdata: cdataPieces(shownText(e.html)) },
          link: e.link,
          pubDate: rssDate(e.published),
          guid: { '@_isPermaLink': 'false', '#text': e.videoId },
          // RSS's own author element wants an e-mail address; readers show dc:creator instead.
          ...(e.author === undefined ? {} : { 'dc:creator': e.author }),
          // RSS has one channel language (the spec's `en`); Dublin Core gives each item its own.
          ...(e.language ? { 'dc:language': e.language } : {}),
          // RSS readers take description as HTML: the plain summary is escaped once for HTML here
          // (and once more for XML by the builder), so `<3` stays text.
          ...(e.summary === null ? {} : { description: escapeHtml(e.summary) }),
          ...mediaOf(e),
          ...(e.transcriptFile == null ? {} : { 'podcast:transcript': { '@_url': e.transcriptFile.url, '@_type': WEBVTT_TYPE, '@_language': e.transcriptFile.language } }),
        })),
      },
    },
  };
  return XML_DECLARATION + xmlBuilder.build(doc);
}

/** RSS needs the Dublin Core namespace when an item has its own author (dc:creator) or language (dc:language). */
export function needsDublinCore(entries: readonly FeedEntry[]): boolean {
  return entries.some((e) => e.author !== undefined || Boolean(e.language));
}

/**
 * Media RSS: the thumbnail, and the video itself with its duration when it is known (readers such
 * as Inoreader and Feedly show both).
 */
function mediaOf(e: FeedEntry): Record<string, unknown> {
  return {
    'media:thumbnail': { '@_url': e.thumbnail, '@_width': '480', '@_height': '360' },
    ...(e.durationSeconds === null ? {} : { 'media:content': { '@_url': e.link, '@_medium': 'video', '@_duration': String(e.durationSeconds) } }),
  };
}

// ── dates: the two forms the spec fixes, always UTC, whole seconds ────────

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');

/** "YYYY-MM-DDThh:mm:ss+00:00" */
export function atomDate(d: Date): string {
  return `${d.toISOString().slice(0, 19)}+00:00`;
}

/** "Ddd, DD Mon YYYY hh:mm:ss +0000" */
export function rssDate(d: Date): string {
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return `${DAYS[d.getUTCDay()]}, ${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${time} +0000`;
}

// ── CDATA ───────────────────────────────────────────────────────────────────

/**
 * CDATA pieces for `text`: a `]]>` inside would end the section, so it is split across two
 * sections (`]]` closes the first, `>` opens the next).
 */
export function cdataPieces(text: string): string[] {
  const parts = text.split(']]>');
  return parts.map((p, i) => (i > 0 ? '>' : '') + p + (i < parts.length - 1 ? ']]' : ''));
}
