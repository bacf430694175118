// The query that picks the next video to summarise (issue 31) reads an index in its own order in
// both stores: SQLite's plan walks videos_summary_queue with no sort of the table, and MongoDB's
// schema steps give the videos the summary_queue index the scan is hinted to (the emulator has no
// query plans: the index's definition is checked, and the scan's paging over it).

import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { silentLogger } from '../../shared/logger';
import { openStore } from '../../shared/store';
import { connectMongoStore } from '../../shared/store/mongo/mongo-store';
import { SUMMARY_QUEUE_INDEX } from '../../shared/store/mongo/summaries';
import { CANDIDATES_SQL } from '../../shared/store/sqlite/summaries';
import { PROMPT_VERSION } from '../../shared/summary/prompt';
import { mongoTestDatabase } from '../support/mongo-emulator';
import { transcriptRecord, videoRecord } from '../support/factories';

describe('the summary queue\'s next-video query uses an index (issue 31)', function () {
  this.timeout(30_000);
  const key = { language: 'transcript', promptVersion: PROMPT_VERSION };

  it('SQLite: the candidates query walks videos_summary_queue, no temporary sort', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'summary-index-'));
    try {
      const file = path.join(dir, 'store.db');
      await (await openStore(`sqlite:${file}`, { logger: silentLogger() })).close();
      const db = new Database(file, { readonly: true });
      try {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${CANDIDATES_SQL}`).all({ language: 'transcript', version: PROMPT_VERSION, now: 0, limit: 1 }) as { detail: string }[]).map((r) => r.detail).join('; ');
        expect(plan).to.include('videos_summary_queue').and.not.include('TEMP B-TREE');
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('MongoDB: the schema steps create the summary_queue index, and the scan pages through it newest first', async () => {
    const target = await mongoTestDatabase();
    const client = new MongoClient(target.url, { serverSelectionTimeoutMS: 3000 });
    const store = await connectMongoStore(target.url, { logger: silentLogger(), serverSelectionTimeoutMS: 3000 });
    try {
      const indexes = await client.db(target.dbName).collection('videos').listIndexes().toArray();
      expect(indexes.find((i) => i.name === SUMMARY_QUEUE_INDEX)?.key).to.deep.equal({ publishedAt: -1, _id: 1 });
      // More videos than one page of the scan (200), two sharing a published time: every one is
      // found once, newest first, the shared time in id order.
      const base = Date.UTC(2025, 0, 1);
      const vs = Array.from({ length: 205 }, (_, i) => videoRecord({ videoId: `vid${String(i).padStart(8, '0')}`, publishedAt: new Date(base + (i === 204 ? 203 : i) * 60_000) }));
      await store.upsertVideos(vs, vs.map((v) => transcriptRecord(v)));
      const now = new Date(base + 10 * 86_400_000);
      const claimed = await store.claimSummaries(key, 'a', now, 60_000, 300);
      const expected = [...vs].sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime() || (a.videoId < b.videoId ? -1 : 1)).map((v) => v.videoId);
      expect(claimed).to.deep.equal(expected);
      expect((await store.summaryCounts(key, now)).waiting).to.equal(0);
    } finally {
      await store.close();
      await client.close();
      await target.drop();
    }
  });
});
