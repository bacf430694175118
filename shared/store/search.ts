// The part of a search both backends share. An engine (SQLite FTS5, MongoDB's text index) hands
// out candidates page by page, newest first by whole second; each page is checked here against
// the scope and, unless the engine decided the whole query itself (SQLite's positional index),
// against the query's meaning (shared/search/match.ts) on the candidates' own stored text, until
// `limit` hits are found. Ties at the last second are read to their end so the answer
// is exactly "newest first, then video id", whatever order an engine gives within one second.

import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SearchDeadline } from '../search/budget';
import { matchesSegments, segmentsOf } from '../search/match';
import type { SearchQuery, SearchScope } from '../search/query';
import { isFeedEntry, isShownKind } from './rules';
import type { SearchHit, TranscriptRecord, VideoRecord } from './types';

/**
 * A candidate as an engine lists it: the video and its publish time in whole seconds, or a later
 * second (never an earlier one) where the engine had to move it.
 */
export interface Candidate {
  readonly videoId: string;
  readonly publishedSecond: number;
}

export interface CandidateSource {
  /** The next candidates, never more than `size`, newest second first; empty when there are no more. */
  next(size: number): Promise<readonly Candidate[]> | readonly Candidate[];
  /**
   * Whether every candidate matches the query (the engine decided all of it): then no text is
   * read to decide, only the hits' transcripts to show them.
   */
  readonly decided: boolean;
  /** These videos' records, in any order (a video gone meanwhile is left out). */
  videos(videoIds: readonly string[]): Promise<readonly VideoRecord[]> | readonly VideoRecord[];
  /** Every stored transcript of these videos. */
  transcripts(videoIds: readonly string[]): Promise<readonly TranscriptRecord[]> | readonly TranscriptRecord[];
}

/**
 * Candidates beyond `limit` read in the first page: an engine that decides nearly everything itself
 * (FTS5) then needs one page; each further page is twice as large.
 */
export const CANDIDATE_SLACK = 8;

export const publishedSecondOf = (publishedAt: Date): number => Math.max(0, Math.floor(publishedAt.getTime() / 1000));

const newestFirst = (a: SearchHit, b: SearchHit): number =>
  b.video.publishedAt.getTime() - a.video.publishedAt.getTime() || (a.video.videoId < b.video.videoId ? -1 : a.video.videoId > b.video.videoId ? 1 : 0);

/** Whether a stored video is in the search's scope: a feed entry of a listed kind in a listed channel. */
export function inScope(v: VideoRecord, scope: SearchScope): boolean {
  return isFeedEntry(v.state, v.nextAttemptAt) && isShownKind(v.videoKind, scope.kinds) && (scope.channelIds === null || scope.channelIds.includes(v.channelId));
}

function byVideo(transcripts: readonly TranscriptRecord[]): Map<string, TranscriptRecord[]> {
  const out = new Map<string, TranscriptRecord[]>();
  for (const t of transcripts) out.set(t.videoId, [...(out.get(t.videoId) ?? []), t]);
  return out;
}

/**
 * Candidates whose text is matched here between two turns of the event loop: the matching is
 * JavaScript on the API's thread (an engine that does not decide everything, MongoDB), and a page
 * of long transcripts would otherwise hold every other request for its whole length.
 */
export const MATCHED_PER_TURN = 16;

export async function collectHits(query: SearchQuery, scope: SearchScope, limit: number, source: CandidateSource, deadline?: SearchDeadline): Promise<SearchHit[]> {
  let hits: SearchHit[] = [];
  let edge: number | null = null; // publish second of the limit-th hit, once there are that many
  for (let size = limit + CANDIDATE_SLACK; ; size = Math.min(size * 2, 1024)) {
    deadline?.check();
    const page = await source.next(size);
    if (page.length === 0) break;
    const wanted = edge === null ? page : page.filter((c) => c.publishedSecond >= edge!);
    if (wanted.length > 0) {
      const videos = (await source.videos(wanted.map((c) => c.videoId))).filter((v) => inScope(v, scope));
      if (source.decided) {
        for (const v of videos) hits.push({ video: v, transcripts: [] });
      } else {
        for (let i = 0; i < videos.length; i += MATCHED_PER_TURN) {
          if (i > 0) {
            await nextTurn();
            deadline?.check();
          }
          const some = videos.slice(i, i + MATCHED_PER_TURN);
          const texts = byVideo(await source.transcripts(some.map((v) => v.videoId)));
          for (const v of some) {
            const own = texts.get(v.videoId) ?? [];
            if (matchesSegments(query, segmentsOf(v.title, own))) hits.push({ video: v, transcripts: own });
          }
        }
      }
    }
    if (hits.length >= limit) {
      hits.sort(newestFirst);
      edge = publishedSecondOf(hits[limit - 1]!.video.publishedAt);
      hits.length = limit;
      // Later pages are older; only those still in the edge's second can change the answer.
      if (page[page.length - 1]!.publishedSecond < edge) break;
    }
    if (page.length < size) break;
  }
  hits = hits.sort(newestFirst).slice(0, limit);
  if (!source.decided || hits.length === 0) return hits;
  const texts = byVideo(await source.transcripts(hits.map((h) => h.video.videoId)));
  return hits.map((h) => ({ video: h.video, transcripts: texts.get(h.video.videoId) ?? [] }));
}
