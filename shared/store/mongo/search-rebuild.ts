// The search documents of some videos made again from what the store holds now: for writes that
// reach videos or transcripts without a batch write (the conversion of old stores, store:copy).

import type { Db } from 'mongodb';
import type { TranscriptRecord } from '../types';
import { searchDocUpdates, type SearchDoc } from './search';
import { transcriptRecordOf, type TranscriptDoc } from './transcripts';
import { toRecord as videoRecordOf, type VideoDoc } from './videos';

export async function rebuildSearchDocs(db: Db, videoIds: readonly string[]): Promise<void> {
  if (videoIds.length === 0) return;
  const stored = await db.collection<VideoDoc>('videos').find({ _id: { $in: [...videoIds] } }).toArray();
  const texts = await db.collection<TranscriptDoc>('transcripts').find({ videoId: { $in: [...videoIds] } }).toArray();
  const updates = searchDocUpdates(stored.map(videoRecordOf), texts.map(transcriptRecordOf).filter((t): t is TranscriptRecord => t !== null));
  if (updates.length > 0) await db.collection<SearchDoc>('search').bulkWrite(updates, { ordered: false });
}
