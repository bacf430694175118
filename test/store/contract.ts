// The store contract: one suite every Store implementation must pass (SQLite always, MongoDB when a
// server is configured). Time is passed in explicitly, so nothing here sleeps.

import { expect } from 'chai';
import { StoreUnavailableError, type RateLimitResult, type Store } from '../../shared/store';
import { subscriptionCases } from './contract-subscriptions';
import { followedOverviewCases } from './contract-followed-overview';
import { UNKNOWN_HANDLE_TTL_MS } from '../../shared/store/rules';
import { searchCases } from './contract-search';
import { platformCheckCases } from './contract-platform-check';
import { operatorContract } from './contract-operators';
import { workCases } from './contract-work';
import { videoCases } from './contract-videos';
import { webSessionCases } from './contract-web-sessions';
import { at, MIN, video } from './contract-support';
import { summaryContract } from './contract-summaries';
import { refreshAll } from '../support/refresh';

export interface StoreFixture {
  store: Store;
  cleanup(): Promise<void>;
}

const summaryOf = (r: RateLimitResult): [boolean, number, number] => [r.allowed, r.remaining, r.count];

async function expectUnavailable(p: Promise<unknown>): Promise<void> {
  let caught: unknown;
  try {
    await p;
  } catch (err) {
    caught = err;
  }
  expect(caught, 'expected a StoreUnavailableError').to.be.instanceOf(StoreUnavailableError);
}

