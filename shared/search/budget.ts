// A search's time budget. A search is given a number of milliseconds (the API's
// API_SEARCH_BUDGET_MS, less what it waited for its turn); the store checks the clock between the
// pages of candidates it reads and stops with SearchBudgetExceeded once the time is spent, so one
// query can hold neither a search slot nor the reader's connection for longer. Monotonic time
// (performance.now), so a clock step cannot end a search or stretch it.

export class SearchBudgetExceeded extends Error {
  override readonly name = 'SearchBudgetExceeded';
  constructor(readonly budgetMs: number) {
    super(`search not finished within its time budget (${budgetMs} ms)`);
  }
}

export class SearchDeadline {
  private readonly at: number;

  /** `budgetMs` undefined: no bound. */
  constructor(readonly budgetMs: number | undefined) {
    this.at = budgetMs === undefined ? Number.POSITIVE_INFINITY : performance.now() + Math.max(0, budgetMs);
  }

  /** Milliseconds left (Infinity when unbounded, 0 when spent). */
  remaining(): number {
    return Math.max(0, this.at - performance.now());
  }

  /** Throws SearchBudgetExceeded when the time is spent. */
  check(): void {
    if (this.budgetMs !== undefined && performance.now() >= this.at) throw new SearchBudgetExceeded(this.budgetMs);
  }
}
