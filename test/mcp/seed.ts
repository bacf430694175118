// The archive the MCP tests ask: one channel with three short videos (one in Turkish and English),
// one three-hour video whose transcript takes several pages, hostile platform text, and a video
// the crawler gave up on. Written through the store's own upsert, so both stores hold the same.

import type { Store, TranscriptRecord, VideoRecord } from '../../shared/store/types';
import { videoFactory } from '../support/factories';

export const MCP_CHANNEL = 'UCmcpTestChannel0000001A';
export const LONG_VIDEO = 'vid00000009';
export const NO_CAPTIONS = 'vid00000008';
export const HOSTILE_TEXT = '<script>alert(1)</script> "><img src=x onerror=alert(1)> \u202Eevil';

const video = videoFactory({ channelId: MCP_CHANNEL });

/** A paragraph every 20 s for three hours: 540 paragraphs of about 300 bytes (~160 KB). */
export const LONG_PARAGRAPHS = Array.from({ length: 540 }, (_, i) => ({ startMs: i * 20_000, text: `Part ${i}: ${'the long talk goes on about heat pumps and solar panels. '.repeat(5).trim()}` }));

export async function seedArchive(store: Pick<Store, 'upsertVideos' | 'registerChannel' | 'nameChannel'>): Promise<VideoRecord[]> {
  const now = new Date(Date.UTC(2030, 0, 1, 12, 0, 0));
  await store.registerChannel({ channelId: MCP_CHANNEL, wanted: 20 }, now);
  await store.nameChannel(MCP_CHANNEL, 'Energy Talks');
  const videos = [
    video(1, { title: 'Heat pumps explained', description: '0:00 Intro\n1:00 How they work\n2:30 Costs', durationSeconds: 300 }),
    video(2, { title: HOSTILE_TEXT }),
    video(3, { title: 'Türkçe ısı pompası', language: 'tr' }),
    video(8, { state: 'no_transcript', language: null, kind: null, nextAttemptAt: null }),
    video(9, { title: 'Three hours on energy', durationSeconds: 3 * 3600 }),
  ];
  const t = (v: VideoRecord, paragraphs: TranscriptRecord['paragraphs'], language = 'en', kind: TranscriptRecord['kind'] = 'manual'): TranscriptRecord => ({ videoId: v.videoId, language, kind, paragraphs, fetchedAt: now });
  const transcripts = [
    t(videos[0]!, [{ startMs: 0, text: 'Welcome to the show.' }, { startMs: 60_000, text: 'A heat pump moves heat instead of making it.' }, { startMs: 150_000, text: 'Costs come down every year.' }]),
    t(videos[1]!, [{ startMs: 0, text: HOSTILE_TEXT }, { startMs: 5_000, text: 'javascript:alert(1) is just words here, like heat pump.' }]),
    t(videos[2]!, [{ startMs: 0, text: 'Isı pompası çok verimli.' }], 'tr'),
    t(videos[2]!, [{ startMs: 0, text: 'A heat pump is very efficient.' }], 'en', 'translated'),
    t(videos[4]!, LONG_PARAGRAPHS),
  ];
  await store.upsertVideos(videos, transcripts);
  return videos;
}
