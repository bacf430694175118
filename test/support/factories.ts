// The one VideoRecord factory of tests and benchmarks. Every field has a default; a suite that
// needs its own ids, dates or states passes them, either as values or as functions of the
// video's number, so "video n" means the same shape everywhere and only the suite's facts differ.

import type { Transcript } from '../../shared/transcript/types';
import type { TranscriptRecord, VideoRecord, StoredTextStore } from '../../shared/store/types';
import { parseChapters } from '../../shared/transcript/chapters';
import { renderTranscriptHtml } from '../../shared/transcript/html';

/** A channel id of the valid form (UC + 22 characters), the default owner of factory videos. */
export const FACTORY_CHANNEL = 'UCuAXFkgsw1L7xaCfnd5JJOw';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

/** A ready video (its transcript: transcriptRecord, withTranscripts); `over` replaces any field. */
export function videoRecord(over: Partial<VideoRecord> = {}): VideoRecord {
  return {
    videoId: 'vid00000000',
    channelId: FACTORY_CHANNEL,
    title: `Title of ${over.videoId ?? 'vid00000000'}`,
    publishedAt: new Date(T0),
    language: 'en',
    kind: 'manual',
    state: 'ready',
    attempts: 1,
    nextAttemptAt: null,
    lastError: null,
    fetchedAt: new Date(T0),
    videoKind: 'regular',
    durationSeconds: 316,
    description: 'About this video.',
    ...over,
  };
}

/** A field of a numbered video: a fixed value, or one computed from the video's number. */
type PerVideo<T> = { [K in keyof T]?: T[K] | ((n: number) => T[K]) };

/**
 * Numbered videos: `video(n)` is video n of a suite (id `vid` + n padded to 8, title `Video n`,
 * published an hour apart, newest first), with the
 * suite's `defaults` applied and then the call's own `over`.
 */
export function videoFactory(defaults: PerVideo<VideoRecord> = {}): (n: number, over?: Partial<VideoRecord>) => VideoRecord {
  return (n, over = {}) => {
    const fields: Partial<VideoRecord> = {
      videoId: `vid${String(n).padStart(8, '0')}`,
      title: `Video ${n}`,
      publishedAt: new Date(T0 - n * 3_600_000),
      fetchedAt: new Date(T0 + n * 1000),
    };
    for (const [key, value] of Object.entries(defaults)) {
      (fields as Record<string, unknown>)[key] = typeof value === 'function' ? (value as (n: number) => unknown)(n) : value;
    }
    return videoRecord({ ...fields, ...over });
  };
}

/** The default text of a factory video's transcript. */
export const transcriptTextOf = (v: Pick<VideoRecord, 'videoId'>): string => `Transcript of ${v.videoId}.`;

/**
 * The stored transcript of video `v` in its own language and kind, as the crawler stores it with
 * the video: one paragraph of `text` at 0:00 (or the given paragraphs), written with the video.
 */
export function transcriptRecord(v: VideoRecord, text: string | TranscriptRecord['paragraphs'] = transcriptTextOf(v)): TranscriptRecord {
  const paragraphs = typeof text === 'string' ? [{ startMs: 0, text }] : text;
  return { videoId: v.videoId, language: v.language ?? 'en', kind: v.kind ?? 'manual', paragraphs, fetchedAt: v.fetchedAt };
}

/**
 * The arguments of store.upsertVideos for `videos` and the transcripts of the ready ones among
 * them: `store.upsertVideos(...withTranscripts([video(1), video(2)]))`. `text` picks a video's text.
 */
export function withTranscripts(videos: readonly VideoRecord[], text: (v: VideoRecord) => string = transcriptTextOf): [VideoRecord[], TranscriptRecord[]] {
  return [[...videos], videos.filter((v) => v.state === 'ready').map((v) => transcriptRecord(v, text(v)))];
}

/** The HTML a feed entry shows for video `v` with this stored transcript (the one renderer). */
export function entryHtmlOf(v: VideoRecord, t: TranscriptRecord = transcriptRecord(v)): string {
  return renderTranscriptHtml({ videoId: v.videoId, language: t.language, kind: t.kind, paragraphs: t.paragraphs, chapters: parseChapters(v.description, v.durationSeconds), untimed: t.untimed });
}

/**
 * The stored transcript each of these videos shows without `lang` (its row in the video's own
 * language), by video id; videos without one are left out. Its text: `textOf`.
 */
export async function mainTranscripts(store: StoredTextStore, videoIds: readonly string[]): Promise<Map<string, TranscriptRecord>> {
  const language = new Map((await store.getVideos(videoIds)).map((v) => [v.videoId, v.language]));
  const rows = await store.getTranscripts(videoIds);
  return new Map(rows.filter((t) => language.get(t.videoId) === t.language).map((t) => [t.videoId, t]));
}

/** A stored transcript's text, its paragraphs joined by blank lines. */
export const textOf = (t: TranscriptRecord | undefined): string => (t?.paragraphs ?? []).map((p) => p.text).join('\n\n');

/** The HTML a feed shows for transcript `t` of `videoId` once the crawler stored it with its video. */
export function feedHtmlOf(videoId: string, t: Transcript): string {
  const v = videoRecord({ videoId, language: t.language, kind: t.kind, description: t.details?.description ?? null, durationSeconds: t.details?.durationSeconds ?? null });
  return entryHtmlOf(v, transcriptRecord(v, t.paragraphs));
}
