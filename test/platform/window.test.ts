// The crawler's window on a channel (shared/platform/window.ts): the newest `wanted` regular
// videos and the Shorts among them.

import { expect } from 'chai';
import { regularCount, windowOf } from '../../shared/platform/window';

/** 'r' a regular video, 'S' a Short; ids are the positions. */
const videos = (kinds: string) => [...kinds].map((k, i) => ({ videoId: `${k}${i}`, ...(k === 'S' ? { short: true } : {}) }));
const ids = (vs: readonly { videoId: string }[]) => vs.map((v) => v.videoId).join(' ');

describe('the window of a listing', () => {
  it('counts regular videos: Shorts and nothing else are left out of the count', () => {
    expect(regularCount(videos(''))).to.equal(0);
    expect(regularCount(videos('SrrSSr'))).to.equal(3);
    expect(regularCount([{ short: false }, {}, { short: true }])).to.equal(2);
  });

  it('is the shortest prefix holding `wanted` regular videos, with the Shorts among them', () => {
    expect(ids(windowOf(videos('rrrrr'), 3))).to.equal('r0 r1 r2');
    expect(ids(windowOf(videos('SrSrrSr'), 3)), 'Shorts before and between are kept').to.equal('S0 r1 S2 r3 r4');
    expect(ids(windowOf(videos('rrSSSr'), 2)), 'Shorts after the last wanted one are not').to.equal('r0 r1');
  });

  it('is everything when fewer regular videos are listed than wanted', () => {
    expect(ids(windowOf(videos('rSrS'), 3))).to.equal('r0 S1 r2 S3');
    expect(ids(windowOf(videos('SSS'), 1))).to.equal('S0 S1 S2');
    expect(windowOf([], 5)).to.deep.equal([]);
  });

  it('is empty for nothing wanted, and never the caller\'s array', () => {
    expect(windowOf(videos('Sr'), 0)).to.deep.equal([]);
    const all = videos('rr');
    const window = windowOf(all, 5);
    expect(window).to.deep.equal(all);
    expect(window).not.to.equal(all);
  });
});
