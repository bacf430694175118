// The searches in progress in one API process, bounded twice: API_MAX_SEARCHES at once in the
// process, and API_MAX_SEARCHES_PER_KEY at once for one key, so one key's flood of searches takes
// at most its share and another key's search starts as soon as a place is free. Waiting searches
// start in the order they came, except that one whose key is at its bound lets the next key's pass.
// A search waits at most until its deadline (its time budget counts from its arrival): then it
// leaves the queue with SearchBudgetExceeded without having run.

import { SearchBudgetExceeded, type SearchDeadline } from '../../shared/search/budget';

export interface SearchGateOptions {
  /** Searches running at once in the process (API_MAX_SEARCHES). */
  readonly concurrency: number;
  /** Searches running at once for one key (API_MAX_SEARCHES_PER_KEY). */
  readonly perKey: number;
}

interface Waiting {
  readonly key: string;
  readonly start: () => void;
}

export class SearchGate {
  private running = 0;
  private readonly byKey = new Map<string, number>();
  private readonly waiting: Waiting[] = [];

  constructor(private readonly o: SearchGateOptions) {}

  get stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Runs `work` once a place is free for the key, or fails when the deadline comes first. */
  async run<T>(key: string, deadline: SearchDeadline, work: () => Promise<T>): Promise<T> {
    if (!this.fits(key)) await this.wait(key, deadline);
    else this.take(key);
    try {
      return await work();
    } finally {
      this.running -= 1;
      const left = (this.byKey.get(key) ?? 1) - 1;
      if (left === 0) this.byKey.delete(key);
      else this.byKey.set(key, left);
      this.startWaiting();
    }
  }

  private fits(key: string): boolean {
    return this.running < this.o.concurrency && (this.byKey.get(key) ?? 0) < this.o.perKey;
  }

  private take(key: string): void {
    this.running += 1;
    this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
  }

  private wait(key: string, deadline: SearchDeadline): Promise<void> {
    deadline.check();
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const entry: Waiting = {
        key,
        start: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const left = deadline.remaining();
      if (Number.isFinite(left)) {
        timer = setTimeout(() => {
          const at = this.waiting.indexOf(entry);
          if (at < 0) return;
          this.waiting.splice(at, 1);
          reject(new SearchBudgetExceeded(deadline.budgetMs!));
        }, Math.ceil(left));
      }
      this.waiting.push(entry);
    });
  }

  /** The first waiting search whose key has room starts, as long as the process has room. */
  private startWaiting(): void {
    for (let i = 0; i < this.waiting.length && this.running < this.o.concurrency; ) {
      const next = this.waiting[i]!;
      if (!this.fits(next.key)) {
        i += 1;
        continue;
      }
      this.waiting.splice(i, 1);
      this.take(next.key);
      next.start();
    }
  }
}
