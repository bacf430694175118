import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { createPlatformClient, PlatformError } from '../../shared/platform';
import type { BrowsedVideo } from '../../shared/platform/browse';
import { mergeListing } from '../../shared/platform/listing';
import { useRecordingServer } from './recording-server';
import { platformConfig } from './support';

const CHANNEL = 'UCTwECeGqMZee77BjdoYtI2Q';

const item = (id: string) => ({ richItemRenderer: { content: { lockupViewModel: { contentId: id, contentType: 'LOCKUP_CONTENT_TYPE_VIDEO', metadata: { lockupMetadataViewModel: { title: { content: id } } } } } } });
const next = (token: string) => ({ continuationItemRenderer: { continuationEndpoint: { continuationCommand: { token } } } });
const firstPage = (ids: string[], token: string | null) => ({
  metadata: { channelMetadataRenderer: { title: 'Chan' } },
  contents: { twoColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { selected: true, content: { richGridRenderer: { contents: [...ids.map(item), ...(token ? [next(token)] : [])] } } } }] } },
});
const contPage = (ids: string[], token: string | null) => ({
  onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: [...ids.map(item), ...(token ? [next(token)] : [])] } }],
});
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(11 - prefix.length, '0')}`);

describe('listing (browse paging and merge)', () => {
  // The scripted platform over real loopback HTTP; a request no route expected fails the test.
  const platform = useRecordingServer();

  const client = () => createPlatformClient(platformConfig(platform.base), silentLogger());

  it('stops when a continuation token repeats', async () => {
    platform.on('GET', '/feeds/videos.xml', { status: 500 });
    let calls = 0;
    platform.on('POST', '/youtubei/v1/browse', (req) => {
      calls += 1;
      const b = JSON.parse(req.body) as { continuation?: string };
      if (!b.continuation) return { body: firstPage(ids('a', 30), 'T1') };
      return { body: contPage(ids(`b${calls}`, 30), 'T1') }; // the platform hands out the same token again
    }, 10);
    const listing = await client().listVideos(CHANNEL, 100);
    expect(calls).to.equal(2);
    expect(listing.videos).to.have.length(60);
    expect(listing.title).to.equal('Chan');
    expect(listing.complete, 'a repeated token is not the end of the channel').to.equal(false);
  });

  it('is complete when the browse pages run out before the count, not when the count is reached', async () => {
    platform.on('GET', '/feeds/videos.xml', { status: 500 }, 2);
    platform.on('POST', '/youtubei/v1/browse', { body: firstPage(ids('a', 20), null) }, 2);
    const all = await client().listVideos(CHANNEL, 100);
    expect(all).to.deep.include({ complete: true, title: 'Chan' });
    expect(all.videos).to.have.length(20);
    const some = await client().listVideos(CHANNEL, 10);
    expect(some.complete).to.equal(false);
    expect(some.videos).to.have.length(10);
  });

  it('a malformed channel id (HTTP 400 INVALID_ARGUMENT) is not_found', async () => {
    platform.on('GET', '/feeds/videos.xml', { status: 404, body: '<html>404</html>', headers: { 'content-type': 'text/html' } });
    platform.on('POST', '/youtubei/v1/browse', { status: 400, body: { error: { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' } } });
    const err = await client().listVideos('UCbad', 5).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(PlatformError).with.property('outcome', 'not_found');
  });

  it('a blocked feed is thrown at once: browse would be blocked too', async () => {
    const feed = platform.on('GET', '/feeds/videos.xml', { status: 429, body: '' });
    const err = await client().listVideos(CHANNEL, 5).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(PlatformError).with.property('outcome', 'blocked');
    expect(platform.pending()).to.equal(0);
    expect(feed).to.have.length(1);
    expect(platform.unexpected.map((r) => r.path), 'no browse call after the blocked feed').to.deep.equal([]);
  });

  it('pages browse until the listing holds `limit` regular videos, keeping the feed\'s Shorts among them', async () => {
    // The feed the caller already has: 15 entries, 10 of them Shorts, which browse never lists.
    const feedIds = ids('f', 15);
    const isShort = (i: number) => i % 3 !== 0;
    const feed = {
      channelId: CHANNEL, title: 'Chan', complete: false,
      videos: feedIds.map((videoId, i) => ({ videoId, title: videoId, publishedAt: new Date(Date.UTC(2026, 0, 30 - i)), ...(isShort(i) ? { short: true } : {}) })),
    };
    const regularInFeed = feedIds.filter((_, i) => !isShort(i));
    const older = ids('o', 40);
    let calls = 0;
    platform.on('POST', '/youtubei/v1/browse', (req) => {
      calls += 1;
      const b = JSON.parse(req.body) as { continuation?: string };
      // 25 regular videos on the first page: with the 10 Shorts, 35 entries, but not 30 regular ones.
      if (!b.continuation) return { body: firstPage([...regularInFeed, ...older.slice(0, 20)], 'T1') };
      return { body: contPage(older.slice(20, 40), 'T2') };
    }, 2);
    const listing = await client().listVideos(CHANNEL, 30, feed);
    expect(calls, 'a second page for the regular videos the first lacked').to.equal(2);
    expect(listing.videos.filter((v) => v.short !== true)).to.have.length(30);
    expect(listing.videos.map((v) => v.videoId)).to.deep.equal([...feedIds, ...older.slice(0, 25)]);
    expect(listing.complete).to.equal(false);
  });

  it('merge: uploads newer than the cached feed first, then the feed with its dates, then older ones', () => {
    const d = (s: string) => new Date(s);
    const feed = { title: 'x', videos: [
      { videoId: 'f1', title: 'F1', publishedAt: d('2026-01-03T00:00:00Z') },
      { videoId: 's1', title: 'S1', publishedAt: d('2026-01-02T00:00:00Z') }, // a Short: only in the feed
      { videoId: 'f2', title: 'F2', publishedAt: d('2026-01-01T00:00:00Z') },
    ] };
    const b = (videoId: string): BrowsedVideo => ({ videoId, title: videoId.toUpperCase(), relativeDate: '1 day ago' });
    const merged = mergeListing(feed, [b('n1'), b('f1'), b('f2'), b('o1'), b('o2')]);
    expect(merged.map((v) => v.videoId)).to.deep.equal(['n1', 'f1', 's1', 'f2', 'o1', 'o2']);
    expect(merged.map((v) => v.publishedAt === null)).to.deep.equal([true, false, false, false, true, true]);
    expect(mergeListing(null, [b('a'), b('a'), b('c')]).map((v) => v.videoId)).to.deep.equal(['a', 'c']);
  });
});
