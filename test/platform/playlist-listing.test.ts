// The playlist listing against the fake platform over HTTP (docs/crawler.md §2b): the feed alone for
// 15, the playlist page and its continuations (in every continuation shape) for more, unavailable
// entries skipped, each entry with its own channel, the feed's dates kept; private and deleted
// playlists as PlaylistUnavailableError. And the id and URL forms the service accepts.

import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { createPlatformClient, PlaylistUnavailableError, type PlatformSession } from '../../shared/platform';
import { isPlaylistId, parsePlaylistUrl } from '../../shared/playlist-ref';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';

const owner = makeChannel({ handle: 'owner', title: 'Owner & Co', count: 40, seed: 'pl-owner' });
const other = makeChannel({ handle: 'other', title: 'Other', count: 30, seed: 'pl-other' });
const order = [...owner.videos.slice(0, 30), ...other.videos.slice(0, 25)].map((v) => v.videoId).reverse();
const channelOf = new Map([...owner.videos.map((v) => [v.videoId, owner.channelId] as const), ...other.videos.map((v) => [v.videoId, other.channelId] as const)]);

const config = (url: string) => ({ platformBaseUrl: url, transcriptLanguages: ['en'], playerClients: [{ name: 'ANDROID', version: '21.03.36' }], platformTimeoutMs: 5000 });

describe('playlist listing against the fake platform', function () {
  this.timeout(30_000);
  let fake: FakePlatform;
  let platform: PlatformSession;

  before(async () => {
    fake = await startFakePlatform({
      channels: [owner, other],
      playlists: [
        { playlistId: 'PLshort_aaaaaaaaaaaaaaaaaaaaaaaaaaa', title: 'Short one', ownerChannelId: owner.channelId, entries: order.slice(0, 12).map((videoId) => ({ videoId })) },
        {
          playlistId: 'PLlong_bbbbbbbbbbbbbbbbbbbbbbbbbbbb',
          title: 'Long one',
          ownerChannelId: owner.channelId,
          entries: [{ videoId: 'privateVid1', gone: 'private' }, ...order.slice(0, 20).map((videoId) => ({ videoId })), { videoId: 'deletedVid1', gone: 'deleted' }, ...order.slice(20).map((videoId) => ({ videoId }))],
        },
        { playlistId: 'PLsecret_ccccccccccccccccccccccccccc', title: 'Secret', ownerChannelId: owner.channelId, entries: [], state: 'private' },
        { playlistId: 'PLgone_ddddddddddddddddddddddddddddd', title: 'Gone', ownerChannelId: owner.channelId, entries: [], state: 'deleted' },
      ],
    });
    platform = createPlatformClient(config(fake.url), silentLogger());
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.resetCounters();
    fake.clearScenarios();
  });

  it('a playlist that fits the feed: one request, its order, exact dates, each video\'s own channel, the owner', async () => {
    const l = await platform.listPlaylist('PLshort_aaaaaaaaaaaaaaaaaaaaaaaaaaa', 100);
    expect(l.videos.map((v) => v.videoId)).to.deep.equal(order.slice(0, 12));
    expect(l.videos.map((v) => v.channelId)).to.deep.equal(order.slice(0, 12).map((id) => channelOf.get(id)));
    expect(l.videos.every((v) => v.publishedAt instanceof Date)).to.equal(true);
    expect(l).to.deep.include({ title: 'Short one', owner: 'Owner & Co', ownerChannelId: owner.channelId, complete: true, mode: 'feed', unavailable: 0 });
    expect(fake.counters.feed).to.equal(1);
    expect(fake.counters.browse + fake.counters.browseContinuation).to.equal(0);
  });

  it('the first 15 of a longer playlist come from the feed alone', async () => {
    const l = await platform.listPlaylist('PLlong_bbbbbbbbbbbbbbbbbbbbbbbbbbbb', 15);
    expect(l.videos.map((v) => v.videoId)).to.deep.equal(order.slice(0, 15));
    expect(l.mode).to.equal('feed');
    expect(fake.counters.browse).to.equal(0);
  });

  for (const shape of ['renderer', 'viewModel', 'wrapped'] as const) {
    it(`more than 15: the playlist page and its continuations (${shape}), order kept, unavailable entries skipped`, async () => {
      fake.scenario.playlistPageSize(10);
      fake.scenario.continuationShape(shape);
      const l = await platform.listPlaylist('PLlong_bbbbbbbbbbbbbbbbbbbbbbbbbbbb', 100);
      expect(l.videos.map((v) => v.videoId)).to.deep.equal(order);
      expect(l.videos.map((v) => v.channelId)).to.deep.equal(order.map((id) => channelOf.get(id)));
      expect(l).to.deep.include({ unavailable: 2, complete: true, mode: 'deep', title: 'Long one', owner: 'Owner & Co', ownerChannelId: owner.channelId });
      // The feed's exact dates are kept for its 15; the page gives none for the rest.
      expect(l.videos.slice(0, 15).every((v) => v.publishedAt instanceof Date)).to.equal(true);
      expect(l.videos.slice(15).every((v) => v.publishedAt === null)).to.equal(true);
      expect(fake.counters.browse).to.equal(1);
      expect(fake.counters.browseContinuation).to.equal(5);
    });
  }

  it('stops at the wanted count, and reads the page alone when the feed is out', async () => {
    fake.scenario.playlistPageSize(10);
    fake.scenario.feedOutage(500);
    const l = await platform.listPlaylist('PLlong_bbbbbbbbbbbbbbbbbbbbbbbbbbbb', 25);
    expect(l.videos.map((v) => v.videoId)).to.deep.equal(order.slice(0, 25));
    expect(l.videos.every((v) => v.publishedAt === null)).to.equal(true);
    expect(l.complete).to.equal(false);
    expect(fake.counters.browseContinuation).to.equal(2);
  });

  it('private and deleted (or unknown) playlists: PlaylistUnavailableError with the state the page says', async () => {
    const stateOf = async (id: string): Promise<unknown> => {
      try {
        await platform.listPlaylist(id, 10);
        return 'listed';
      } catch (err) {
        return err instanceof PlaylistUnavailableError ? [err.state, err.outcome] : err;
      }
    };
    expect(await stateOf('PLsecret_ccccccccccccccccccccccccccc')).to.deep.equal(['private', 'not_found']);
    expect(await stateOf('PLgone_ddddddddddddddddddddddddddddd')).to.deep.equal(['deleted', 'not_found']);
    expect(await stateOf('PLneverexisted_eeeeeeeeeeeeeeeeeeeee')).to.deep.equal(['deleted', 'not_found']);
  });
});

