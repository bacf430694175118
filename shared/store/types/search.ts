// Search: the hits of a query over stored titles and transcripts.

import type { SearchOptions, SearchQuery, SearchScope } from '../../search/query';
import type { TranscriptRecord } from './transcripts';
import type { VideoRecord } from './videos';

export type { SearchOptions, SearchQuery, SearchScope };

/** One search hit: the video and every stored transcript of it (the text it was matched on). */
export interface SearchHit {
  readonly video: VideoRecord;
  readonly transcripts: readonly TranscriptRecord[];
}

/** The full-text search over stored videos (SQLite FTS5, MongoDB's text index). */
export interface SearchStore {
  /**
   * Feed entries (ready, or given up without captions) in the scope whose title or stored
   * transcripts (any language) match the query (shared/search/match.ts), newest first
   * (publishedAt desc, then videoId), at most `limit`, each with every stored transcript of it.
   * The engine's own syntax is built from the query's folded words only; the scope is applied outside
   * the engine's expression. `options.budgetMs` bounds its time (SearchBudgetExceeded past it).
   */
  searchVideos(query: SearchQuery, scope: SearchScope, limit: number, options?: SearchOptions): Promise<SearchHit[]>;
}
