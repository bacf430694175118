// What the search index can cost at the least, beside the batch write it is kept in step with.
// The store's upsert with the index is compared with the same upsert without it (bench/search.ts);
// this part takes the store away and times FTS5 alone on the same text, already folded, in the
// same batches: once as the store keeps it (positions, so phrases are decided by the index) and
// once in FTS5's cheapest form (detail=none: no positions, no columns). Each form's time is added to
// the plain batch write's to give the best ratio an index of that form could reach even if every
// other step of indexing (folding the text, the rowid map, deleting a replaced row) cost nothing.

import path from 'node:path';
import Database from 'better-sqlite3';
import { silentLogger } from '../shared/logger';
import { fold } from '../shared/search/fold';
import type { TranscriptRecord, VideoRecord } from '../shared/store';
import { openSqliteStore } from '../shared/store/sqlite/sqlite-store';
import { PARAGRAPH_BREAK } from '../shared/store/sqlite/search';
import { msSince, round } from './support';
import type { BenchRow } from './types';

interface Batch {
  videos: VideoRecord[];
  transcripts: TranscriptRecord[];
}

/** The store's tokenizer (shared/store/sqlite/search.ts): text arrives folded, FTS5 only splits it. */
const TOKENIZER = `tokenize = "unicode61 remove_diacritics 0 categories 'L* N*' tokenchars '${PARAGRAPH_BREAK}'"`;
const FORMS = [
  { label: 'positions kept, as the store keeps them', options: `content = '', contentless_delete = 1, ${TOKENIZER}` },
  { label: 'detail=none, the cheapest form (no positions)', options: `content = '', detail = none, ${TOKENIZER}` },
] as const;


/** One bare FTS5 table of a form, timed per batch of already folded documents. */
function ftsEngine(file: string, options: string) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(title, body, ${options})`);
  const insert = db.prepare<[number, string, string]>('INSERT INTO t (rowid, title, body) VALUES (?, ?, ?)');
  const write = db.transaction((docs: [string, string][], first: number) => docs.forEach(([title, body], k) => insert.run(first + k, title, body)));
  return { db, ms: 0, write };
}

/** A batch as the index sees it: each video's folded title and folded paragraphs. */
export const foldedDocs = (batch: Batch): [string, string][] =>
  batch.videos.map((v, k) => [fold(v.title), fold(batch.transcripts[k]!.paragraphs.map((p) => p.text).join(` ${PARAGRAPH_BREAK} `))]);

/**
 * FTS5 alone in the store's own form, fed the same batches as the store beside it (bench/search.ts
 * loadBoth), so "the store's upsert with its index against plain write + FTS5 alone" is measured on
 * the same text and the same growth of the index. Folding is not timed here: it is part of what the
 * store's index upkeep costs beyond FTS5.
 */
export function sameTextFts(dir: string) {
  const engine = ftsEngine(path.join(dir, 'same-text-fts.db'), FORMS[0].options);
  let videos = 0;
  return {
    add(batch: Batch): void {
      const docs = foldedDocs(batch);
      const start = process.hrtime.bigint();
      engine.write(docs, videos + 1);
      engine.ms += msSince(start);
      videos += docs.length;
    },
    get ms(): number {
      return engine.ms;
    },
    close: () => engine.db.close(),
  };
}

/** Rows for the README: fold, and FTS5 alone in each form, each beside the plain batch write. */
export async function indexFloor(dir: string, batches: Iterable<Batch>): Promise<BenchRow[]> {
  const plain = openSqliteStore(path.join(dir, 'floor-plain.db'), silentLogger(), { indexSearch: false });
  const engines = FORMS.map((form, i) => ({ form, ...ftsEngine(path.join(dir, `floor-fts-${i}.db`), form.options) }));
  let plainMs = 0;
  let foldMs = 0;
  let videos = 0;
  try {
    for (const batch of batches) {
      let start = process.hrtime.bigint();
      await plain.upsertVideos(batch.videos, batch.transcripts);
      plainMs += msSince(start);
      start = process.hrtime.bigint();
      const docs = foldedDocs(batch);
      foldMs += msSince(start);
      for (const e of engines) {
        start = process.hrtime.bigint();
        e.write(docs, videos + 1);
        e.ms += msSince(start);
      }
      videos += batch.videos.length;
    }
  } finally {
    await plain.close();
    for (const e of engines) e.db.close();
  }
  const perVideo = (ms: number): number => round((ms * 1000) / videos, 0);
  const baseline = { label: 'the plain batch write of the same videos', value: perVideo(plainMs) };
  return [
    {
      metric: `folding the title and paragraphs for the index (shared/search/fold.ts), ${videos.toLocaleString('en-US')} videos; lower is better`,
      value: perVideo(foldMs), unit: 'µs/video', baseline, ratio: round(foldMs / plainMs, 2),
    },
    ...engines.map((e): BenchRow => ({
      metric: `FTS5 alone, ${e.form.label}, folded text, same batches; ratio = the best upsert ratio an index of this form allows (plain / (plain + FTS5))`,
      readme: `FTS5 insert alone, ${e.form.label.split(',')[0]}`,
      value: perVideo(e.ms), unit: 'µs/video', baseline,
      ratio: round(plainMs / (plainMs + e.ms), 2),
    })),
  ];
}
