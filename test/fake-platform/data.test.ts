// The channel generator: deterministic, valid ids, any size, realistic transcripts; and run-time
// uploads.

import { expect } from 'chai';
import { CHANNEL_ID_RE, makeChannel, startFakePlatform, VIDEO_ID_RE } from './index';

describe('fake platform: generated channels', () => {
  it('is deterministic for the same options and differs for another seed', () => {
    const a = makeChannel({ handle: 'same', count: 12 });
    const b = makeChannel({ handle: 'same', count: 12 });
    const c = makeChannel({ handle: 'same', count: 12, seed: 'other' });
    expect(a).to.deep.equal(b);
    expect(c.channelId).to.not.equal(a.channelId);
    expect(c.videos[0]?.videoId).to.not.equal(a.videos[0]?.videoId);
  });

  it('makes valid, unique ids, newest first, at any size', () => {
    const channel = makeChannel({ handle: 'huge', count: 600, shortsRatio: 0.1 });
    expect(channel.channelId).to.match(CHANNEL_ID_RE);
    expect(channel.videos).to.have.length(600);
    expect(new Set(channel.videos.map((v) => v.videoId)).size).to.equal(600);
    for (const video of channel.videos) expect(video.videoId).to.match(VIDEO_ID_RE);
    const times = channel.videos.map((v) => v.publishedAt.getTime());
    expect(times).to.deep.equal([...times].sort((x, y) => y - x));
    expect(times[0]).to.be.at.most(Date.now());
    expect(channel.videos.some((v) => v.short)).to.equal(true);
  });

  it('honours the caption mix and the given id and title', () => {
    const channel = makeChannel({
      handle: 'mix',
      channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa',
      title: 'Mixed',
      count: 200,
      captionsMix: { manual: 1, none: 1 },
    });
    expect(channel).to.include({ channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa', title: 'Mixed', handle: 'mix' });
    expect(new Set(channel.videos.map((v) => v.captions))).to.deep.equal(new Set(['manual', 'none']));
  });

  it('writes transcripts with pauses, missing durations, empty cues and characters that need escaping', () => {
    const cues = makeChannel({ handle: 'talk', count: 30, captionsMix: { manual: 1 } }).videos.flatMap((v) => v.cues ?? []);
    const text = cues.map((c) => c.text).join(' ');
    expect(text).to.include("'").and.include('&').and.include('<');
    expect(cues.some((c) => c.dur === undefined)).to.equal(true);
    expect(cues.some((c) => c.text === '')).to.equal(true);
    const gaps = cues.slice(1).map((c, i) => c.start - ((cues[i]?.start ?? 0) + (cues[i]?.dur ?? 0)));
    expect(gaps.some((g) => g > 1.5)).to.equal(true);
  });

  it('foreign videos speak German; automatic-only videos read like speech recognition', () => {
    const channel = makeChannel({ handle: 'lang', count: 40, captionsMix: { foreign: 1, automatic: 1 } });
    const foreign = channel.videos.find((v) => v.captions === 'foreign');
    const automatic = channel.videos.find((v) => v.captions === 'automatic');
    expect(foreign?.language).to.equal('de');
    expect(automatic?.cues?.[0]?.text).to.equal('[Music]');
    expect(automatic?.cues?.slice(1).every((c) => c.text === c.text.toLowerCase())).to.equal(true);
  });

  it('addUpload puts a new video first (feed and browse) and rejects unknown channels and bad ids', async () => {
    const channel = makeChannel({ handle: 'live', count: 20 });
    const fake = await startFakePlatform({ channels: [channel] });
    try {
      const upload = fake.addUpload(channel.channelId, { title: 'Brand new' });
      expect(upload.videoId).to.match(VIDEO_ID_RE);
      expect(fake.channel('live')?.videos[0]?.videoId).to.equal(upload.videoId);
      expect(fake.channel(channel.channelId)?.videos).to.have.length(21);
      // The caller's spec is not changed by the fake.
      expect(channel.videos).to.have.length(20);
      const feed = await (await fetch(`${fake.url}/feeds/videos.xml?channel_id=${channel.channelId}`)).text();
      expect(feed.indexOf(upload.videoId)).to.be.greaterThan(0).and.lessThan(feed.indexOf(channel.videos[0]?.videoId ?? '-'));
      expect(() => fake.addUpload('UCxxxxxxxxxxxxxxxxxxxxxx')).to.throw(/no channel/);
      expect(() => fake.addUpload(channel.channelId, { videoId: 'short' })).to.throw(/bad video id/);
      expect(() => fake.addChannel({ channelId: 'UCbad', handle: 'x', title: 'x', videos: [] })).to.throw(/bad channel id/);
    } finally {
      await fake.close();
    }
  });

  it('close() is harmless twice and frees the port', async () => {
    const fake = await startFakePlatform();
    await fake.close();
    await fake.close();
    let refused = false;
    await fetch(`${fake.url}/@x`).catch(() => (refused = true));
    expect(refused).to.equal(true);
  });
});
