// The search index of the embedded store: an FTS5 table over each feed entry's title and the
// stored paragraphs of all its transcripts, kept in step by the batch write's own transaction
// (reindex), and read by searchVideos. The table is contentless: it holds the index only, never a
// second copy of the text (the text stays in transcripts, the one copy).
//
// Each video is one row. Its text is folded by shared/search/fold.ts before FTS5 sees it (FTS5's
// unicode61 cannot fold Turkish dotless ı, nor compatibility forms), and FTS5 then only splits it
// into runs of letters and digits (categories 'L* N*', no folding of its own left to do), so the
// index holds exactly the words fold.ts gives the query. A paragraph break is a word no query can
// contain (a private-use character made a token character, which fold.ts never yields as a word),
// so a phrase never runs from one paragraph into the next. The index keeps positions (detail=full):
// every form of the query, phrases included, is decided by the one MATCH, so a search reads the
// stored text of its hits only. The scope (channels, kinds) is not part of the MATCH: each row the
// MATCH yields is joined to its video and kept when the video is in scope (search-page.ts). The
// `scope` column still holds a word for the channel and one for the kind, as rows written before
// did; no search reads it.
//
// The page statement runs in a worker thread (search-thread.ts), so a search never holds the
// event loop; a store in memory (tests) runs it on its own connection instead.
//
// The rowid is the publish second (the next free second when taken): FTS5 walks rows newest first
// and stops after a page, and rowids close together keep the index small (each posting stores the
// distance to the previous rowid). Videos of unknown date (second 0) start at a second of January
// 1970 drawn from their id, so many of them do not queue behind each other for a free second. A
// video's listed second is thus never earlier than its own.
//
// Every word of a query goes into the MATCH as a quoted string literal built here from folded
// letters and digits; no text of the reader is ever FTS5 syntax.

import type Database from 'better-sqlite3';
import type { Logger } from '../../logger';
import { fold } from '../../search/fold';
import { SearchDeadline } from '../../search/budget';
import type { SearchQuery, Term } from '../../search/query';
import type { BackendMethods } from '../call';
import { FEED_ENTRY_SQL } from '../rules';
import { collectHits, publishedSecondOf, type Candidate } from '../search';
import type { TranscriptRecord, VideoRecord } from '../types';
import { preparePage } from './search-page';
import { SearchThread } from './search-thread';

/** Between two paragraphs (or two languages): a word of its own that no query word can equal. */
export const PARAGRAPH_BREAK = '\uE000';
const BREAKS_IN_TEXT = /\uE000/g;

/** The first search index (migration 8), replaced by SEARCH_SCHEMA (a later step rebuilds it). */
export const SEARCH_SCHEMA_1 = `
  CREATE VIRTUAL TABLE search_index USING fts5(
    title, body, scope,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE TABLE search_docs (
    doc_id   INTEGER PRIMARY KEY,
    video_id TEXT NOT NULL UNIQUE
  );
`;

/**
 * Pending index data FTS5 holds in memory before it writes a segment: a crawler batch (or the
 * migration's pages) becomes one segment, not several small ones merged again at once.
 */
const HASH_BYTES = 8 * 1024 * 1024;

export const SEARCH_SCHEMA = `
  CREATE VIRTUAL TABLE search_index USING fts5(
    title, body, scope,
    content = '', contentless_delete = 1,
    tokenize = "unicode61 remove_diacritics 0 categories 'L* N*' tokenchars '${PARAGRAPH_BREAK}'"
  );
  INSERT INTO search_index (search_index, rank) VALUES ('hashsize', ${HASH_BYTES});
  CREATE TABLE search_docs (
    doc_id   INTEGER PRIMARY KEY,
    video_id TEXT NOT NULL UNIQUE
  );
`;

/** Seconds of January 1970 that videos of unknown date are spread over. */
const UNKNOWN_DATE_SPREAD = 2 ** 20;

