// The MongoDB step that leaves one copy of each transcript: video documents written before carry
// the rendered HTML (`transcriptHtml`); a video without readable paragraphs for its language gets
// them from that HTML (legacy-html.ts) and its search document is made again with that text, then
// the field is removed. Page by page, transcripts before the unset, every write idempotent: a step interrupted anywhere is finished by running
// it again, and a store already converted costs one empty query.

import type { AnyBulkWriteOperation, Db } from 'mongodb';
import { legacyTrack, paragraphsFromHtml } from '../legacy-html';
import { rebuildSearchDocs } from './search-rebuild';
import { transcriptRecordOf, transcriptKey, type TranscriptDoc } from './transcripts';
import type { VideoDoc } from './videos';

/** Videos converted per round trip: the HTML of a whole store is never in memory at once. */
const CONVERT_PAGE = 500;

export async function htmlTranscriptsToParagraphs(db: Db): Promise<number> {
  const videos = db.collection<VideoDoc>('videos');
  const transcripts = db.collection<TranscriptDoc>('transcripts');
  let converted = 0;
  for (;;) {
    const page = await videos
      .find({ transcriptHtml: { $exists: true } }, { projection: { _id: 1, language: 1, kind: 1, fetchedAt: 1, transcriptHtml: 1 } })
      .sort({ _id: 1 })
      .limit(CONVERT_PAGE)
      .toArray();
    if (page.length === 0) return converted;
    const withHtml = page.filter((v) => typeof v.transcriptHtml === 'string');
    const stored = await transcripts
      .find({ _id: { $in: withHtml.map((v) => transcriptKey(v._id, legacyTrack(v.language, v.kind).language)) } })
      .toArray();
    const readable = new Set(stored.filter((d) => transcriptRecordOf(d) !== null).map((d) => d._id));
    const writes: AnyBulkWriteOperation<TranscriptDoc>[] = [];
    const tracks: AnyBulkWriteOperation<VideoDoc>[] = [];
    for (const v of withHtml) {
      const track = legacyTrack(v.language, v.kind);
      if (v.language !== track.language || v.kind !== track.kind) {
        tracks.push({ updateOne: { filter: { _id: v._id }, update: { $set: { language: track.language, kind: track.kind } } } });
      }
      const key = transcriptKey(v._id, track.language);
      if (readable.has(key)) continue;
      const { paragraphs, untimed } = paragraphsFromHtml(v.transcriptHtml!);
      const fields = { videoId: v._id, language: track.language, kind: track.kind, paragraphs, fetchedAt: v.fetchedAt };
      writes.push({
        updateOne: { filter: { _id: key }, update: untimed ? { $set: { ...fields, untimed: true } } : { $set: fields, $unset: { untimed: '' } }, upsert: true },
      });
    }
    if (writes.length > 0) await transcripts.bulkWrite(writes, { ordered: false });
    if (tracks.length > 0) await videos.bulkWrite(tracks, { ordered: false });
    if (writes.length > 0) await rebuildSearchDocs(db, withHtml.map((v) => v._id));
    await videos.updateMany({ _id: { $in: page.map((v) => v._id) } }, { $unset: { transcriptHtml: '' } });
    converted += writes.length;
  }
}
