// One page of a search's candidates, the statement both the search thread (search-thread.ts) and
// an in-memory store run. The scope is filtered outside the full-text expression: FTS5 walks the
// MATCH newest first (rowids are publish seconds, search.ts) and each row it yields is joined to
// its video, kept only when the video's channel is in the scope's ids and its kind is listed. A
// scope of thousands of channels is then a lookup per row in a table SQLite builds from the JSON
// list once (IN over json_each), not thousands of words in the MATCH, whose cost grew with every
// channel whether or not anything matched.

import type Database from 'better-sqlite3';

export interface PageParams {
  /** The FTS5 expression of the query alone (search.ts matchExpression). */
  readonly expr: string;
  /** Only rowids below this one (the previous page's last). */
  readonly below: number;
  /** JSON array of channel ids, or null: every channel. */
  readonly channels: string | null;
  /** JSON array of the listed video kinds. */
  readonly kinds: string;
  readonly limit: number;
}

/** [doc_id (the listed second), video_id], newest first. */
export type PageRow = readonly [number, string];

const PAGE_SQL = (scoped: boolean): string => `
  SELECT m.rowid AS doc_id, d.video_id FROM search_index m
    JOIN search_docs d ON d.doc_id = m.rowid
    JOIN videos v ON v.video_id = d.video_id
  WHERE search_index MATCH @expr AND m.rowid < @below
    ${scoped ? 'AND v.channel_id IN (SELECT value FROM json_each(@channels))' : ''}
    AND coalesce(v.video_kind, 'regular') IN (SELECT value FROM json_each(@kinds))
  ORDER BY m.rowid DESC LIMIT @limit`;

/** The page statement on a connection: scoped and unscoped forms prepared once. */
export function preparePage(db: Database.Database): (p: PageParams) => PageRow[] {
  type Row = { doc_id: number; video_id: string };
  const unscoped = db.prepare<Omit<PageParams, 'channels'>, Row>(PAGE_SQL(false));
  const scoped = db.prepare<PageParams, Row>(PAGE_SQL(true));
  return (p) => {
    const rows = p.channels === null ? unscoped.all({ expr: p.expr, below: p.below, kinds: p.kinds, limit: p.limit }) : scoped.all(p);
    return rows.map((r) => [r.doc_id, r.video_id] as const);
  };
}
