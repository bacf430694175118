// GET /transcripts/<video_id>.<vtt|srt|txt>: one stored transcript as a file (WebVTT, SubRip or
// plain text), chosen by `lang` exactly as a feed entry chooses it, so the file a feed links to is
// the transcript its entry shows. Answered by the feeds' shared tail (304, cached body,
// content coding): a strong ETag over what the file is made of, Last-Modified from when the
// transcript was stored.

import { createHash } from 'node:crypto';
import { isVideoId } from '../../shared/ids';
import type { StoredTextStore } from '../../shared/store/types';
import { ApiError } from '../errors';
import { chosenTranscript } from '../feed/transcript-choice';
import { renderTranscriptFile, TRANSCRIPT_FILE_TYPES, type TranscriptFileFormat } from '../feed/transcript-files';
import type { Handler } from '../http/keyed';
import { queryOf } from '../http/request-state';
import { checkLang } from '../query/feed-query';
import type { AnswerFeed } from '../http/feed-answer';
import { field } from '../http/answer';

export interface TranscriptFileDeps {
  store: StoredTextStore;
  /** The shared tail: 304, cached body, content coding (api/http/feed-answer.ts). */
  answer: AnswerFeed;
}

const FILE_NAME = /^([A-Za-z0-9_-]{11})\.(vtt|srt|txt)$/;

export function transcriptFile(deps: TranscriptFileDeps): Handler {
  return async (req, res) => {
    const name = typeof req.params.file === 'string' ? req.params.file : '';
    const m = FILE_NAME.exec(name);
    if (!m || !isVideoId(m[1]!)) throw new ApiError('invalidTranscriptFile');
    const videoId = m[1]!;
    const format = m[2] as TranscriptFileFormat;

    const raw = queryOf(req);
    const lang = Object.prototype.hasOwnProperty.call(raw, 'lang') ? raw.lang : undefined;
    if (lang !== undefined && typeof lang !== 'string') throw new ApiError('repeatedParameter', { param: 'lang' });
    const languages = checkLang(lang === '' ? undefined : lang);
    if (languages === false) throw new ApiError('invalidLang');

    const [video] = await deps.store.getVideos([videoId]);
    if (video === undefined || video.state !== 'ready') throw new ApiError('transcriptNotFound');
    const chosen = chosenTranscript(video, await deps.store.getTranscripts([videoId]), languages);
    if (chosen === null || chosen.paragraphs.length === 0) throw new ApiError('transcriptNotFound');

    // Everything the file is made of: the stored record (video, language, kind, when it was
    // stored), the format and the video's length; so a warm request renders nothing.
    const made = `${videoId}\n${format}\n${chosen.language}\n${chosen.kind}\n${chosen.fetchedAt.getTime()}\n${video.durationSeconds ?? ''}`;
    const validators = { etag: `"${createHash('sha256').update(made).digest('base64url').slice(0, 27)}"`, lastModified: chosen.fetchedAt.toUTCString() };
    field(res, 'Content-Disposition', `inline; filename="${videoId}.${format}"`);
    await deps.answer(req, res, {
      route: '/transcripts',
      validators,
      contentType: TRANSCRIPT_FILE_TYPES[format],
      headers: [['Content-Language', chosen.language]],
      render: async () => ({ body: Buffer.from(renderTranscriptFile(format, chosen, video.durationSeconds), 'utf8'), validators }),
    });
  };
}
