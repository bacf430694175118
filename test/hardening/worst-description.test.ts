// A description within the platform's own 5,000 characters, shaped to make a chapter pattern with a
// lazy title and an end anchor backtrack quadratically (`0:00 a`, a long run of blanks, `b`), on
// every video of a 100-entry feed, rendered uncached in every format by a real API process. The
// bound is on work, not wall time: the CPU seconds the API process spent on the renders (read from
// /proc), generous for linear work and far below what the quadratic pattern cost (several seconds
// per render).

import { expect } from 'chai';
import { startApiProcess, type ApiProcess } from '../support/api-process';
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

  it('six uncached 100-entry feeds in every format cost the API well under a CPU second each', async () => {
    const formats = ['atom', 'rss', 'json'];
    const before = api.cpuSeconds();
    const bodies: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await fetch(`${api.base}/?channel_id=${CHANNEL}&max_items=${100 - i}&format=${formats[i % 3]}`, { headers: { 'X-API-Key': KEY } });
      expect(r.status).to.equal(200);
      bodies.push(await r.text());
    }
    const spent = api.cpuSeconds() - before;
    expect(spent, 'CPU seconds the API spent on six renders').to.be.below(6);
    // The chapters are still read (the fix bounds the work, it does not skip the lines).
    expect(bodies[0]).to.contain('t=30s');
  });
});
