// A description within the platform's own 5,000 characters, shaped to make a chapter pattern with a
// lazy title and an end anchor backtrack quadratically (`0:00 a`, a long run of blanks, `b`), on
// every video of a 100-entry feed: renders in every format, uncached, while /health is asked back
// to back. The bound is the one the attack report uses: /health answers in under a second.

import { expect } from 'chai';
import { slowestHealth, startApiProcess, type ApiProcess } from '../support/api-process';
import { videoFactory } from '../support/factories';

const CHANNEL = 'UCuAXFkgsw1L7xaCfnd5JJOw';
const KEY = 'worst-description-key-01';
const BLANKS = [' ', '\t', '\u00a0', '\u3000'];

/** The worst a description can be for a chapter line: 5,000 characters, one line, blanks inside. */
export const worstDescription = (n: number): string => `0:00 a${BLANKS[n % BLANKS.length]!.repeat(4990)}b\n0:30 c\n1:00 d`;

describe('worst-case descriptions (chapter lines)', function () {
  this.timeout(120_000);
  let api: ApiProcess;
  before(async () => {
    const video = videoFactory({ channelId: CHANNEL });
    api = await startApiProcess({
      keys: { [KEY]: { name: 'attacker', rate_limit: 1000 } },
      seed: async (store) => {
        const videos = Array.from({ length: 100 }, (_, i) => video(i + 1, { description: worstDescription(i), durationSeconds: 600, language: 'en', kind: 'manual' }));
        // Stored paragraphs: the form the API renders, chapters included, on every request.
        const transcripts = videos.map((v) => ({ videoId: v.videoId, language: 'en', kind: 'manual' as const, paragraphs: [{ startMs: 0, text: 'hello' }, { startMs: 40_000, text: 'later' }], fetchedAt: v.fetchedAt! }));
        await store.upsertVideos(videos, transcripts);
      },
    });
  });
  after(() => api?.stop());

  it('15 uncached 100-entry feeds in every format leave /health answering in under a second', async () => {
    const formats = ['atom', 'rss', 'json'];
    const feeds = Array.from({ length: 15 }, (_, i) =>
      fetch(`${api.base}/?channel_id=${CHANNEL}&max_items=${100 - i}&format=${formats[i % 3]}`, { headers: { 'X-API-Key': KEY } }).then(async (r) => {
        expect(r.status).to.equal(200);
        return r.text();
      }));
    const slowest = await slowestHealth(api.base, Promise.all(feeds));
    expect(slowest, 'slowest /health answer, ms').to.be.below(1000);
    // The chapters are still read (the fix bounds the work, it does not skip the lines).
    const bodies = await Promise.all(feeds);
    expect(bodies[0]).to.contain('t=30s');
  });
});
