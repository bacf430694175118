// MongoDB stores written before transcripts were kept once: video documents carrying
// `transcriptHtml` get paragraphs where they have none readable, lose the field, and every entry
// still shows its text. On the emulator, or the real server MONGODB_URI names; each test gets its
// own database, dropped afterwards.

import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { silentLogger } from '../../shared/logger';
import { htmlTranscriptsToParagraphs } from '../../shared/store/mongo/legacy-transcripts';
import { connectMongoStore } from '../../shared/store/mongo/mongo-store';
import { escapeHtml } from '../../shared/transcript/entities';
import { renderTranscriptHtml } from '../../shared/transcript/html';
import { mongoTestDatabase } from '../support/mongo-emulator';

const CHANNEL = 'UCuAXFkgsw1L7xaCfnd5JJOw';
const T0 = new Date(Date.UTC(2026, 0, 1));
const TIMED = [{ startMs: 0, text: 'Hello & <b>.' }, { startMs: 61_000, text: 'Later ]]> 😀' }];

/** A video document as the code before wrote it. */
const oldDoc = (id: string, html: string | null, state = 'ready') => ({
  _id: id, channelId: CHANNEL, title: id, publishedAt: T0, language: html === null ? null : 'en', kind: html === null ? null : 'manual',
  state, attempts: 1, nextAttemptAt: null, lastError: null, fetchedAt: T0, transcriptHtml: html, videoKind: 'regular', durationSeconds: 300,
  description: null, inFeed: true,
});

describe('mongodb: a store written by the old schema', function () {
  this.timeout(60_000);
  let client: MongoClient;
  let target: Awaited<ReturnType<typeof mongoTestDatabase>>;
  beforeEach(async () => {
    target = await mongoTestDatabase();
    client = new MongoClient(target.url, { serverSelectionTimeoutMS: 3000 });
    await client.connect();
  });
  afterEach(async () => {
    await client.close();
    await target.drop();
  });

  it('converts HTML-only documents, keeps readable paragraphs, removes the field, and converts nothing twice', async function () {
    const db = client.db(target.dbName);
    const legacy = Array.from({ length: 700 }, (_, i) => oldDoc(`leg${String(i).padStart(8, '0')}`, `<p>${escapeHtml(`Old ${i} & <x>`)}</p>`));
    await db.collection('videos').insertMany([
      oldDoc('timed000001', renderTranscriptHtml({ videoId: 'timed000001', language: 'en', kind: 'manual', paragraphs: TIMED, chapters: [] })),
      oldDoc('both0000001', '<p>stale html</p>'),
      oldDoc('damaged0001', '<p>kept from html</p>'),
      oldDoc('nocaption01', null, 'no_transcript'),
      ...legacy,
    ] as never[]);
    await db.collection('transcripts').insertMany([
      { _id: 'both0000001\nen', videoId: 'both0000001', language: 'en', kind: 'manual', paragraphs: [{ startMs: 1500, text: 'from paragraphs' }], fetchedAt: T0 },
      { _id: 'damaged0001\nen', videoId: 'damaged0001', language: 'en', kind: 'manual', paragraphs: 'not a list', fetchedAt: T0 },
    ] as never[]);

    const store = await connectMongoStore(target.url, { logger: silentLogger(), serverSelectionTimeoutMS: 3000 });
    try {
      const rows = new Map((await store.getTranscripts(['timed000001', 'both0000001', 'damaged0001', 'nocaption01', 'leg00000000', 'leg00000699'])).map((t) => [t.videoId, t]));
      expect([...rows.keys()].sort()).to.deep.equal(['both0000001', 'damaged0001', 'leg00000000', 'leg00000699', 'timed000001']);
      expect(rows.get('timed000001')).to.deep.include({ paragraphs: TIMED });
      expect(rows.get('timed000001')!.untimed).to.equal(undefined);
      expect(rows.get('both0000001')!.paragraphs).to.deep.equal([{ startMs: 1500, text: 'from paragraphs' }]);
      expect(rows.get('damaged0001')!.paragraphs).to.deep.equal([{ startMs: 0, text: 'kept from html' }]);
      expect(rows.get('leg00000699')).to.deep.include({ untimed: true, paragraphs: [{ startMs: 0, text: 'Old 699 & <x>' }] });
      expect(await store.getTranscripts(legacy.map((d) => d._id))).to.have.length(legacy.length);
      expect(await db.collection('videos').countDocuments({ transcriptHtml: { $exists: true } })).to.equal(0);
      expect(await htmlTranscriptsToParagraphs(db), 'a converted store converts nothing again').to.equal(0);
      // The converted text is searchable like any stored transcript.
      const hits = await store.searchVideos({ all: [[['old', '17']]], none: [] }, { channelIds: null, kinds: ['regular'] }, 10);
      expect(hits.map((h) => h.video.videoId)).to.deep.equal(['leg00000017']);
    } finally {
      await store.close();
    }
  });
});