export function storeContract(name: string, factory: () => Promise<StoreFixture>): void {
  describe(`${name} store contract`, function () {
    let fixture: StoreFixture;
    let store: Store;

    beforeEach(async function () {
      fixture = await factory();
      store = fixture.store;
    });
    afterEach(async function () {
      await fixture.cleanup();
    });

    describe('playlists', function () {
      const listing = { playlistId: 'PL_course', title: 'A course', owner: 'Teacher', ownerChannelId: 'UC_a', state: 'listed' as const, videoIds: ['v3', 'v1', 'v2'] };

      it('a playlist is a work item of kind playlist: claimed, released and refreshed like a channel', async function () {
        const p = await store.registerChannel({ channelId: 'PL_course', kind: 'playlist', wanted: 15 }, at(0));
        expect(p.kind).to.equal('playlist');
        // Registering again (as every feed request does) never changes the kind.
        expect((await store.registerChannel({ channelId: 'PL_course', wanted: 20 }, at(1))).kind).to.equal('playlist');
        expect((await store.registerChannel({ channelId: 'UC_b', wanted: 5 }, at(2))).kind).to.equal('channel');
        const claimed = await store.claimDueChannel('crawler-1', MIN, at(3));
        expect(claimed?.channelId).to.equal('PL_course');
        expect(claimed?.kind).to.equal('playlist');
        expect(await store.releaseChannel('PL_course', 'crawler-1', { nextDueAt: at(30 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(4))).to.equal(true);
        expect(await refreshAll(store, at(5))).to.equal(1);
        expect((await store.getChannel('PL_course'))?.kind).to.equal('playlist');
      });

      it('stores a listing in order; changedAt moves only when something a feed shows changed', async function () {
        expect(await store.getPlaylist('PL_course')).to.equal(null);
        const first = await store.putPlaylist(listing, at(0));
        expect(first).to.deep.equal({ ...listing, listedAt: at(0), changedAt: at(0) });
        expect(await store.getPlaylist('PL_course')).to.deep.equal(first);

        const same = await store.putPlaylist({ ...listing, videoIds: [...listing.videoIds] }, at(MIN));
        expect(same.listedAt).to.deep.equal(at(MIN));
        expect(same.changedAt).to.deep.equal(at(0));

        const reordered = await store.putPlaylist({ ...listing, videoIds: ['v1', 'v3', 'v2'] }, at(2 * MIN));
        expect(reordered.changedAt).to.deep.equal(at(2 * MIN));
        expect((await store.getPlaylist('PL_course'))?.videoIds).to.deep.equal(['v1', 'v3', 'v2']);

        const renamed = await store.putPlaylist({ ...listing, videoIds: ['v1', 'v3', 'v2'], title: 'A course, 2nd edition' }, at(3 * MIN));
        expect(renamed.changedAt).to.deep.equal(at(3 * MIN));
      });

      it('records the platform saying private or deleted, with no entries; values are stored as given', async function () {
        await store.putPlaylist(listing, at(0));
        const gone = await store.putPlaylist({ ...listing, title: null, owner: null, ownerChannelId: null, state: 'private', videoIds: [] }, at(MIN));
        expect(gone).to.deep.include({ state: 'private', videoIds: [], title: null, changedAt: at(MIN) });
        const odd = await store.putPlaylist({ ...listing, playlistId: 'PL_odd', title: '$where {"$gt": 1}', owner: '$owner' }, at(0));
        expect((await store.getPlaylist('PL_odd'))).to.deep.equal(odd);
        expect(odd.title).to.equal('$where {"$gt": 1}');
      });
    });

    workCases(() => store);
    videoCases(() => store);

    describe('transcripts per language and the languages readers asked for (#10)', function () {
      const tr = (videoId: string, language: string, kind: 'manual' | 'automatic' | 'translated', text: string, fetchedAt = at(100)) =>
        ({ videoId, language, kind, paragraphs: [{ startMs: 0, text }, { startMs: 61_500, text: `${text} 2 & <b> 😀` }], fetchedAt });

      it('stores transcripts with their videos, one per video and language, replacing on a later write', async function () {
        await store.upsertVideos([video({ videoId: 'v1' }), video({ videoId: 'v2' })], [tr('v1', 'en', 'manual', 'one'), tr('v1', 'tr', 'translated', 'bir'), tr('v2', 'de', 'automatic', 'eins')]);
        await store.upsertVideos([video({ videoId: 'v1' })], [tr('v1', 'tr', 'translated', 'bir yeni', at(200))]);
        expect(await store.getTranscripts(['v1', 'nope'])).to.deep.equal([tr('v1', 'en', 'manual', 'one'), tr('v1', 'tr', 'translated', 'bir yeni', at(200))]);
        expect((await store.getTranscripts(['v2', 'v1'])).map((t) => `${t.videoId}/${t.language}`)).to.deep.equal(['v1/en', 'v1/tr', 'v2/de']);
        expect(await store.getTranscripts([])).to.deep.equal([]);
        await store.upsertVideos([], []);
      });

      it('keeps the mark of paragraphs whose times are unknown, and clears it when they are fetched again', async function () {
        await store.upsertVideos([video({ videoId: 'v1' })], [{ ...tr('v1', 'en', 'manual', 'old'), untimed: true }]);
        expect(await store.getTranscripts(['v1'])).to.deep.equal([{ ...tr('v1', 'en', 'manual', 'old'), untimed: true }]);
        await store.upsertVideos([video({ videoId: 'v1' })], [tr('v1', 'en', 'manual', 'new')]);
        expect(await store.getTranscripts(['v1'])).to.deep.equal([tr('v1', 'en', 'manual', 'new')]);
      });

      it('a batch without transcripts leaves the stored ones alone', async function () {
        await store.upsertVideos([video({ videoId: 'v1' })], [tr('v1', 'en', 'manual', 'one')]);
        await store.upsertVideos([video({ videoId: 'v1', attempts: 2 })]);
        expect(await store.getTranscripts(['v1'])).to.have.length(1);
      });

      it('remembers the languages asked for per channel, most recent first', async function () {
        expect(await store.wantedLanguages('UC_a', 5, at(MIN))).to.deep.equal([]);
        await store.askLanguages('UC_a', ['tr', 'en'], at(1000));
        await store.askLanguages('UC_b', ['ja'], at(1000));
        await store.askLanguages('UC_a', ['de'], at(2000));
        await store.askLanguages('UC_a', ['tr'], at(3000));
        await store.askLanguages('UC_a', ['en'], at(500));
        expect(await store.wantedLanguages('UC_a', 5, at(MIN))).to.deep.equal(['tr', 'de', 'en']);
        expect(await store.wantedLanguages('UC_a', 2, at(MIN))).to.deep.equal(['tr', 'de']);
        expect(await store.wantedLanguages('UC_a', 0, at(MIN))).to.deep.equal([]);
        await store.askLanguages('UC_a', [], at(4000));
      });

      it('says which asked languages still need the stored videos fetched, until marked covered', async function () {
        await store.askLanguages('UC_a', ['tr', 'de', 'en'], at(1000));
        await store.askLanguages('UC_a', ['ja'], at(2000));
        expect(await store.languagesToBackfill('UC_a', 5, at(MIN))).to.deep.equal(['ja', 'de', 'en', 'tr']);
        expect(await store.languagesToBackfill('UC_a', 2, at(MIN)), 'only among the most recent').to.deep.equal(['ja', 'de']);
        await store.markLanguagesCovered('UC_a', ['de', 'ja'], at(3000));
        await store.markLanguagesCovered('UC_b', ['en'], at(3000));
        expect(await store.languagesToBackfill('UC_a', 5, at(MIN))).to.deep.equal(['en', 'tr']);
        // Asked again: still covered (new videos get it when fetched).
        await store.askLanguages('UC_a', ['de'], at(4000));
        expect(await store.languagesToBackfill('UC_a', 5, at(MIN))).to.deep.equal(['en', 'tr']);
        expect(await store.wantedLanguages('UC_a', 5, at(MIN))).to.deep.equal(['de', 'ja', 'en', 'tr']);
        await store.markLanguagesCovered('UC_a', [], at(5000));
        expect(await store.languagesToBackfill('UC_a', 0, at(MIN))).to.deep.equal([]);
      });

      it('keeps each key\'s own languages first, round by round over keys: another key\'s codes never push out a reader\'s', async function () {
        await store.askLanguages('UC_a', ['tr'], at(1000), 'key-reader');
        await store.askLanguages('UC_a', ['xaa', 'xab', 'xac', 'xad'], at(2000), 'key-other');
        expect(await store.wantedLanguages('UC_a', 8, at(MIN))).to.deep.equal(['xaa', 'tr', 'xab', 'xac', 'xad']);
        expect(await store.wantedLanguages('UC_a', 2, at(MIN)), 'every key\'s first before anyone\'s second').to.deep.equal(['xaa', 'tr']);
        // A key keeps its newest five: its oldest-asked go first.
        await store.askLanguages('UC_a', ['xae', 'xaf'], at(3000), 'key-other');
        expect(await store.wantedLanguages('UC_a', 8, at(MIN))).to.deep.equal(['xae', 'tr', 'xaf', 'xaa', 'xab', 'xac']);
        // Asked within 30 days: kept; beyond, gone.
        const day = 24 * 60 * MIN;
        await store.askLanguages('UC_a', ['ja'], at(10 * day), 'key-late');
        expect(await store.wantedLanguages('UC_a', 8, at(31 * day))).to.deep.equal(['ja']);
        expect(await store.wantedLanguages('UC_a', 8, at(41 * day))).to.deep.equal([]);
      });

      it('a language kept again after it was not is backfilled; a new language makes the channel awaited by its key', async function () {
        await store.registerChannel({ channelId: 'UC_a', wanted: 5 }, at(0));
        expect((await store.claimAskedChannel('w', MIN, at(0)))?.channelId).to.equal('UC_a');
        await store.releaseChannel('UC_a', 'w', { nextDueAt: at(60 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(1000));
        await store.askLanguages('UC_a', ['tr'], at(2000), 'key-reader');
        expect(await store.getChannel('UC_a')).to.deep.include({ dueAt: at(2000), awaitedAt: at(2000), awaitedBy: 'key-reader' });
        expect(await store.languagesToBackfill('UC_a', 8, at(MIN))).to.deep.equal(['tr']);
        expect((await store.claimAskedChannel('w', MIN, at(3000)))?.channelId).to.equal('UC_a');
        await store.markLanguagesCovered('UC_a', ['tr'], at(4000));
        await store.releaseChannel('UC_a', 'w', { nextDueAt: at(60 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(4000));
        // Asked again: nothing new, nothing awaited.
        await store.askLanguages('UC_a', ['tr'], at(5000), 'key-reader');
        expect(await store.getChannel('UC_a')).to.deep.include({ dueAt: at(60 * MIN), awaitedAt: null });
        expect(await store.languagesToBackfill('UC_a', 8, at(MIN))).to.deep.equal([]);
        // A run that kept other languages only: Turkish is no longer on the videos it stored.
        await store.markLanguagesCovered('UC_a', ['de'], at(6000));
        expect(await store.languagesToBackfill('UC_a', 8, at(MIN))).to.deep.equal(['tr']);
        // A channel backing off keeps its schedule whatever a reader asks.
        await store.registerChannel({ channelId: 'UC_gone', wanted: 5 }, at(0));
        await store.claimAskedChannel('w', MIN, at(0));
        await store.releaseChannel('UC_gone', 'w', { nextDueAt: at(24 * 60 * MIN), outcome: 'not_found', consecutiveFailures: 1 }, at(1000));
        await store.askLanguages('UC_gone', ['ja'], at(2000), 'key-reader');
        expect(await store.getChannel('UC_gone')).to.deep.include({ dueAt: at(24 * 60 * MIN), awaitedAt: null });
      });
    });

    describe('searchVideos', function () {
      searchCases(() => store);
    });

    describe('handles', function () {
      it('caches handles case-insensitively and overwrites', async function () {
        expect(await store.getHandle('someone')).to.equal(null);
        await store.putHandle('SomeOne', 'UC_1', at(0));
        expect(await store.getHandle('someone')).to.equal('UC_1');
        expect(await store.getHandle('@SOMEONE')).to.equal('UC_1');
        await store.putHandle('someone', 'UC_2', at(1));
        expect(await store.getHandle('someone')).to.equal('UC_2');
      });
    });

    describe('unknown handles', function () {
      it('remembers a handle the platform does not know, for UNKNOWN_HANDLE_TTL_MS, case-insensitively', async function () {
        expect(await store.isUnknownHandle('ghost', at(0))).to.equal(false);
        await store.putUnknownHandle('@Ghost', at(0));
        expect(await store.isUnknownHandle('ghost', at(0))).to.equal(true);
        expect(await store.isUnknownHandle('GHOST', at(UNKNOWN_HANDLE_TTL_MS - 1))).to.equal(true);
        expect(await store.isUnknownHandle('ghost', at(UNKNOWN_HANDLE_TTL_MS)), 'asked again after the TTL').to.equal(false);
        expect(await store.getHandle('ghost'), 'never a positive answer').to.equal(null);
        await store.putUnknownHandle('ghost', at(UNKNOWN_HANDLE_TTL_MS));
        expect(await store.isUnknownHandle('ghost', at(UNKNOWN_HANDLE_TTL_MS + 1)), 'a new answer starts a new TTL').to.equal(true);
        expect(await store.isUnknownHandle('other', at(0))).to.equal(false);
      });
    });

    describe('rate limits', function () {
      it('counts exactly within a minute and resets in the next', async function () {
        const seen = [];
        for (let i = 0; i < 4; i++) seen.push(await store.hitRateLimit('key-a', 3, at(i * 1000)));
        expect(seen.map((r) => [r.allowed, r.remaining, r.count])).to.deep.equal([
          [true, 2, 1], [true, 1, 2], [true, 0, 3], [false, 0, 4],
        ]);
        expect(seen[0]!.resetAt).to.deep.equal(at(MIN));
        const other = await store.hitRateLimit('key-b', 3, at(59_999));
        expect(other).to.deep.include({ allowed: true, remaining: 2, count: 1 });
        const next = await store.hitRateLimit('key-a', 3, at(MIN));
        expect(next).to.deep.equal({ allowed: true, remaining: 2, count: 1, resetAt: at(2 * MIN) });
      });

      it('adds n hits at once exactly as n single hits would, mixed with single hits', async function () {
        const singles = [];
        for (let i = 0; i < 7; i++) singles.push(await store.hitRateLimit('key-single', 5, at(i * 1000)));
        // The same seven hits to another key as 3, 1, 3: each answer is that of the batch's last hit.
        const three = await store.hitRateLimit('key-many', 5, at(0), 3);
        const one = await store.hitRateLimit('key-many', 5, at(1000));
        const threeMore = await store.hitRateLimit('key-many', 5, at(2000), 3);
        expect(three).to.deep.equal(singles[2]);
        expect(one).to.deep.equal(singles[3]);
        expect(threeMore).to.deep.equal(singles[6]);
        expect(summaryOf(threeMore)).to.deep.equal([false, 0, 7]);
        expect(await store.hitRateLimit('key-many', 5, at(MIN), 2)).to.deep.equal({ allowed: true, remaining: 3, count: 2, resetAt: at(2 * MIN) });
      });

      it('peeks at a window\'s count without counting, per minute', async function () {
        expect(await store.peekRateLimit('key-peek', 2, at(0))).to.deep.equal({ allowed: true, remaining: 2, count: 0, resetAt: at(MIN) });
        await store.hitRateLimit('key-peek', 2, at(1000), 2);
        expect(await store.peekRateLimit('key-peek', 2, at(2000))).to.deep.equal({ allowed: false, remaining: 0, count: 2, resetAt: at(MIN) });
        expect(await store.peekRateLimit('key-peek', 2, at(3000)), 'a peek counts nothing').to.deep.include({ count: 2 });
        expect(await store.peekRateLimit('key-peek', 2, at(MIN))).to.deep.equal({ allowed: true, remaining: 2, count: 0, resetAt: at(2 * MIN) });
      });

      it('refuses a hit count that is not a positive integer', async function () {
        for (const hits of [0, -1, 1.5, Number.NaN]) {
          let caught: unknown;
          await store.hitRateLimit('key-bad', 5, at(0), hits).catch((err: unknown) => (caught = err));
          expect(caught, String(hits)).to.be.instanceOf(RangeError);
        }
        expect((await store.hitRateLimit('key-bad', 5, at(0))).count, 'nothing counted').to.equal(1);
      });
    });

    describe('platform pacing shared by every process', function () {
      it('sums the requests of the sliding hour, per source and in all', async function () {
        await store.addPlatformRequests('crawler', 5, at(0));
        await store.addPlatformRequests('crawler', 2, at(30 * MIN));
        await store.addPlatformRequests('api', 1, at(30 * MIN + 1000));
        await store.addPlatformRequests('api', 0, at(30 * MIN));
        expect(await store.platformRequestsInHour(at(30 * MIN + 2000))).to.equal(8);
        expect(await store.platformRequestsInHour(at(30 * MIN + 2000), 'api')).to.equal(1);
        expect(await store.platformRequestsInHour(at(30 * MIN + 2000), 'crawler')).to.equal(7);
        // An hour after the first five, only the later three are in the window.
        expect(await store.platformRequestsInHour(at(60 * MIN))).to.equal(3);
        expect(await store.platformRequestsInHour(at(100 * MIN))).to.equal(0);
      });

      it('refuses a count that is not a whole number', async function () {
        let caught: unknown;
        await store.addPlatformRequests('api', -1, at(0)).catch((err: unknown) => (caught = err));
        expect(caught).to.be.instanceOf(RangeError);
      });

      it('keeps the latest cool-down end, and none once it is over', async function () {
        expect(await store.platformCoolDown(at(0))).to.equal(null);
        await store.setPlatformCoolDown(at(30 * MIN), 'try again later', at(0));
        await store.setPlatformCoolDown(at(10 * MIN), 'earlier end', at(1000));
        expect(await store.platformCoolDown(at(MIN))).to.deep.equal({ until: at(30 * MIN), reason: 'try again later' });
        await store.setPlatformCoolDown(at(40 * MIN), 'later end', at(2000));
        expect(await store.platformCoolDown(at(MIN))).to.deep.equal({ until: at(40 * MIN), reason: 'later end' });
        expect(await store.platformCoolDown(at(40 * MIN))).to.equal(null);
      });
    });

    subscriptionCases(() => store);
    followedOverviewCases(() => store);
    platformCheckCases(() => store);
    webSessionCases(() => store);
    operatorContract(() => store);
    summaryContract(() => store);

    describe('availability', function () {
      it('answers a read while open', async function () {
        expect(await store.getChannel('UC_none')).to.equal(null);
      });

      it('gives StoreUnavailableError after close, and closing twice is harmless', async function () {
        await store.close();
        await store.close();
        await expectUnavailable(store.getChannel('UC_a'));
        await expectUnavailable(store.claimDueChannel('w1', MIN, at(0)));
        await expectUnavailable(store.upsertVideos([video({ videoId: 'v1' })]));
        await expectUnavailable(store.hitRateLimit('key', 3, at(0)));
      });
    });
  });
}
