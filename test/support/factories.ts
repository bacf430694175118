// The one VideoRecord factory of tests and benchmarks. Every field has a default; a suite that
// needs its own ids, dates or states passes them, either as values or as functions of the
// video's number, so "video n" means the same shape everywhere and only the suite's facts differ.

import type { VideoRecord } from '../../shared/store/types';

/** A channel id of the valid form (UC + 22 characters), the default owner of factory videos. */
export const FACTORY_CHANNEL = 'UCuAXFkgsw1L7xaCfnd5JJOw';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

/** A ready video with a transcript; `over` replaces any field. */
export function videoRecord(over: Partial<VideoRecord> = {}): VideoRecord {
  return {
    videoId: 'vid00000000',
    channelId: FACTORY_CHANNEL,
    title: `Title of ${over.videoId ?? 'vid00000000'}`,
    publishedAt: new Date(T0),
    transcriptHtml: '<p>hello</p>',
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
 * transcript `<p>Transcript of video n.</p>`, published an hour apart, newest first), with the
 * suite's `defaults` applied and then the call's own `over`.
 */
export function videoFactory(defaults: PerVideo<VideoRecord> = {}): (n: number, over?: Partial<VideoRecord>) => VideoRecord {
  return (n, over = {}) => {
    const fields: Partial<VideoRecord> = {
      videoId: `vid${String(n).padStart(8, '0')}`,
      title: `Video ${n}`,
      transcriptHtml: `<p>Transcript of video ${n}.</p>`,
      publishedAt: new Date(T0 - n * 3_600_000),
      fetchedAt: new Date(T0 + n * 1000),
    };
    for (const [key, value] of Object.entries(defaults)) {
      (fields as Record<string, unknown>)[key] = typeof value === 'function' ? (value as (n: number) => unknown)(n) : value;
    }
    return videoRecord({ ...fields, ...over });
  };
}
