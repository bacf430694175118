// A search query as the store receives it: never the reader's text, only folded words (letters
// and digits, see fold.ts). The API's parser (api/query/search-query.ts) builds it; each backend
// turns it into its engine's syntax from these words alone, every word a quoted literal there.

/** A word (one element) or an exact phrase (consecutive words), already folded. */
export type Term = readonly string[];

export interface SearchQuery {
  /** Every clause must match; a clause matches when any of its terms does (OR). Never empty. */
  readonly all: readonly (readonly Term[])[];
  /** A video matching any of these is left out. */
  readonly none: readonly Term[];
}

/** Which stored videos a search looks through. */
export interface SearchScope {
  /** Only these channels; null = every stored channel. */
  readonly channelIds: readonly string[] | null;
  /** The video kinds listed, as `include` gives them for channel feeds. */
  readonly kinds: readonly ('regular' | 'short' | 'live')[];
}

/** How a search may run. */
export interface SearchOptions {
  /**
   * Milliseconds the search may take (shared/search/budget.ts); past them it fails with
   * SearchBudgetExceeded and answers nothing. Left out: no bound.
   */
  readonly budgetMs?: number;
}

/** Every positive term of the query (for highlighting). */
export function positiveTerms(q: SearchQuery): Term[] {
  return q.all.flat();
}
