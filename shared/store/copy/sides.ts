// The two ends of a copy: reading a table page by page in key order, writing a page idempotently
// (a page written twice leaves one copy), counting, and making search entries again for the videos
// copied. One implementation per backend, each driven by the table entries of tables.ts.

import type Database from 'better-sqlite3';
import type { AnyBulkWriteOperation, Db } from 'mongodb';
import { rebuildSearchDocs } from '../mongo/search-rebuild';
import { prepareSearchIndex } from '../sqlite/search';
import { columnOf, mongoIdOf, specOf, type CopyTable, type FieldSpec, type FieldType, type Row } from './tables';

/** Where a table's reading stopped: the last key read (SQLite: its values; MongoDB: its `_id`). */
export type Cursor = string | readonly (string | number)[];

export interface Page {
  rows: Row[];
  /** Pass back to read the next page; null when this page was the last. */
  next: Cursor | null;
}

export interface CopySide {
  readonly kind: 'sqlite' | 'mongodb';
  read(table: CopyTable, after: Cursor | null, limit: number): Promise<Page>;
  write(table: CopyTable, rows: readonly Row[]): Promise<void>;
  count(table: CopyTable): Promise<number>;
  /** The ids of stored videos after `after`, in id order: what the search phase walks. */
  videoIds(after: string | null, limit: number): Promise<string[]>;
  /** Makes these videos' search entries again from what is stored now. */
  reindex(videoIds: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

const fields = (t: CopyTable): [string, FieldSpec][] => Object.entries(t.fields).map(([f, s]) => [f, specOf(s)]);

// ── SQLite ─────────────────────────────────────────────────────────────────

const fromSqlite: Record<FieldType, (v: unknown) => unknown> = {
  text: (v) => v,
  int: (v) => v,
  time: (v) => (v === null ? null : new Date(v as number)),
  // A damaged JSON text is carried as it is: the destination then holds the same damage, no less text.
  json: (v) => {
    try {
      return JSON.parse(v as string) as unknown;
    } catch {
      return v;
    }
  },
  flag: (v) => v === 1,
};

const toSqlite: Record<FieldType, (v: unknown) => unknown> = {
  text: (v) => v ?? null,
  int: (v) => v ?? null,
  time: (v) => (v instanceof Date ? v.getTime() : null),
  json: (v) => (typeof v === 'string' ? v : JSON.stringify(v ?? null)),
  flag: (v) => (v === true ? 1 : 0),
};

interface SqliteStatements {
  first: Database.Statement;
  after: Database.Statement;
  put: Database.Statement;
  count: Database.Statement;
  written: [string, FieldSpec][];
}

export function sqliteSide(db: Database.Database, onClose: () => void): CopySide {
  const statements = new Map<string, SqliteStatements>();
  const prepared = (t: CopyTable): SqliteStatements => {
    let s = statements.get(t.name);
    if (!s) {
      const all = fields(t);
      const written = all.filter(([, spec]) => spec.sqliteRead === undefined);
      const selected = all.map(([f, spec]) => (spec.sqliteRead === undefined ? columnOf(f) : `${spec.sqliteRead} AS ${columnOf(f)}`)).join(', ');
      const keyCols = t.key.map(columnOf).join(', ');
      const select = `SELECT ${selected} FROM ${t.name}`;
      s = {
        first: db.prepare(`${select} ORDER BY ${keyCols} LIMIT ?`),
        // Row values compare key by key, in the order the primary key sorts.
        after: db.prepare(`${select} WHERE (${keyCols}) > (${t.key.map(() => '?').join(', ')}) ORDER BY ${keyCols} LIMIT ?`),
        put: db.prepare(`INSERT OR REPLACE INTO ${t.name} (${written.map(([f]) => columnOf(f)).join(', ')}) VALUES (${written.map(() => '?').join(', ')})`),
        count: db.prepare(`SELECT count(*) FROM ${t.name}`).pluck(),
        written,
      };
      statements.set(t.name, s);
    }
    return s;
  };
  const putAll = db.transaction((put: Database.Statement, values: unknown[][]) => {
    for (const v of values) put.run(...v);
  });
  let search: ReturnType<typeof prepareSearchIndex> | undefined;
  const reindexAll = db.transaction((ids: readonly string[]) => {
    search ??= prepareSearchIndex(db);
    for (const id of ids) search.reindex(id);
  });
  const idsAfter = db.prepare<[string, number], string>('SELECT video_id FROM videos WHERE video_id > ? ORDER BY video_id LIMIT ?').pluck();
  return {
    kind: 'sqlite',
    async read(t, after, limit) {
      const s = prepared(t);
      const raw = (after === null ? s.first.all(limit) : s.after.all(...(after as (string | number)[]), limit)) as Record<string, unknown>[];
      const rows = raw.map((r) => Object.fromEntries(fields(t).map(([f, spec]) => [f, fromSqlite[spec.type](r[columnOf(f)])])));
      const last = raw[raw.length - 1];
      return { rows, next: raw.length < limit || !last ? null : t.key.map((k) => last[columnOf(k)] as string | number) };
    },
    async write(t, rows) {
      if (rows.length === 0) return;
      const s = prepared(t);
      putAll.immediate(s.put, rows.map((r) => s.written.map(([f, spec]) => toSqlite[spec.type](r[f]))));
    },
    async count(t) {
      return prepared(t).count.get() as number;
    },
    async videoIds(after, limit) {
      return idsAfter.all(after ?? '', limit);
    },
    async reindex(videoIds) {
      if (videoIds.length > 0) reindexAll.immediate(videoIds);
    },
    async close() {
      onClose();
    },
  };
}

// ── MongoDB ────────────────────────────────────────────────────────────────

const fromMongo: Record<FieldType, (v: unknown) => unknown> = {
  text: (v) => v ?? null,
  int: (v) => v ?? null,
  time: (v) => (v instanceof Date ? v : null),
  json: (v) => v ?? null,
  flag: (v) => v === true,
};

/** A document of any copied collection: keyed by a string `_id`, as every one of them is. */
interface CopiedDoc {
  _id: string;
  [field: string]: unknown;
}

export function mongoSide(db: Db, onClose: () => Promise<void>): CopySide {
  const single = (t: CopyTable): boolean => t.key.length === 1;
  const docOf = (t: CopyTable, r: Row): CopiedDoc => {
    const doc: CopiedDoc = { _id: mongoIdOf(t, r) };
    for (const [f, spec] of fields(t)) {
      // A one-field key lives in _id only.
      if (single(t) && f === t.key[0]) continue;
      const value = r[f] ?? null;
      if (spec.mongoOnlyTrue && value !== true) continue;
      if (spec.mongoOnlyWhen !== undefined && value !== spec.mongoOnlyWhen) continue;
      doc[f] = value;
    }
    return Object.assign(doc, t.mongoDerived?.(r));
  };
  return {
    kind: 'mongodb',
    async read(t, after, limit) {
      const filter = after === null ? {} : { _id: { $gt: after as string } };
      const docs = await db.collection<CopiedDoc>(t.name).find(filter).sort({ _id: 1 }).limit(limit).toArray();
      const rows = docs.map((d) => {
        const row: Row = Object.fromEntries(fields(t).map(([f, spec]) => [f, fromMongo[spec.type](f in d ? d[f] : spec.mongoMissing)]));
        if (single(t)) row[t.key[0]!] = d._id;
        return row;
      });
      const last = docs[docs.length - 1];
      return { rows, next: docs.length < limit || !last ? null : last._id };
    },
    async write(t, rows) {
      if (rows.length === 0) return;
      // Replaced by _id, inserted when missing: a page written again after an interruption leaves
      // one copy of each document. Unordered: the server applies the page without a round trip each.
      const ops: AnyBulkWriteOperation<CopiedDoc>[] = rows.map((r) => {
        const doc = docOf(t, r);
        return { replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } };
      });
      await db.collection<CopiedDoc>(t.name).bulkWrite(ops, { ordered: false });
    },
    async count(t) {
      return db.collection(t.name).countDocuments({});
    },
    async videoIds(after, limit) {
      const docs = await db.collection<CopiedDoc>('videos').find(after === null ? {} : { _id: { $gt: after } }, { projection: { _id: 1 } }).sort({ _id: 1 }).limit(limit).toArray();
      return docs.map((d) => d._id);
    },
    async reindex(videoIds) {
      await rebuildSearchDocs(db, videoIds);
    },
    close: onClose,
  };
}
