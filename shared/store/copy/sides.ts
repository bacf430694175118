// The two ends of a copy: reading a table page by page in key order, writing a page idempotently
// (a page written twice leaves one copy), and counting. One implementation per backend, each
// driven by the table entries of tables.ts.

import type Database from 'better-sqlite3';
import type { AnyBulkWriteOperation, Db } from 'mongodb';
import { rebuildSearchDocs } from '../mongo/search-rebuild';
import { prepareSearchIndex } from '../sqlite/search';
import { columnOf, mongoIdOf, type CopyTable, type Row } from './tables';

/** The videos whose search entries these rows feed (none for a table that feeds none). */
const searchedVideos = (t: CopyTable, rows: readonly Row[]): string[] =>
  t.feedsSearchOf === undefined ? [] : [...new Set(rows.map((r) => String(r[t.feedsSearchOf!])))];

/** Where a table's reading stopped: the last key read (SQLite: its values; MongoDB: its `_id`). */
export type Cursor = unknown;

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
  close(): Promise<void>;
}

// ── SQLite ─────────────────────────────────────────────────────────────────

const fromSqlite: Record<string, (v: unknown) => unknown> = {
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

const toSqlite: Record<string, (v: unknown) => unknown> = {
  text: (v) => v ?? null,
  int: (v) => v ?? null,
  time: (v) => (v instanceof Date ? v.getTime() : null),
  json: (v) => (typeof v === 'string' ? v : JSON.stringify(v ?? null)),
  flag: (v) => (v === true ? 1 : 0),
};

export function sqliteSide(db: Database.Database, onClose: () => void): CopySide {
  const statements = new Map<string, { first: Database.Statement; after: Database.Statement; put: Database.Statement; count: Database.Statement }>();
  const prepared = (t: CopyTable) => {
    let s = statements.get(t.name);
    if (!s) {
      const fields = Object.keys(t.fields);
      const cols = fields.map(columnOf).join(', ');
      const keyCols = t.key.map(columnOf).join(', ');
      const select = `SELECT ${cols} FROM ${t.name}`;
      s = {
        first: db.prepare(`${select} ORDER BY ${keyCols} LIMIT ?`),
        // Row values compare key by key, in the order the primary key sorts.
        after: db.prepare(`${select} WHERE (${keyCols}) > (${t.key.map(() => '?').join(', ')}) ORDER BY ${keyCols} LIMIT ?`),
        put: db.prepare(`INSERT OR REPLACE INTO ${t.name} (${cols}) VALUES (${fields.map(() => '?').join(', ')})`),
        count: db.prepare(`SELECT count(*) FROM ${t.name}`).pluck(),
      };
      statements.set(t.name, s);
    }
    return s;
  };
  let search: ReturnType<typeof prepareSearchIndex> | undefined;
  // The rows and the search entries they feed in one transaction, as a batch write keeps them.
  const putAll = db.transaction((put: Database.Statement, values: unknown[][], searched: readonly string[]) => {
    for (const v of values) put.run(...v);
    if (searched.length > 0) search ??= prepareSearchIndex(db);
    for (const id of searched) search!.reindex(id);
  });
  return {
    kind: 'sqlite',
    async read(t, after, limit) {
      const s = prepared(t);
      const raw = (after === null ? s.first.all(limit) : s.after.all(...(after as unknown[]), limit)) as Record<string, unknown>[];
      const rows = raw.map((r) => Object.fromEntries(Object.entries(t.fields).map(([f, type]) => [f, fromSqlite[type]!(r[columnOf(f)])])));
      const last = raw[raw.length - 1];
      return { rows, next: raw.length < limit || !last ? null : t.key.map((k) => last[columnOf(k)]) };
    },
    async write(t, rows) {
      if (rows.length === 0) return;
      const entries = Object.entries(t.fields);
      putAll.immediate(prepared(t).put, rows.map((r) => entries.map(([f, type]) => toSqlite[type]!(r[f]))), searchedVideos(t, rows));
    },
    async count(t) {
      return prepared(t).count.get() as number;
    },
    async close() {
      onClose();
    },
  };
}

// ── MongoDB ────────────────────────────────────────────────────────────────

const fromMongo: Record<string, (v: unknown) => unknown> = {
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
  return {
    kind: 'mongodb',
    async read(t, after, limit) {
      const filter = after === null ? {} : { _id: { $gt: after as string } };
      const docs = await db.collection<CopiedDoc>(t.name).find(filter).sort({ _id: 1 }).limit(limit).toArray();
      const rows = docs.map((d) => {
        const row: Row = Object.fromEntries(Object.entries(t.fields).map(([f, type]) => [f, fromMongo[type]!(d[f])]));
        // A one-field key lives in _id only.
        if (single(t)) row[t.key[0]!] = d._id;
        return row;
      });
      const last = docs[docs.length - 1];
      return { rows, next: docs.length < limit || !last ? null : last._id };
    },
    async write(t, rows) {
      if (rows.length === 0) return;
      const ops: AnyBulkWriteOperation<CopiedDoc>[] = rows.map((r) => {
        const doc: CopiedDoc = { _id: mongoIdOf(t, r) };
        for (const [f, type] of Object.entries(t.fields)) {
          if (single(t) && f === t.key[0]) continue;
          // A flag is written only when set, as the store writes it.
          if (type === 'flag') {
            if (r[f] === true) doc[f] = true;
            continue;
          }
          doc[f] = r[f] ?? null;
        }
        Object.assign(doc, t.mongoDerived?.(r));
        return { replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } };
      });
      await db.collection<CopiedDoc>(t.name).bulkWrite(ops, { ordered: false });
      const searched = searchedVideos(t, rows);
      if (searched.length > 0) await rebuildSearchDocs(db, searched);
    },
    async count(t) {
      return db.collection(t.name).countDocuments({});
    },
    close: onClose,
  };
}
