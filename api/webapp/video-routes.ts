// The transcript page (`/app/videos/<id>`) and its downloads (`/app/videos/<id>.<vtt|srt|txt>`),
// both for a signed-in reader only: the session, never a key in a URL, so a download link can be
// shown, shared inside the browser and followed without leaking the key. Which stored transcript is
// shown: `?tl=<code>` (not `lang`, which is the page's own English/Turkish switch) names a stored
// language exactly, else it is chosen as a feed's `lang=<code>` chooses (api/feed/transcript-choice.ts);
// a code the platform offered (a track or a machine translation) and the store lacks is asked of
// the crawler as a feed's `lang` asks it (store.askLanguages), and the page says so.

import type { Request, RequestHandler } from 'express';
import { isVideoId } from '../../shared/ids';
import type { SummaryKey, TranscriptRecord, VideoRecord } from '../../shared/store/types';
import { parseChapters } from '../../shared/transcript/chapters';
import { isLanguageCode, speaks } from '../../shared/transcript/languages';
import { chosenTranscript } from '../feed/transcript-choice';
import { renderTranscriptFile, TRANSCRIPT_FILE_TYPES, type TranscriptFileFormat } from '../feed/transcript-files';
import type { AppKit } from './kit';
import { renderPage } from './pages';
import { pageFields } from './security';
import { text } from '../http/answer';
import { MAX_FIND_CHARS, transcriptBody } from './video-page';

export interface VideoRoutes {
  video: RequestHandler;
  videoFile: RequestHandler;
}

/** One query value as text ('' when absent, repeated or not text). */
const param = (req: Request, name: string): string => {
  const v: unknown = (req.query as Record<string, unknown>)[name];
  return typeof v === 'string' ? v : '';
};

/** The asked language when it is a language code, else null (the crawler's choice is shown). */
const askedLanguage = (req: Request): string | null => {
  const tl = param(req, 'tl').trim();
  return tl !== '' && isLanguageCode(tl) ? tl : null;
};

/** The stored row of exactly `tl`, else the one a feed's `lang=tl` would show, else the crawler's choice. */
function shownOf(video: VideoRecord, rows: readonly TranscriptRecord[], tl: string | null): TranscriptRecord | null {
  const main = rows.find((r) => r.language === video.language) ?? rows[0] ?? null;
  if (tl === null) return main;
  return rows.find((r) => r.language === tl) ?? chosenTranscript(video, rows, [tl]) ?? main;
}

const FORMATS: ReadonlySet<string> = new Set(['vtt', 'srt', 'txt']);

export function videoRoutes(kit: AppKit, summaryKey: SummaryKey): VideoRoutes {
  const { store } = kit.deps;

  const video = kit.reading(async (req, res, signed) => {
    const id = String(req.params.id);
    const ctx = kit.context(req, signed);
    if (!isVideoId(id)) return kit.send(res, 404, renderPage(ctx, ctx.words.videoNotFound, null));
    const [[record], rows, summaries] = await Promise.all([store.getVideos([id]), store.getTranscripts([id]), store.getSummaries([id], summaryKey)]);
    if (record === undefined) return kit.send(res, 404, renderPage(ctx, ctx.words.videoNotFound, null));
    const channel = await store.getChannel(record.channelId);
    const tl = askedLanguage(req);
    const shown = shownOf(record, rows, tl);
    const stored = (code: string): boolean => rows.some((r) => speaks(r.language, code) || speaks(code, r.language));
    const offered = (record.offeredLanguages ?? []).filter((code) => isLanguageCode(code) && !stored(code));
    // A language offered and not stored is asked of the crawler, as a feed's `lang` asks it; one
    // the platform never offered is not (it would cost a player call for nothing).
    const asked = tl !== null && (shown === null || !speaks(shown.language, tl)) && offered.some((code) => speaks(code, tl)) ? tl : null;
    if (asked !== null) await store.askLanguages(record.channelId, [asked], kit.deps.clock(), signed.key.keyId);
    const view = {
      video: record, channelTitle: channel?.title ?? null, rows, shown, asked, offered,
      chapters: shown?.untimed === true ? [] : parseChapters(record.description, record.durationSeconds),
      summary: summaries.find((s) => s.videoId === id) ?? null,
      find: param(req, 'find').slice(0, MAX_FIND_CHARS),
      embedBase: kit.embedBase,
    };
    kit.send(res, 200, renderPage(ctx, record.title, transcriptBody(ctx.words, ctx.locale, view)), kit.embedOrigin);
  });

  /** The shown transcript as a file, rendered as GET /transcripts/<id>.<ext> renders it; no session, the sign-in page (401). */
  const videoFile: RequestHandler = async (req, res) => {
    const signed = await kit.signedIn(req);
    if (signed === null) return kit.signInPage(req, res, 401, null);
    const id = String(req.params.id);
    const format = String(req.params.format);
    const ctx = kit.context(req, signed);
    if (!isVideoId(id) || !FORMATS.has(format)) return kit.send(res, 404, renderPage(ctx, ctx.words.videoNotFound, null));
    const [[record], rows] = await Promise.all([store.getVideos([id]), store.getTranscripts([id])]);
    const shown = record === undefined || record.state !== 'ready' ? null : shownOf(record, rows, askedLanguage(req));
    if (record === undefined || shown === null || shown.paragraphs.length === 0) return kit.send(res, 404, renderPage(ctx, ctx.words.noTranscript, null));
    const ext = format as TranscriptFileFormat;
    // A stored code is the platform's; only a tag's characters reach a header.
    const language = shown.language.replace(/[^A-Za-z0-9-]/g, '');
    const fields = [...pageFields(), 'Content-Disposition', `attachment; filename="${id}.${language}.${ext}"`];
    if (language !== '') fields.push('Content-Language', language);
    text(res, 200, TRANSCRIPT_FILE_TYPES[ext], renderTranscriptFile(ext, shown, record.durationSeconds), fields);
  };

  return { video, videoFile };
}