/** FNV-1a of the id, within UNKNOWN_DATE_SPREAD. */
function spreadOf(videoId: string): number {
  let h = 2166136261;
  for (let i = 0; i < videoId.length; i++) h = Math.imul(h ^ videoId.charCodeAt(i), 16777619) >>> 0;
  return h % UNKNOWN_DATE_SPREAD;
}

/** The scope words of a video: its channel (hex, so case and '-' survive) and its kind. */
export const channelWord = (channelId: string): string => `c${Buffer.from(channelId, 'utf8').toString('hex')}`;
export const kindWord = (kind: string): string => `k${kind}`;

/** FTS5 string literal: a double quote inside is doubled (folded words never hold one). */
const literal = (words: readonly string[]): string => `"${words.join(' ').replace(/"/g, '""')}"`;
const anyOf = (terms: readonly Term[]): string => `(${terms.map(literal).join(' OR ')})`;

/** The parsed query as one FTS5 MATCH expression (the scope is joined outside it, search-page.ts). */
export function matchExpression(q: SearchQuery): string {
  const text = (expr: string): string => `{title body} : (${expr})`;
  const expr = text(q.all.map(anyOf).join(' AND '));
  return q.none.length > 0 ? `(${expr}) NOT ${text(q.none.map(literal).join(' OR '))}` : expr;
}

interface IndexedVideo {
  channel_id: string;
  title: string;
  published_at: number;
  video_kind: string | null;
}

/** The text of one stored transcript row, or nothing when it cannot be read (not shown either). */
function textsOfRow(json: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return (parsed as { text?: unknown }[]).flatMap((p) => (typeof p?.text === 'string' ? [p.text] : []));
}

/** Index upkeep, for the batch write's transaction and for the migration that builds the index. */
export function prepareSearchIndex(db: Database.Database) {
  const video = db.prepare<[string], IndexedVideo>(`SELECT channel_id, title, published_at, video_kind FROM videos WHERE video_id = ? AND ${FEED_ENTRY_SQL}`);
  const languages = db.prepare<[string], string>('SELECT language FROM transcripts WHERE video_id = ? ORDER BY language').pluck();
  const paragraphs = db.prepare<[string, string], string>('SELECT paragraphs FROM transcripts WHERE video_id = ? AND language = ?').pluck();
  const docOf = db.prepare<[string], number>('SELECT doc_id FROM search_docs WHERE video_id = ?').pluck();
  const taken = db.prepare<[number], number>('SELECT 1 FROM search_docs WHERE doc_id = ?').pluck();
  // After a taken second: the end of its run of taken ones, plus one.
  const freeAfter = db.prepare<[number], number>(`
    SELECT d.doc_id + 1 FROM search_docs d
    WHERE d.doc_id >= ? AND NOT EXISTS (SELECT 1 FROM search_docs n WHERE n.doc_id = d.doc_id + 1)
    ORDER BY d.doc_id LIMIT 1`).pluck();
  const dropRow = db.prepare<[number]>('DELETE FROM search_index WHERE rowid = ?');
  const dropDoc = db.prepare<[number]>('DELETE FROM search_docs WHERE doc_id = ?');
  const addDoc = db.prepare<[number, string]>('INSERT INTO search_docs (doc_id, video_id) VALUES (?, ?)');
  const addRow = db.prepare<[number, string, string, string]>('INSERT INTO search_index (rowid, title, body, scope) VALUES (?, ?, ?, ?)');

  /**
   * Bring one video's row in line with what is stored: removed unless it is a feed entry. `given`
   * are transcripts of it this transaction has just written (their text is not read back).
   */
  const reindex = (videoId: string, given: readonly TranscriptRecord[] = []): void => {
    const old = docOf.get(videoId);
    if (old !== undefined) {
      dropRow.run(old);
      dropDoc.run(old);
    }
    const v = video.get(videoId);
    if (v === undefined) return;
    const texts: string[] = [];
    for (const language of languages.all(videoId)) {
      const t = given.find((g) => g.language === language);
      const own = t !== undefined ? t.paragraphs.map((p) => p.text) : textsOfRow(paragraphs.get(videoId, language) ?? '');
      for (const text of own) texts.push(text.includes(PARAGRAPH_BREAK) ? text.replace(BREAKS_IN_TEXT, ' ') : text);
    }
    const published = publishedSecondOf(new Date(v.published_at));
    const second = published === 0 ? spreadOf(videoId) : published;
    const docId = taken.get(second) === undefined ? second : freeAfter.get(second)!;
    addDoc.run(docId, videoId);
    // Folded in one pass: the break character folds to itself.
    addRow.run(docId, fold(v.title), fold(texts.join(` ${PARAGRAPH_BREAK} `)), `${channelWord(v.channel_id)} ${kindWord(v.video_kind ?? 'regular')}`);
  };
  return { reindex };
}

