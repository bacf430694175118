// Stored summaries on a feed (issue 31 "Where it shows"): read from the store only, never made by
// a render (0 model calls), folded into each entry's content by the asked `summary` mode, and the
// entry's plain-text summary with or without it. Their fingerprint enters the ETag, so a summary
// stored after a render invalidates the cached body.

import { createHash } from 'node:crypto';
import type { SummaryKey, SummaryRecord, SummaryStore } from '../../shared/store/types';
import { PROMPT_VERSION } from '../../shared/summary/prompt';
import { renderSummaryHtml, type SummaryToShow } from '../../shared/summary/render';
import { escapeHtml } from '../../shared/transcript/entities';
import type { SummaryMode } from '../query/feed-query';

/** The stored summaries of a feed's entries, by video id, and their digest for the ETag. */
export interface FeedSummaries {
  readonly byVideo: ReadonlyMap<string, SummaryToShow>;
  /** '' when none is stored (or none asked). */
  readonly fingerprint: string;
}

export const NO_SUMMARIES: FeedSummaries = { byVideo: new Map(), fingerprint: '' };

/** SUMMARY_LANGUAGE's default and the prompt version in force: the key feeds read summaries under. */
export const defaultSummaryKey = (language = 'transcript'): SummaryKey => ({ language, promptVersion: PROMPT_VERSION });

/**
 * One store read for the listed ids, whatever `summary` asks: without the parameter a stored
 * summary is still the entry's plain-text summary (issue 31), so its digest is in every ETag.
 */
export async function readSummaries(store: Pick<SummaryStore, 'getSummaries'>, videoIds: readonly string[], key: SummaryKey): Promise<FeedSummaries> {
  if (videoIds.length === 0) return NO_SUMMARIES;
  const rows = await store.getSummaries(videoIds, key);
  return summariesOf(rows);
}

export function summariesOf(rows: readonly SummaryRecord[]): FeedSummaries {
  if (rows.length === 0) return NO_SUMMARIES;
  const sorted = [...rows].sort((a, b) => (a.videoId < b.videoId ? -1 : a.videoId > b.videoId ? 1 : 0));
  const h = createHash('sha256');
  for (const r of sorted) h.update(`${r.videoId}:${r.madeAt.getTime()}:${r.points.length}\n`);
  return { byVideo: new Map(sorted.map((r) => [r.videoId, { videoId: r.videoId, points: r.points }])), fingerprint: h.digest('base64url').slice(0, 16) };
}

export const WHOLE_TRANSCRIPT_LABEL = 'Whole transcript';

/**
 * An entry's content under `mode`: `on` puts the summary before the transcript, `only` gives the
 * summary and a link to the whole transcript (`transcriptLink`). Without a stored summary the
 * transcript is shown as without the parameter.
 */
export function contentWithSummary(html: string, summary: SummaryToShow | undefined, mode: SummaryMode, transcriptLink: string): string {
  if (mode === 'off' || summary === undefined || summary.points.length === 0) return html;
  const shown = renderSummaryHtml(summary);
  if (mode === 'on') return `${shown}\n${html}`;
  return `${shown}\n<p><a href="${escapeHtml(transcriptLink)}">${WHOLE_TRANSCRIPT_LABEL}</a></p>`;
}
