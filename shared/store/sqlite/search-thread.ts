// The embedded store's searches off the event loop. better-sqlite3 runs a statement to its end on
// the calling thread, and an FTS5 phrase over common words reads the positions of every row that
// holds them whatever LIMIT or rowid range the statement gives (measured: a 10-phrase query over
// 20,000 stored videos takes the same second in windows of 1,000 rows as in one statement). So the
// page statement (search-page.ts) runs in a worker thread of its own, on its own read-only
// connection to the same file (WAL: it reads the last committed state, as any reader), and the
// API's event loop keeps answering while it works.
//
// One thread per store, started at the first search (the crawler never searches, so it never
// starts one), its jobs first come first served. A job whose deadline passed while it waited is
// not started; one under way cannot be interrupted (better-sqlite3 has no interrupt), so its
// caller stops waiting at the deadline and the thread finishes the statement, taking the next job
// only then — the thread's work stays one statement at a time whatever the callers gave up on.
// A thread that dies is started again for the next job.

import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { SearchBudgetExceeded, type SearchDeadline } from '../../search/budget';
import { preparePage, type PageParams, type PageRow } from './search-page';

interface Job {
  readonly params: PageParams;
  readonly deadline: SearchDeadline;
  readonly resolve: (rows: PageRow[]) => void;
  readonly reject: (err: Error) => void;
  /** Set once the caller stopped waiting (deadline): the answer is dropped. */
  abandoned: boolean;
}

type Answer = { readonly rows: PageRow[] } | { readonly error: string; readonly code?: string };

const ROLE = 'transcript-feed-search-thread';

export class SearchThread {
  private worker: Worker | null = null;
  private current: Job | null = null;
  private readonly queue: Job[] = [];
  private closed = false;

  constructor(private readonly file: string) {}

  /** One page of candidates, or SearchBudgetExceeded when the deadline comes first. */
  page(params: PageParams, deadline: SearchDeadline): Promise<PageRow[]> {
    if (this.closed) return Promise.reject(new Error('SQLite store is closed'));
    deadline.check();
    return new Promise<PageRow[]>((resolve, reject) => {
      const job: Job = { params, deadline, resolve, reject, abandoned: false };
      const left = deadline.remaining();
      if (Number.isFinite(left)) {
        const timer = setTimeout(() => {
          job.abandoned = true;
          const waiting = this.queue.indexOf(job);
          if (waiting >= 0) this.queue.splice(waiting, 1);
          reject(new SearchBudgetExceeded(deadline.budgetMs!));
        }, Math.ceil(left));
        timer.unref();
        const settle = <T>(f: (v: T) => void) => (v: T) => {
          clearTimeout(timer);
          f(v);
        };
        Object.assign(job, { resolve: settle(resolve), reject: settle(reject) });
      }
      this.queue.push(job);
      this.startNext();
    });
  }

  close(): void {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('SQLite store is closed'));
    void this.worker?.terminate();
    this.worker = null;
  }

  private startNext(): void {
    if (this.current !== null) return;
    const job = this.queue.shift();
    if (job === undefined) {
      this.worker?.unref(); // an idle thread keeps no process alive
      return;
    }
    this.current = job;
    const worker = this.thread();
    worker.ref();
    worker.postMessage(job.params);
  }

  private thread(): Worker {
    if (this.worker !== null) return this.worker;
    const [entry, how] = threadEntry();
    const worker = new Worker(entry, { ...how, workerData: { role: ROLE, file: this.file } });
    worker.on('message', (answer: Answer) => this.finish(answer));
    worker.on('error', (err) => this.finish({ error: err.message }));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      if (this.current !== null) this.finish({ error: 'search thread exited' });
    });
    this.worker = worker;
    return worker;
  }

  private finish(answer: Answer): void {
    const job = this.current;
    this.current = null;
    if (job !== null && !job.abandoned) {
      if ('rows' in answer) job.resolve(answer.rows);
      // SQLite's own failures as the main connection would throw them, so the store maps them alike.
      else job.reject(answer.code === undefined ? new Error(answer.error) : new Database.SqliteError(answer.error, answer.code));
    }
    if (!this.closed) this.startNext();
  }
}

/**
 * What the thread runs: this module compiled (dist/…/search-thread.js), or, when the service runs
 * from its TypeScript sources (tests, tsx), this .ts file through tsx's require hook, which the
 * thread does not inherit from its parent.
 */
function threadEntry(): [string, { eval?: boolean }] {
  if (path.extname(__filename) === '.js') return [__filename, {}];
  const hook = require.resolve('tsx/cjs/api');
  return [`require(${JSON.stringify(hook)}).register(); require(${JSON.stringify(__filename)});`, { eval: true }];
}

/** The worker's side: one read-only connection, one page statement, one job at a time. */
function serve(file: string): void {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const page = preparePage(db);
  parentPort!.on('message', (params: PageParams) => {
    let answer: Answer;
    try {
      answer = { rows: page(params) };
    } catch (err) {
      const e = err as { message?: string; code?: string };
      answer = { error: String(e.message ?? err), code: e.code };
    }
    parentPort!.postMessage(answer);
  });
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === ROLE) serve((workerData as { file: string }).file);