/** Rows indexed per progress line when the migration builds the index for an existing store. */
export const BUILD_LOG_EVERY = 5_000;

/** The migration's data step: index every stored feed entry, logging progress. */
export function buildSearchIndex(db: Database.Database, logger: Logger): void {
  const total = db.prepare<[], number>(`SELECT count(*) FROM videos WHERE ${FEED_ENTRY_SQL}`).pluck().get() ?? 0;
  if (total === 0) return;
  logger.info({ videos: total }, 'building the search index');
  const { reindex } = prepareSearchIndex(db);
  // Paged by rowid: a statement cannot write while another one is still reading.
  const page = db.prepare<[number, number], { rowid: number; video_id: string }>(`SELECT rowid, video_id FROM videos WHERE rowid > ? AND ${FEED_ENTRY_SQL} ORDER BY rowid LIMIT ?`);
  let done = 0;
  const started = Date.now();
  for (let after = 0; ;) {
    const rows = page.all(after, 500);
    if (rows.length === 0) break;
    for (const r of rows) {
      reindex(r.video_id);
      done += 1;
      if (done % BUILD_LOG_EVERY === 0) logger.info({ indexed: done, videos: total }, `search index: ${done} of ${total} videos`);
    }
    after = rows[rows.length - 1]!.rowid;
  }
  db.exec(`INSERT INTO search_index (search_index) VALUES ('optimize')`);
  logger.info({ indexed: done, ms: Date.now() - started }, 'search index built');
}

/** Where the candidates' records are read from: the videos and transcripts tables. */
interface Loaders {
  getVideos(ids: readonly string[]): VideoRecord[];
}
interface TranscriptLoader {
  getTranscripts(ids: readonly string[]): TranscriptRecord[];
}

export function searchTable(db: Database.Database, file: string, videos: Loaders, transcripts: TranscriptLoader) {
  const thread = file === ':memory:' ? null : new SearchThread(file);
  const inline = thread === null ? preparePage(db) : null;
  return {
    searchVideos(query, scope, limit, options = {}) {
      if (limit <= 0 || scope.kinds.length === 0 || (scope.channelIds !== null && scope.channelIds.length === 0)) return [];
      const deadline = new SearchDeadline(options.budgetMs);
      const fixed = { expr: matchExpression(query), channels: scope.channelIds === null ? null : JSON.stringify(scope.channelIds), kinds: JSON.stringify(scope.kinds) };
      let below = Number.MAX_SAFE_INTEGER;
      return collectHits(query, scope, limit, {
        async next(size): Promise<Candidate[]> {
          const params = { ...fixed, below, limit: size };
          const rows = thread !== null ? await thread.page(params, deadline) : inline!(params);
          if (rows.length > 0) below = rows[rows.length - 1]![0];
          // The listed second is the video's own or later (taken seconds move a video up).
          return rows.map(([docId, videoId]) => ({ videoId, publishedSecond: docId }));
        },
        decided: true,
        videos: (ids) => videos.getVideos(ids),
        transcripts: (ids) => transcripts.getTranscripts(ids),
      }, deadline);
    },
    closeSearch: () => thread?.close(),
  } satisfies Partial<BackendMethods> & { closeSearch(): void };
}
