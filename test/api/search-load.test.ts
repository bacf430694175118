// Searches under load, over real HTTP on the real app and a real SQLite store seeded with a corpus
// that makes FTS5 work: 4,000 videos whose transcripts are one cycle of twelve words said over and
// over, so every word is in every video, hundreds of times, and a phrase of two of them in the
// reverse order (`"bravo alfa"`) is in none. Ten such phrases make FTS5 read every position of
// every word of the corpus and match nothing: the costliest query the language allows.
// No test here measures a duration: each asserts what happened while the costly search ran.

import { expect } from 'chai';
import type { TranscriptRecord } from '../../shared/store/types';
import { KEY, startApi, video, type TestApi } from './support';

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

describe('searches under load (HTTP, seeded SQLite store)', function () {
  this.timeout(120_000);
  let api: TestApi;

  before(async function () {
    api = await startApi();
    await seedCostlyCorpus(api);
  });
  after(() => api.close());

  it('keeps answering /health while a costly search runs', async function () {
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
});
