// Stores written before transcripts were kept once: the HTML on video rows becomes paragraphs (or
// is dropped where paragraphs were stored beside it), the column goes, and every entry still shows
// its text. The SQLite case opens a real file written in the old schema (steps 1-6 and the rows
// the old code wrote); legacy-html.ts is checked against what the old renderer produced.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { buildFeedModel, NO_TRANSCRIPT_NOTE } from '../../api/feed/state';
import { UNREADABLE_TRANSCRIPT_NOTE } from '../../api/feed/transcript-choice';
import { escapeHtml } from '../../shared/transcript/entities';
import { silentLogger } from '../../shared/logger';
import { openStore, type Store } from '../../shared/store';
import { paragraphsFromHtml } from '../../shared/store/legacy-html';
import { MIGRATIONS } from '../../shared/store/sqlite/migrations';
import { parseChapters } from '../../shared/transcript/chapters';
import { renderTranscriptHtml } from '../../shared/transcript/html';

const VIDEO = 'dQw4w9WgXcQ';
const CHAPTERS = '0:00 Intro\n1:00 Body <&>\n2:00 End';
const TIMED = [
  { startMs: 0, text: 'Hello & welcome <b>.' },
  { startMs: 12_345, text: 'It\'s "quoted" — ]]> 😀 çğıöşü' },
  { startMs: 60_000, text: 'Body starts.' },
  { startMs: 3_725_900, text: 'An hour in.' },
];

/** What the code before wrote on the video row once timed paragraphs were rendered. */
const timedHtml = (videoId: string, paragraphs = TIMED, kind: 'manual' | 'automatic' = 'manual'): string =>
  renderTranscriptHtml({ videoId, language: 'en', kind, paragraphs, chapters: parseChapters(CHAPTERS, 300) });
/** What the first releases wrote: bare paragraphs, no times. */
const plainHtml = (texts: readonly string[]): string => texts.map((t) => `<p>${escapeHtml(t)}</p>`).join('\n');
/** Times as the HTML kept them: whole seconds. */
const wholeSeconds = (ps: typeof TIMED) => ps.map((p) => ({ startMs: Math.floor(p.startMs / 1000) * 1000, text: p.text }));

describe('transcripts stored as HTML → paragraphs', () => {
  it('recovers timed paragraphs from the rendered form: times, text, no note, no chapter headings', () => {
    expect(paragraphsFromHtml(timedHtml(VIDEO))).to.deep.equal({ paragraphs: wholeSeconds(TIMED), untimed: false });
  });

  it('keeps the text of the first form (bare paragraphs) and marks it untimed', () => {
    const texts = ['5 < 6 & a ]]> b', 'Türkçe: çğıöşü İĞÜŞÖÇ 🎉', 'it\'s "x"'];
    expect(paragraphsFromHtml(plainHtml(texts))).to.deep.equal({ paragraphs: texts.map((text) => ({ startMs: 0, text })), untimed: true });
  });

  it('keeps text outside any paragraph, and gives nothing for nothing', () => {
    expect(paragraphsFromHtml('just &amp; text')).to.deep.equal({ paragraphs: [{ startMs: 0, text: 'just & text' }], untimed: true });
    expect(paragraphsFromHtml('')).to.deep.equal({ paragraphs: [], untimed: true });
  });
});

