// The search collection of the scale-out store: one document per feed entry with its title and
// the stored paragraphs of all its transcripts as folded words (shared/search/fold.ts: MongoDB's
// own folding keeps Turkish dotless ı apart), under a text index with no language (no stemming,
// no stop words). Rewritten with every batch write, after the videos and transcripts it is made of.
//
// The text index does what it can natively: the query's required terms as quoted phrases (all
// must occur), or for a query of alternatives only its first clause's words (any may occur), and
// the exclusions. That narrows the candidates; shared/store/search.ts decides on their stored text
// (phrases inside one paragraph, OR, exclusions), so no search reads every transcript. The search
// string is built from folded letters and digits only: no text of the reader is ever engine syntax,
// and no operator of the filter comes from the reader.

import type { AnyBulkWriteOperation, Collection, Db, Filter } from 'mongodb';
import { SearchBudgetExceeded, SearchDeadline } from '../../search/budget';
import { wordsOf } from '../../search/fold';
import type { SearchQuery, Term } from '../../search/query';
import type { BackendMethods } from '../call';
import { isFeedEntry } from '../rules';
import { collectHits, publishedSecondOf, type Candidate } from '../search';
import type { TranscriptRecord, VideoRecord } from '../types';

export interface SearchDoc {
  _id: string;
  channelId: string;
  publishedAt: Date;
  videoKind: 'regular' | 'short' | 'live' | 'upcoming';
  /** Title, then each paragraph, as folded words; ` | ` between them. */
  text: string;
}

const SEGMENT_BREAK = ' | ';
/** The server's MaxTimeMSExpired error code. */
const MAX_TIME_EXPIRED = 50;

export async function searchIndexes(db: Db): Promise<void> {
  await db.collection<SearchDoc>('search').createIndexes([
    { key: { text: 'text' }, name: 'search_text', default_language: 'none', language_override: 'searchLanguage' },
    { key: { channelId: 1, publishedAt: -1 }, name: 'channel_published' },
  ]);
}

/** The $search string for the query: phrases are ANDed, bare words ORed, `-` excludes. */
export function textSearchOf(q: SearchQuery): string {
  const phrase = (t: Term): string => `"${t.join(' ')}"`;
  const required = q.all.filter((clause) => clause.length === 1).map((clause) => phrase(clause[0]!));
  const positive = required.length > 0 ? required : q.all[0]!.flat();
  const excluded = q.none.map((t) => (t.length === 1 ? `-${t[0]}` : `-${phrase(t)}`));
  return [...positive, ...excluded].join(' ');
}

/** The search documents of these videos, rebuilt from what is stored, or deleted when not shown. */
export function searchDocUpdates(videos: readonly VideoRecord[], transcripts: readonly TranscriptRecord[]): AnyBulkWriteOperation<SearchDoc>[] {
  const byVideo = new Map<string, TranscriptRecord[]>();
  for (const t of transcripts) byVideo.set(t.videoId, [...(byVideo.get(t.videoId) ?? []), t]);
  return videos.map((v) => {
    if (!isFeedEntry(v.state, v.nextAttemptAt)) return { deleteOne: { filter: { _id: v.videoId } } };
    const segments = [wordsOf(v.title).join(' ')];
    const own = (byVideo.get(v.videoId) ?? []).sort((a, b) => (a.language < b.language ? -1 : 1));
    for (const t of own) for (const p of t.paragraphs) segments.push(wordsOf(p.text).join(' '));
    const doc: Omit<SearchDoc, '_id'> = { channelId: v.channelId, publishedAt: v.publishedAt, videoKind: v.videoKind ?? 'regular', text: segments.join(SEGMENT_BREAK) };
    return { replaceOne: { filter: { _id: v.videoId }, replacement: doc as SearchDoc, upsert: true } };
  });
}

interface Loaders {
  getVideos(ids: readonly string[]): Promise<VideoRecord[]>;
  getTranscripts(ids: readonly string[]): Promise<TranscriptRecord[]>;
}

export function searchCollection(db: Db, load: Loaders) {
  const col: Collection<SearchDoc> = db.collection<SearchDoc>('search');
  return {
    async searchVideos(query, scope, limit, options = {}) {
      if (limit <= 0 || scope.kinds.length === 0 || (scope.channelIds !== null && scope.channelIds.length === 0)) return [];
      const deadline = new SearchDeadline(options.budgetMs);
      const filter: Filter<SearchDoc> = { $text: { $search: textSearchOf(query) }, videoKind: { $in: [...scope.kinds] } };
      if (scope.channelIds !== null) filter.channelId = { $in: [...scope.channelIds] };
      let skip = 0;
      return collectHits(query, scope, limit, {
        async next(size): Promise<Candidate[]> {
          // The server stops a page at what is left of the budget (maxTimeMS) as this side does between pages.
          const left = deadline.remaining();
          const cursor = col.find(filter, { projection: { _id: 1, publishedAt: 1 } }).sort({ publishedAt: -1, _id: 1 }).skip(skip).limit(size);
          if (Number.isFinite(left)) cursor.maxTimeMS(Math.max(1, Math.ceil(left)));
          let docs: Pick<SearchDoc, '_id' | 'publishedAt'>[];
          try {
            docs = await cursor.toArray();
          } catch (err) {
            if ((err as { code?: unknown }).code === MAX_TIME_EXPIRED) throw new SearchBudgetExceeded(options.budgetMs!);
            throw err;
          }
          skip += docs.length;
          return docs.map((d) => ({ videoId: d._id, publishedSecond: publishedSecondOf(d.publishedAt) }));
        },
        decided: false,
        videos: (ids) => load.getVideos(ids),
        transcripts: (ids) => load.getTranscripts(ids),
      }, deadline);
    },
  } satisfies Partial<BackendMethods>;
}
