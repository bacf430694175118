// Copying one store into another (any backend to any): table by table, in key order, in bounded
// pages; each page written idempotently, then the position saved to a checkpoint file, so a copy
// interrupted anywhere (Ctrl-C, a kill, a lost connection) is finished by running the same command
// again. Then the destination's search entries are made from the copied text, page by page, the
// same way. At the end every table's count is compared, and the checkpoint is removed once they agree.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CopySide, Cursor } from './sides';
import { COPY_TABLES, type CopyTable } from './tables';

const VIDEOS = COPY_TABLES.find((t) => t.name === 'videos')!;

export const DEFAULT_BATCH_SIZE = 500;
export const MAX_BATCH_SIZE = 10_000;

interface TableProgress {
  after: Cursor | null;
  copied: number;
  done: boolean;
}

interface SearchProgress {
  after: string | null;
  indexed: number;
  done: boolean;
}

interface Checkpoint {
  /** Digest of the two store URLs: a checkpoint resumes only the copy it was written for. */
  copy: string;
  tables: Record<string, TableProgress>;
  search?: SearchProgress;
}

export interface CopyOptions {
  /** Rows per page (1..MAX_BATCH_SIZE). */
  batchSize?: number;
  /** Where the position is kept between runs. */
  checkpointFile: string;
  /** The two store URLs as given (only their digest is written anywhere). */
  from: string;
  to: string;
  tables?: readonly CopyTable[];
  /** One line of progress at a time. */
  progress?: (line: string) => void;
  /** Stops after the page being written; the checkpoint then lets a later run go on. */
  signal?: AbortSignal;
}

export interface TableCount {
  table: string;
  source: number;
  destination: number;
}

export interface CopyResult {
  resumed: boolean;
  counts: TableCount[];
  /** Every table's counts agree. */
  ok: boolean;
}

/** Thrown when the copy was stopped (signal) before it finished; the checkpoint is kept. */
export class CopyInterruptedError extends Error {
  override readonly name = 'CopyInterruptedError';
}

/** The copy refused to start: the reason is for the operator, one line. */
export class CopyRefusedError extends Error {
  override readonly name = 'CopyRefusedError';
}

const copyId = (from: string, to: string): string => createHash('sha256').update(`${from}\n${to}`).digest('hex');

function readCheckpoint(file: string): Checkpoint | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return JSON.parse(text) as Checkpoint;
}

/** Written to a temporary file and renamed over the old one: a crash leaves one or the other, whole. */
function writeCheckpoint(file: string, cp: Checkpoint): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(cp));
  fs.renameSync(tmp, file);
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/** One progress line per phase at most once a second, and its last one: `videos: 4,500 / 10,000 rows (45%)`. */
function progressLine(say: (line: string) => void, what: string, unit: string, total: number): (done: number, finished: boolean) => void {
  let saidAt = 0;
  let said = '';
  return (done, finished) => {
    if (!finished && Date.now() - saidAt < 1000) return;
    const pct = total === 0 ? 100 : Math.min(100, Math.floor((done / total) * 100));
    const text = `${what}: ${fmt(done)} / ${fmt(total)} ${unit} (${pct}%)`;
    if (text === said) return;
    saidAt = Date.now();
    said = text;
    say(text);
  };
}

export async function copyStore(from: CopySide, to: CopySide, opts: CopyOptions): Promise<CopyResult> {
  const tables = opts.tables ?? COPY_TABLES;
  const batch = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(batch) || batch < 1 || batch > MAX_BATCH_SIZE) throw new CopyRefusedError(`--batch must be 1..${MAX_BATCH_SIZE}`);
  const say = opts.progress ?? (() => undefined);
  const id = copyId(opts.from, opts.to);

  let cp = readCheckpoint(opts.checkpointFile);
  if (cp !== null && cp.copy !== id) {
    throw new CopyRefusedError(`${opts.checkpointFile} belongs to a copy between other stores; finish that copy or remove the file`);
  }
  const resumed = cp !== null;
  if (cp === null) {
    // A fresh copy fills an empty store: merging into one that holds data is not what this does.
    for (const t of tables) {
      const n = await to.count(t);
      if (n > 0) throw new CopyRefusedError(`the destination already holds ${fmt(n)} ${t.name} rows; store:copy fills an empty store`);
    }
    cp = { copy: id, tables: {} };
    writeCheckpoint(opts.checkpointFile, cp);
  } else {
    say(`resuming the copy recorded in ${opts.checkpointFile}`);
  }

  const stopped = (): void => {
    if (opts.signal?.aborted) throw new CopyInterruptedError('copy interrupted; run the same command again to resume');
  };
  for (const t of tables) {
    const state: TableProgress = cp.tables[t.name] ?? { after: null, copied: 0, done: false };
    if (state.done) continue;
    const line = progressLine(say, `${t.name}`, 'rows', await from.count(t));
    while (!state.done) {
      stopped();
      const page = await from.read(t, state.after, batch);
      await to.write(t, page.rows);
      state.copied += page.rows.length;
      state.after = page.next;
      state.done = page.next === null;
      cp.tables[t.name] = state;
      writeCheckpoint(opts.checkpointFile, cp);
      line(state.copied, state.done);
    }
  }

  // Search entries are never copied: the destination makes them from what it now stores, as a
  // crawl's batch write does, so each backend's index is in its own form and complete.
  const search: SearchProgress = cp.search ?? { after: null, indexed: 0, done: false };
  if (!search.done) {
    const line = progressLine(say, 'search index', 'videos', await to.count(VIDEOS));
    while (!search.done) {
      stopped();
      const ids = await to.videoIds(search.after, batch);
      await to.reindex(ids);
      search.indexed += ids.length;
      search.after = ids[ids.length - 1] ?? search.after;
      search.done = ids.length < batch;
      cp.search = search;
      writeCheckpoint(opts.checkpointFile, cp);
      line(search.indexed, search.done);
    }
  }

  const counts: TableCount[] = [];
  for (const t of tables) counts.push({ table: t.name, source: await from.count(t), destination: await to.count(t) });
  const ok = counts.every((c) => c.source === c.destination);
  if (ok) fs.rmSync(opts.checkpointFile, { force: true });
  return { resumed, counts, ok };
}
