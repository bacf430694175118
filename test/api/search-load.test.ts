// Searches under load, over real HTTP on the real app and a real SQLite store seeded with a corpus
// that makes FTS5 work: 4,000 videos whose transcripts are one cycle of twelve words said over and
// over, so every word is in every video, hundreds of times, and a phrase of two of them in the
// reverse order (`"bravo alfa"`) is in none. Ten such phrases make FTS5 read every position of
// every word of the corpus and match nothing: the costliest query the language allows.
// No test here measures a duration: each asserts what happened while the costly search ran.

import { expect } from 'chai';
import type { Store, TranscriptRecord } from '../../shared/store/types';
import { DEFAULT_KEYS, KEY, startApi, video, type StartApiOptions, type TestApi } from './support';

const WORDS = ['alfa', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliett', 'kilo', 'lima'];
const PARAGRAPH = `${WORDS.join(' ')} `.repeat(8).trim();
const VIDEOS = 4_000;
/** Ten phrases that never occur, each of two words that occur everywhere. */
export const COSTLY = Array.from({ length: 10 }, (_, i) => `"${WORDS[i + 1]} ${WORDS[i]}"`).join(' ');

export async function seedCostlyCorpus(api: TestApi): Promise<void> {
  for (let first = 1; first <= VIDEOS; first += 500) {
    const videos = Array.from({ length: 500 }, (_, i) => video(first + i));
    const transcripts: TranscriptRecord[] = videos.map((v) => ({
      videoId: v.videoId, language: 'en', kind: 'manual', fetchedAt: v.fetchedAt,
      paragraphs: Array.from({ length: 24 }, (_, k) => ({ startMs: k * 10_000, text: PARAGRAPH })),
    }));
    await api.store.upsertVideos(videos, transcripts);
  }
}


/** Every store call of searchVideos, with how many ran at once. */
class CountingStore {
  calls: string[] = [];
  running = 0;
  mostAtOnce = 0;
  /** Per first word of the query: the most that ran at once. */
  mostAtOnceBy = new Map<string, number>();
  private runningBy = new Map<string, number>();

  wrap(store: Store): Store {
    return new Proxy(store, {
      get: (target, name, receiver) => {
        if (name !== 'searchVideos') return Reflect.get(target, name, receiver) as unknown;
        return async (...args: Parameters<Store['searchVideos']>) => {
          const tag = args[0].all.flat(2).join(' ');
          const first = args[0].all[0]![0]![0]!;
          this.calls.push(tag);
          this.running += 1;
          this.runningBy.set(first, (this.runningBy.get(first) ?? 0) + 1);
          this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
          this.mostAtOnceBy.set(first, Math.max(this.mostAtOnceBy.get(first) ?? 0, this.runningBy.get(first)!));
          try {
            return await target.searchVideos(...args);
          } finally {
            this.running -= 1;
            this.runningBy.set(first, this.runningBy.get(first)! - 1);
          }
        };
      },
    });
  }
}

/**
 * The setting's largest budget, for the tests whose premise is that the costly search finishes: it
 * takes about a second idle and past the default 5 s on a loaded machine, where those tests would
 * answer 429 and test nothing of what they mean to. The budget's own test sets 1 ms.
 */
const NO_BUDGET = 600_000;
const KEYS = { ...DEFAULT_KEYS, 'search-key-two-0000000002': { name: 'two', enabled: true }, 'search-key-three-000000003': { name: 'three', enabled: true } };
/** `"a c"`-like phrases: two words said everywhere, never one after the other. */
const never = (a: number, b: number): string => `"${WORDS[a]} ${WORDS[b]}"`;
/** Nine phrases of COSTLY after a first one that names the search (its first word tags it). */
const costlyNamed = (first: string): string => [first, ...Array.from({ length: 9 }, (_, i) => never(i + 2, i + 1))].join(' ');

describe('searches under load (HTTP, seeded SQLite store)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let counted: CountingStore;

  async function start(opts: StartApiOptions = {}): Promise<void> {
    counted = new CountingStore();
    api = await startApi({ keys: KEYS, appStore: (s) => counted.wrap(s), ...opts });
    await seedCostlyCorpus(api);
  }
  afterEach(() => api?.close());

  it('keeps answering /health while a costly search runs', async function () {
    await start({ search: { budgetMs: NO_BUDGET } });
    // Probes one after another, each sent when the previous one answered, for as long as the search runs.
    let searching = true;
    let answered = 0;
    const probes = (async () => {
      while (searching) {
        const res = await fetch(`${api.base}/health`);
        await res.arrayBuffer();
        if (searching && res.ok) answered += 1;
      }
    })();
    const res = await api.get(`/search?q=${encodeURIComponent(COSTLY)}`, { key: KEY });
    const body = await res.text();
    searching = false;
    await probes;
    expect(res.status, body).to.equal(200);
    expect(body).to.not.include('<entry>');
    // Were the search one statement on the event loop, the probes would get only the few turns
    // around it (before its store call, and while its empty feed is written).
    expect(answered, 'health probes answered while the search ran').to.be.at.least(10);
  });

  it('runs at most API_MAX_SEARCHES at once in the process and API_MAX_SEARCHES_PER_KEY for one key', async function () {
    await start({ search: { maxSearches: 2, maxSearchesPerKey: 1, budgetMs: NO_BUDGET } });
    const asks: [string, string][] = [
      [KEY, costlyNamed(never(0, 2))], [KEY, costlyNamed(never(0, 3))], [KEY, costlyNamed(never(0, 4))],
      ['search-key-two-0000000002', costlyNamed(never(1, 3))], ['search-key-three-000000003', costlyNamed(never(2, 4))],
    ];
    const answers = await Promise.all(asks.map(async ([key, q]) => {
      const res = await api.get(`/search?q=${encodeURIComponent(q)}`, { key });
      return [res.status, await res.text()] as const;
    }));
    for (const [status, body] of answers) expect(status, body).to.equal(200);
    expect(counted.calls).to.have.length(5);
    expect(counted.mostAtOnce, 'searches at once in the process').to.equal(2);
    expect(counted.mostAtOnceBy.get(WORDS[0]!), "the first key's searches at once").to.equal(1);
  });

  it('answers a flood of one costly search with one search, and every repeat from what it found', async function () {
    await start({ search: { budgetMs: NO_BUDGET } });
    const url = `/search?q=${encodeURIComponent(COSTLY)}`;
    const flood = await Promise.all(Array.from({ length: 6 }, () => api.get(url)));
    const etags = new Set(flood.map((r) => r.headers.get('etag')));
    for (const r of flood) expect(r.status).to.equal(200);
    expect(etags.size, 'one representation').to.equal(1);
    expect(counted.calls, 'six at once: one search').to.have.length(1);
    const again = await api.get(url);
    expect(again.status).to.equal(200);
    expect((await api.get(url, { headers: { 'If-None-Match': [...etags][0]! } })).status).to.equal(304);
    expect(counted.calls, 'repeats: no search').to.have.length(1);
  });

  it('ends a search past API_SEARCH_BUDGET_MS with 429, and answers its repeats the same without searching', async function () {
    await start({ search: { budgetMs: 1 } });
    const url = `/search?q=${encodeURIComponent(COSTLY)}`;
    const res = await api.get(url);
    const body = (await res.json()) as { error: string; message: string; retry_after: number };
    expect(res.status, JSON.stringify(body)).to.equal(429);
    expect(res.headers.get('retry-after')).to.equal('60');
    expect(body.error).to.equal('Arama zaman sınırını aştı');
    expect(body.retry_after).to.equal(60);
    expect(body.message).to.match(/saniyede bitmedi/);
    const searched = counted.calls.length;
    expect(searched).to.be.at.most(1);
    expect((await api.get(url)).status).to.equal(429);
    expect(counted.calls, 'the repeat searched nothing').to.have.length(searched);
    expect((await fetch(`${api.base}/health`)).status, 'the service answers on').to.equal(200);
  });
});
