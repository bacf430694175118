// Summaries (issue 31): one per video, summary language and prompt version, made by the crawler's
// own queue from stored transcripts and never remade by a render. The queue's claims are leases
// like channels', so two crawlers never summarise the same video and a crash loses nothing; the
// daily caps are counters every crawler shares.

/** Which summaries: the SUMMARY_LANGUAGE value (`transcript` or a code) and the prompt's version. */
export interface SummaryKey {
  readonly language: string;
  readonly promptVersion: number;
}

/** A stored summary; points are plain text (escaped when rendered). */
export interface SummaryRecord {
  videoId: string;
  language: string;
  promptVersion: number;
  /** The stored transcript's language it was made from. */
  transcriptLanguage: string;
  model: string;
  points: { seconds: number; text: string }[];
  promptTokens: number;
  completionTokens: number;
  madeAt: Date;
}

/** Why a claimed video was given back: a model fault (retried later, not counted) or a failure. */
export interface SummaryDeferral {
  readonly error: string;
  readonly retryAt: Date;
  /** True when the model answered but gave no valid point twice: counted, shown as failed. */
  readonly failed: boolean;
}

/** Daily caps (0 = none) on summaries attempted and tokens spent, all crawlers together. */
export interface SummaryCaps {
  readonly videosPerDay: number;
  readonly tokensPerDay: number;
}

export interface SummaryQueueCounts {
  /** Videos with a transcript and no summary, not backing off. */
  waiting: number;
  ready: number;
  failed: number;
}

export interface SummaryStore {
  /**
   * Lease up to `limit` videos that have a stored transcript and no summary under `key`, are not
   * leased by another owner and not backing off: newest published first. The lease lasts `leaseMs`.
   */
  claimSummaries(key: SummaryKey, owner: string, now: Date, leaseMs: number, limit: number): Promise<string[]>;
  /** Store the summary and end the lease (a later put for the same key replaces it). */
  putSummary(record: SummaryRecord, owner: string): Promise<void>;
  /** End the lease without a summary: tried again from `retryAt`. */
  deferSummary(videoId: string, key: SummaryKey, owner: string, deferral: SummaryDeferral): Promise<void>;
  /** The ready summaries of these videos under `key`. */
  getSummaries(videoIds: readonly string[], key: SummaryKey): Promise<SummaryRecord[]>;
  /**
   * Count one video attempted on `day` (UTC `YYYY-MM-DD`) if both caps allow one more; false (and
   * nothing counted) when a cap is reached. Atomic across processes.
   */
  takeSummaryAllowance(day: string, caps: SummaryCaps): Promise<boolean>;
  /** Add tokens spent on `day`. */
  addSummaryTokens(day: string, tokens: number): Promise<void>;
  summaryCounts(key: SummaryKey, now: Date): Promise<SummaryQueueCounts>;
  /** Forget every summary under `key` (`npm run summaries -- --redo`): returns how many. */
  dropSummaries(key: SummaryKey): Promise<number>;
}