describe('playlist ids and URLs the service accepts', () => {
  const ok = [
    'PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf', // a creator's playlist today (34)
    'PL1234567890ABCDEF', // an old one (18)
    'OLAK5uy_kZ3zJ2cV9hNsT6mYbQ1wXrL0pDfGhJk4', // an album
    'UUuAXFkgsw1L7xaCfnd5JJOw', // a channel's uploads
    'UULFuAXFkgsw1L7xaCfnd5JJOw', // its long-form uploads
    'UUSHuAXFkgsw1L7xaCfnd5JJOw', // its Shorts
    'FLuAXFkgsw1L7xaCfnd5JJOw', // its favourites
  ];
  const refused = [
    '', 'PL', 'PLshort', 'RDdQw4w9WgXcQ', 'RDMM', 'WL', 'LL', 'LM', 'UCuAXFkgsw1L7xaCfnd5JJOw', 'UUshort', 'UUXXuAXFkgsw1L7xaCfnd5JJOw',
    'PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf&index=2', 'PLrAXtmErZgOeiKm4sgNOknGvNjby9efd f', 'PL' + 'a'.repeat(65), 'pl1234567890ABCDEF', 'PL1234567890ABCDE/',
  ];
  it('accepts PL…, OLAK5uy_…, UU… (and its kinds) and FL…', () => {
    for (const id of ok) expect(isPlaylistId(id), id).to.equal(true);
  });
  it('refuses mixes, the viewer\'s own lists, channel ids and anything else', () => {
    for (const id of refused) expect(isPlaylistId(id), id).to.equal(false);
  });
  it('playlist_url: only https://[www.]youtube.com/playlist?list=<id>', () => {
    const id = ok[0]!;
    expect(parsePlaylistUrl(`https://www.youtube.com/playlist?list=${id}`)).to.equal(id);
    expect(parsePlaylistUrl(`https://youtube.com/playlist?list=${id}`)).to.equal(id);
    expect(parsePlaylistUrl(`HTTPS://WWW.YOUTUBE.COM/playlist?list=${id}`)).to.equal(id);
    for (const bad of [
      `http://www.youtube.com/playlist?list=${id}`, `https://m.youtube.com/playlist?list=${id}`, `https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=${id}`,
      `https://www.youtube.com/playlist?list=${id}&index=2`, `https://www.youtube.com/playlist?list=${id}#x`, `https://www.youtube.com/PLAYLIST?list=${id}`,
      `https://www.youtube.com:443/playlist?list=${id}`, `https://evil.example/playlist?list=${id}`, `https://www.youtube.com/playlist?list=RDdQw4w9WgXcQ`,
      `https://user@www.youtube.com/playlist?list=${id}`, `https://www.youtube.com/playlist/?list=${id}`,
    ]) expect(parsePlaylistUrl(bad), bad).to.equal(null);
  });
});
