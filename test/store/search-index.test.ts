// The SQLite search index's own cases: built for an existing store by the migration (progress in
// the log), contentless (no second copy of the text), and the MATCH expression built only from
// quoted words whatever the reader typed.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { parseSearchText } from '../../api/query/search-query';
import { openStore } from '../../shared/store';
import { MIGRATIONS } from '../../shared/store/sqlite/migrations';
import { BUILD_LOG_EVERY, matchExpression } from '../../shared/store/sqlite/search';
import { captureLogs } from '../support/logs';

const SEARCH_STEP = MIGRATIONS.findIndex((step) => typeof step !== 'string' && step.toString().includes('SEARCH_SCHEMA'));

describe('sqlite search index', function () {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-search-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is built for an existing store by its migration, which logs its progress', async function () {
    expect(SEARCH_STEP).to.be.greaterThan(0);
    const file = path.join(dir, 'store.db');
    const old = new Database(file);
    for (const step of MIGRATIONS.slice(0, SEARCH_STEP)) old.exec(step as string);
    old.exec(`CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version (version) VALUES (${SEARCH_STEP})`);
    const count = BUILD_LOG_EVERY + 10;
    const put = old.prepare(`INSERT INTO videos (video_id, channel_id, title, published_at, state, attempts, fetched_at, language, kind)
      VALUES (?, 'UCaaaaaaaaaaaaaaaaaaaaaa', ?, ?, ?, 1, 0, 'en', 'manual')`);
    const text = old.prepare(`INSERT INTO transcripts (video_id, language, kind, fetched_at, paragraphs) VALUES (?, 'en', 'manual', 0, ?)`);
    old.transaction(() => {
      for (let i = 0; i < count; i++) {
        const id = `old${String(i).padStart(8, '0')}`;
        put.run(id, `Old video ${i}`, 1_700_000_000_000 - i * 1000, i === 1 ? 'failed' : 'ready');
        text.run(id, JSON.stringify([{ startMs: 0, text: i % 1000 === 0 ? 'A rare İguana.' : 'Common words.' }]));
      }
    })();
    old.close();

    const { logger, lines } = captureLogs();
    const store = await openStore(`sqlite:${file}`, { logger });
    try {
      const messages = lines.map((l) => String(l.msg));
      expect(messages.filter((m) => m === 'building the search index'), 'indexed once, not once per search step').to.have.length(1);
      expect(messages).to.include(`search index: ${BUILD_LOG_EVERY} of ${count - 1} videos`);
      expect(messages).to.include('search index built');
      const q = parseSearchText('iguana');
      if (!q.ok) throw new Error(q.error);
      const hits = await store.searchVideos(q.value, { channelIds: null, kinds: ['regular'] }, 100);
      expect(hits.map((h) => h.video.videoId)).to.deep.equal(['old00000000', 'old00001000', 'old00002000', 'old00003000', 'old00004000', 'old00005000']);
      const common = parseSearchText('common');
      if (!common.ok) throw new Error(common.error);
      const all = await store.searchVideos(common.value, { channelIds: null, kinds: ['regular'] }, 100);
      expect(all.map((h) => h.video.videoId)).to.not.include('old00000001');
    } finally {
      await store.close();
    }
  });

  it('rebuilds an index of the first kind in its migration, text and scope kept', async function () {
    const file = path.join(dir, 'store.db');
    const REBUILD_STEP = MIGRATIONS.length - 1 - [...MIGRATIONS].reverse().findIndex((step) => typeof step !== 'string' && step.toString().includes('SEARCH_SCHEMA'));
    expect(REBUILD_STEP).to.be.greaterThan(SEARCH_STEP);
    const old = new Database(file);
    const { logger } = captureLogs();
    for (const step of MIGRATIONS.slice(0, REBUILD_STEP)) {
      if (typeof step === 'string') old.exec(step);
      else step(old, logger);
    }
    old.exec(`CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version (version) VALUES (${REBUILD_STEP})`);
    old.prepare(`INSERT INTO videos (video_id, channel_id, title, published_at, state, attempts, fetched_at, language, kind)
      VALUES ('oldvideo001', 'UCaaaaaaaaaaaaaaaaaaaaaa', 'Kept title', 1700000000000, 'ready', 1, 0, 'tr', 'manual')`).run();
    old.prepare(`INSERT INTO transcripts (video_id, language, kind, fetched_at, paragraphs) VALUES ('oldvideo001', 'tr', 'manual', 0, ?)`)
      .run(JSON.stringify([{ startMs: 0, text: 'Kısa bir ılık rüzgâr.' }, { startMs: 9000, text: 'Sonra yağmur.' }]));
    old.close();

    const { logger: after, lines } = captureLogs();
    const store = await openStore(`sqlite:${file}`, { logger: after });
    try {
      expect(lines.map((l) => String(l.msg))).to.include('search index built');
      const find = async (text: string, channelIds: string[] | null = null): Promise<string[]> => {
        const parsed = parseSearchText(text);
        if (!parsed.ok) throw new Error(parsed.error);
        return (await store.searchVideos(parsed.value, { channelIds, kinds: ['regular'] }, 10)).map((h) => h.video.videoId);
      };
      expect(await find('"ilik ruzgar"')).to.deep.equal(['oldvideo001']);
      expect(await find('kept yagmur', ['UCaaaaaaaaaaaaaaaaaaaaaa'])).to.deep.equal(['oldvideo001']);
      expect(await find('"ruzgar sonra"'), 'not across a paragraph break').to.deep.equal([]);
      expect(await find('kept', ['UCbbbbbbbbbbbbbbbbbbbbbb'])).to.deep.equal([]);
    } finally {
      await store.close();
    }
  });

  it('keeps no copy of the text: the index table is contentless', async function () {
    const file = path.join(dir, 'store.db');
    const store = await openStore(`sqlite:${file}`, { logger: captureLogs().logger });
    await store.close();
    const db = new Database(file, { readonly: true });
    try {
      const sql = db.prepare<[], string>(`SELECT sql FROM sqlite_master WHERE name = 'search_index'`).pluck().get();
      expect(sql).to.match(/content\s*=\s*''/);
      expect(db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'search_index_content'`).get()).to.deep.equal({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('builds the MATCH expression from quoted folded words only, the scope outside it', function () {
    for (const text of ['NEAR(a b)', 'a* OR ^b', '"x y" -z', 'title: "a', '{body}: a', 'x OR y OR "p q" -"r s" -t', 'a\\"b', 'İstanbul', "'; --"]) {
      const q = parseSearchText(text);
      if (!q.ok) continue;
      const expr = matchExpression(q.value);
      // Outside string literals only our own column filters, parentheses and operators remain.
      const outside = expr.replace(/"(?:[^"]|"")*"/g, '""');
      expect(outside, text).to.match(/^[(){}: ""]*(?:(?:title|body|AND|OR|NOT)[(){}: ""]*)*$/);
      for (const lit of expr.match(/"(?:[^"]|"")*"/g) ?? []) expect(lit, text).to.match(/^"[\p{L}\p{N} ]+"$/u);
    }
    const q = parseSearchText('"open source" istanbul OR ankara -reklam');
    if (!q.ok) throw new Error(q.error);
    expect(matchExpression(q.value)).to.equal(
      '({title body} : (("open source") AND ("istanbul" OR "ankara"))) NOT {title body} : ("reklam")',
    );
  });
});
