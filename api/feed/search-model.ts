// Search hits → the feed model the three renderers read (render.ts, json-feed.ts). Each entry: the
// video's title, a link to the moment of its first hit, its matching paragraphs (at most
// MAX_SHOWN_PARAGRAPHS, in the order spoken) each opening with its timestamp link as in channel
// feeds with the hits in <mark>, then a link to the whole transcript in the channel's feed; the
// channel's name as the entry's author. Every text is escaped; the only markup is ours.

import { escapeHtml } from '../../shared/transcript/entities';
import { highlightsIn } from '../../shared/search/match';
import type { SearchQuery } from '../../shared/search/query';
import type { SearchHit, TranscriptRecord, VideoRecord } from '../../shared/store/types';
import { speaks } from '../../shared/transcript/languages';
import { summaryOf } from '../../shared/transcript/summary';
import { summaryPlainText } from '../../shared/summary/render';
import type { SummaryMode } from '../query/feed-query';
import { contentWithSummary, type FeedSummaries } from './summaries';
import { deepLink, formatTimestamp } from '../../shared/transcript/timestamps';
import { FEED_TITLE_PREFIX } from '../service-info';
import { PUBLIC_VIDEO_HOST, watchUrl } from '../../shared/video-links';
import { thumbnailOf, type FeedEntry, type FeedModel } from './state';

export const MAX_SHOWN_PARAGRAPHS = 5;

export interface SearchModelInput {
  /** `summary` and the stored summaries of the hits (feed/summaries.ts); left out: none shown. */
  readonly summaryMode?: SummaryMode;
  readonly summaries?: FeedSummaries;
  /** The reader's query as given: the feed's title names it. */
  readonly text: string;
  readonly query: SearchQuery;
  /** Newest first, as searchVideos answers. */
  readonly hits: readonly SearchHit[];
  /** Channel id → its name as the crawler saw it (missing: the id is shown). */
  readonly channelNames: ReadonlyMap<string, string>;
  /** `lang`: which transcript's paragraphs are shown first; null = the crawler's choice first. */
  readonly languages: readonly string[] | null;
  /** Newest stored change among the hits (or the epoch for an empty feed). */
  readonly updated: Date;
  /** This request's URL without its api_key (link rel="self", and the feed's id). */
  readonly selfUrl: string;
  /** Where a video's whole transcript is: its entry in its channel's feed. */
  readonly wholeTranscriptUrl: (video: VideoRecord) => string;
}

/** The video's transcripts in the order their paragraphs are offered: as a channel feed would choose. */
export function transcriptsInShowOrder(v: VideoRecord, rows: readonly TranscriptRecord[], languages: readonly string[] | null): TranscriptRecord[] {
  const ordered: TranscriptRecord[] = [];
  const add = (r: TranscriptRecord | undefined): void => {
    if (r !== undefined && !ordered.includes(r)) ordered.push(r);
  };
  for (const lang of languages ?? []) {
    add(rows.find((r) => r.kind === 'manual' && speaks(r.language, lang)));
    add(rows.find((r) => r.kind === 'automatic' && speaks(r.language, lang)));
  }
  for (const lang of languages ?? []) add(rows.find((r) => r.kind === 'translated' && speaks(r.language, lang)));
  add(rows.find((r) => r.language === v.language && r.kind === v.kind));
  for (const r of [...rows].sort((a, b) => (a.language < b.language ? -1 : a.language > b.language ? 1 : 0))) add(r);
  return ordered;
}

/** `text` escaped for HTML with the spans wrapped in <mark>. */
function marked(text: string, spans: readonly { start: number; end: number }[]): string {
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += `${escapeHtml(text.slice(at, s.start))}<mark>${escapeHtml(text.slice(s.start, s.end))}</mark>`;
    at = s.end;
  }
  return out + escapeHtml(text.slice(at));
}

interface ShownParagraph {
  readonly seconds: number | null;
  /** The stored text, escaped, with <mark> around each hit (for feeds). */
  readonly html: string;
  /** The stored text as it is (for answers that are not HTML, such as MCP's). */
  readonly text: string;
}

/** The first transcript (in show order) with matching paragraphs, and its first few matches. */
export function matchingParagraphs(q: SearchQuery, v: VideoRecord, rows: readonly TranscriptRecord[], languages: readonly string[] | null): ShownParagraph[] {
  for (const t of transcriptsInShowOrder(v, rows, languages)) {
    const shown: ShownParagraph[] = [];
    // Paragraphs recovered from HTML stored before start times were kept have no real time.
    const timed = !(t as { untimed?: boolean }).untimed;
    for (const p of t.paragraphs) {
      const spans = highlightsIn(q, p.text);
      if (spans.length === 0) continue;
      shown.push({ seconds: timed ? Math.floor(p.startMs / 1000) : null, html: marked(p.text, spans), text: p.text });
      if (shown.length === MAX_SHOWN_PARAGRAPHS) break;
    }
    if (shown.length > 0) return shown;
  }
  return [];
}

export function buildSearchModel(input: SearchModelInput): FeedModel {
  const entries: FeedEntry[] = input.hits.map(({ video: v, transcripts }) => {
    const shown = matchingParagraphs(input.query, v, transcripts, input.languages);
    const first = shown.find((p) => p.seconds !== null);
    const link = first?.seconds != null ? deepLink(v.videoId, first.seconds) : watchUrl(v.videoId);
    const paragraphs = shown.map((p) =>
      p.seconds === null ? `<p>${p.html}</p>` : `<p><a href="${escapeHtml(deepLink(v.videoId, p.seconds))}">${formatTimestamp(p.seconds)}</a> ${p.html}</p>`,
    );
    if (shown.length === 0) paragraphs.push('<p>The title matches.</p>');
    const whole = input.wholeTranscriptUrl(v);
    paragraphs.push(`<p><a href="${escapeHtml(whole)}">Whole transcript</a></p>`);
    const mode = input.summaryMode ?? 'off';
    // The content shows it only when `summary=` asks; the plain-text summary whenever one is stored.
    const stored = input.summaries?.byVideo.get(v.videoId);
    return {
      videoId: v.videoId,
      title: v.title,
      link,
      // `summary=1`: the summary before the matching paragraphs; `only`: it and the whole-transcript link.
      html: contentWithSummary(paragraphs.join('\n'), stored, mode, whole),
      published: v.publishedAt,
      updated: v.publishedAt,
      thumbnail: thumbnailOf(v.videoId),
      summary: stored !== undefined && stored.points.length > 0 ? summaryPlainText(stored) : summaryOf(v.description),
      durationSeconds: typeof v.durationSeconds === 'number' && Number.isSafeInteger(v.durationSeconds) && v.durationSeconds >= 0 ? v.durationSeconds : null,
      author: input.channelNames.get(v.channelId) ?? v.channelId,
    };
  });
  return {
    channelId: '',
    id: input.selfUrl,
    title: `${FEED_TITLE_PREFIX} - search: ${input.text}`,
    author: FEED_TITLE_PREFIX,
    description: `Videos whose transcripts match: ${input.text}`,
    updated: input.updated,
    link: `https://${PUBLIC_VIDEO_HOST}/results?search_query=${encodeURIComponent(input.text)}`,
    selfUrl: input.selfUrl,
    entries,
  };
}