describe('sqlite: a store written by the old schema', function () {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-migrate-'));
    file = path.join(dir, 'old.db');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const CHANNEL = 'UCuAXFkgsw1L7xaCfnd5JJOw';
  const T0 = Date.UTC(2026, 0, 1);
  /** Enough HTML-only rows to cross the migration's page size several times. */
  const LEGACY_COUNT = 1_234;
  const legacyId = (i: number): string => `leg${String(i).padStart(8, '0')}`;

  /** Steps 1-6 as released, and rows as the code of that time wrote them. */
  function writeOldStore(): void {
    const db = new Database(file);
    try {
      for (const step of MIGRATIONS.slice(0, 6)) db.exec(step as string);
      db.exec('CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version (version) VALUES (6)');
      const insert = db.prepare(`INSERT INTO videos (video_id, channel_id, title, published_at, language, kind, state, attempts,
        next_attempt_at, last_error, fetched_at, transcript_html, video_kind, duration_seconds, description)
        VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, NULL, ?, ?, 'regular', 300, ?)`);
      const row = db.prepare('INSERT INTO transcripts (video_id, language, kind, fetched_at, paragraphs) VALUES (?, ?, ?, ?, ?)');
      db.transaction(() => {
        // Written with both copies: paragraphs beside the HTML (and a translation).
        insert.run('both0000001', CHANNEL, 'Both', T0 + 5, 'en', 'manual', 'ready', null, T0 + 5, timedHtml('both0000001', [{ startMs: 0, text: 'stale html' }]), CHAPTERS);
        row.run('both0000001', 'en', 'manual', T0 + 5, JSON.stringify([{ startMs: 1500, text: 'from paragraphs' }]));
        row.run('both0000001', 'tr', 'translated', T0 + 5, JSON.stringify([{ startMs: 1500, text: 'çeviri' }]));
        // Timed HTML only (stored before paragraphs were), with chapters in its description.
        insert.run('timed000001', CHANNEL, 'Timed', T0 + 4, 'en', 'automatic', 'ready', null, T0 + 4, timedHtml('timed000001', TIMED, 'automatic'), CHAPTERS);
        // A damaged paragraphs row beside good HTML: the HTML is the text that is left.
        insert.run('damaged0001', CHANNEL, 'Damaged', T0 + 3, 'en', 'manual', 'ready', null, T0 + 3, timedHtml('damaged0001', [{ startMs: 0, text: 'kept from html' }]), null);
        row.run('damaged0001', 'en', 'manual', T0 + 3, '[{"startMs":');
        // Not ready: nothing to convert.
        insert.run('nocaption01', CHANNEL, 'None', T0 + 2, null, null, 'no_transcript', null, T0 + 2, null, null);
        // The first form, many of them.
        for (let i = 0; i < LEGACY_COUNT; i++) {
          insert.run(legacyId(i), CHANNEL, `Legacy ${i}`, T0 - i, 'en', i % 2 ? 'manual' : 'automatic', 'ready', null, T0 - i, plainHtml([`Old text ${i} & <more>`, `second ${i}`]), null);
        }
      })();
    } finally {
      db.close();
    }
  }

  async function feedHtml(store: Store, limit: number): Promise<Map<string, string>> {
    const videos = await store.listFeedEntries(CHANNEL, limit);
    const transcripts = await store.getTranscripts(videos.map((v) => v.videoId));
    const model = buildFeedModel({ channelId: CHANNEL, channelTitle: null, videos, transcripts, updated: new Date(T0), selfUrl: 'http://x/' });
    return new Map(model.entries.map((e) => [e.videoId, e.html]));
  }

  it('converts every HTML-only row, keeps stored paragraphs, drops the column, and every entry shows its text', async function () {
    writeOldStore();
    const store = await openStore(`sqlite:${file}`, { logger: silentLogger() });
    try {
      const byKey = new Map((await store.getTranscripts(['both0000001', 'timed000001', 'damaged0001', 'nocaption01', legacyId(0), legacyId(LEGACY_COUNT - 1)]))
        .map((t) => [`${t.videoId}/${t.language}`, t]));
      expect([...byKey.keys()].sort()).to.deep.equal(['both0000001/en', 'both0000001/tr', 'damaged0001/en', `${legacyId(0)}/en`, `${legacyId(LEGACY_COUNT - 1)}/en`, 'timed000001/en']);
      expect(byKey.get('both0000001/en')!.paragraphs, 'stored paragraphs win over the HTML copy').to.deep.equal([{ startMs: 1500, text: 'from paragraphs' }]);
      expect(byKey.get('timed000001/en')).to.deep.include({ kind: 'automatic', paragraphs: wholeSeconds(TIMED), fetchedAt: new Date(T0 + 4) });
      expect(byKey.get('timed000001/en')!.untimed).to.equal(undefined);
      expect(byKey.get('damaged0001/en')!.paragraphs).to.deep.equal([{ startMs: 0, text: 'kept from html' }]);
      expect(byKey.get(`${legacyId(0)}/en`)).to.deep.include({
        kind: 'automatic', untimed: true, paragraphs: [{ startMs: 0, text: 'Old text 0 & <more>' }, { startMs: 0, text: 'second 0' }],
      });

      const html = await feedHtml(store, 100);
      expect(html.get('both0000001')).to.include('from paragraphs').and.not.include('stale html');
      expect(html.get('timed000001')).to.equal(timedHtml('timed000001', wholeSeconds(TIMED), 'automatic'));
      expect(html.get('damaged0001')).to.include('kept from html');
      expect(html.get(legacyId(0))).to.equal('<p><small>Transcript: English (en), automatic captions</small></p>\n<p>Old text 0 &amp; &lt;more&gt;</p>\n<p>second 0</p>');
      // Every legacy row, not only the first page: each entry shows its own text.
      const all = await store.getTranscripts(Array.from({ length: LEGACY_COUNT }, (_, i) => legacyId(i)));
      expect(all).to.have.length(LEGACY_COUNT);
      all.forEach((t) => expect(t.paragraphs[0]!.text).to.equal(`Old text ${Number(t.videoId.slice(3))} & <more>`));
      expect(html.get('nocaption01'), 'given up without captions, as before').to.equal(NO_TRANSCRIPT_NOTE);
      // The converted text is searchable like any stored transcript.
      const hits = await store.searchVideos({ all: [[['old', 'text', '17']]], none: [] }, { channelIds: null, kinds: ['regular'] }, 10);
      expect(hits.map((h) => h.video.videoId)).to.deep.equal([legacyId(17)]);
      for (const [id, entry] of html) if (id !== 'nocaption01') expect(entry, id).not.to.be.oneOf([NO_TRANSCRIPT_NOTE, UNREADABLE_TRANSCRIPT_NOTE]);
    } finally {
      await store.close();
    }

    const db = new Database(file, { readonly: true });
    try {
      const columns = (db.prepare("SELECT name FROM pragma_table_info('videos')").all() as { name: string }[]).map((c) => c.name);
      expect(columns).not.to.include('transcript_html');
      expect(db.prepare('SELECT version FROM schema_version').pluck().get()).to.equal(MIGRATIONS.length);
    } finally {
      db.close();
    }
  });

  it('a store migrated once opens again unchanged', async function () {
    writeOldStore();
    const first = await openStore(`sqlite:${file}`, { logger: silentLogger() });
    const before = await feedHtml(first, 100);
    await first.close();
    const second = await openStore(`sqlite:${file}`, { logger: silentLogger() });
    try {
      expect(await feedHtml(second, 100)).to.deep.equal(before);
    } finally {
      await second.close();
    }
  });
});
