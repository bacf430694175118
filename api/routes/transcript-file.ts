// GET /transcripts/<video_id>.<vtt|srt|txt>: one stored transcript as a file (WebVTT, SubRip or
// plain text), chosen by `lang` exactly as a feed entry chooses it, so the file a feed links to is
// the transcript its entry shows. Conditional GET as for feeds: a strong ETag over the body and
// Last-Modified from when the transcript was stored.

import { createHash } from 'node:crypto';
import { isVideoId } from '../../shared/ids';
import type { Store } from '../../shared/store/types';
import { ApiError } from '../errors';
import { notModified } from '../feed/state';
import { chosenTranscript } from '../feed/transcript-choice';
import { renderTranscriptFile, TRANSCRIPT_FILE_TYPES, type TranscriptFileFormat } from '../feed/transcript-files';
import type { Handler } from '../http/keyed';
import { queryOf } from '../http/locals';
import { checkLang } from '../query/feed-query';
import { FEED_CACHE_CONTROL } from './feed';

export interface TranscriptFileDeps {
  store: Pick<Store, 'getVideos' | 'getTranscripts'>;
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

    const body = Buffer.from(renderTranscriptFile(format, chosen, video.durationSeconds), 'utf8');
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const validators = { etag, lastModified: chosen.fetchedAt.toUTCString() };
    res.setHeader('ETag', validators.etag);
    res.setHeader('Last-Modified', validators.lastModified);
    res.setHeader('Cache-Control', FEED_CACHE_CONTROL);
    res.setHeader('Content-Language', chosen.language);
    if (notModified(req.headers, validators)) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Type', TRANSCRIPT_FILE_TYPES[format]);
    res.setHeader('Content-Disposition', `inline; filename="${videoId}.${format}"`);
    res.status(200).send(body);
  };
}
