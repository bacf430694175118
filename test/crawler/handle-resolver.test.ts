// Followed handles from imports, resolved by the crawler (never while the import waited): paced
// like every platform request, taken round-robin by key within each key's hourly share, cached
// handles free, "no such channel" not asked again for a month, a resolved channel waiting in its
// keys' import queues, and a block ending the round with the rest left for later. A real SQLite
// store, a stub platform.

import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { HANDLES_PER_ROUND, resolveFollowedHandles, UNKNOWN_SUBSCRIBED_HANDLE_RETRY_MS } from '../../crawler/handle-resolver';
import { releaseImports } from '../../shared/store/import-queue';
import { silentLogger } from '../../shared/logger';
import { PlatformError } from '../../shared/platform/types';
import { FakeTiming } from './support/fake-timing';
import { tempStore, type TempStore } from '../support/temp-store';

const KEY_ID = createHash('sha256').update('a key').digest('hex');
const NEW = 'UCBa659QWEk1AI4Tg--mrJ2A';
const CACHED = 'UCsXVk37bltHxD1rDPwtNM8Q';

class StubPlatform {
  calls: string[] = [];
  constructor(private readonly answers: Record<string, string | null | Error>) {}
  async resolveHandle(handle: string): Promise<string | null> {
    this.calls.push(handle);
    const a = this.answers[handle];
    if (a instanceof Error) throw a;
    return a ?? null;
  }
}

describe('crawler: resolving followed handles', function () {
  let ts: TempStore;
  let timing: FakeTiming;
  beforeEach(async function () {
    ts = await tempStore();
    timing = new FakeTiming();
  });
  afterEach(async function () {
    await ts.cleanup();
  });

  const round = (platform: StubPlatform, handlesPerKeyHour?: number): Promise<number> =>
    resolveFollowedHandles({ store: ts.store, platform, profile: { requestWaitMs: [10_000, 20_000] }, timing, logger: silentLogger(), handlesPerKeyHour }, new AbortController().signal);

  it('turns each followed handle into its channel, for every key, in turns by key, paced by the profile’s wait', async function () {
    const other = 'b'.repeat(64);
    await ts.store.follow(KEY_ID, [{ handle: '@NewOne', title: 'New one' }, { handle: 'ghost' }], 'import', 10, timing.now());
    await ts.store.follow(other, [{ handle: 'newone' }], 'import', 10, timing.now());
    await ts.store.follow(KEY_ID, [{ handle: 'later' }], 'import', 10, timing.now());
    const platform = new StubPlatform({ newone: NEW, ghost: null, later: new PlatformError('not_found', 'HTTP 404') });
    // KEY_ID's ghost and the other key's newone take the first turn; KEY_ID's newone is cached by its turn.
    expect(await round(platform)).to.equal(4);
    expect(platform.calls).to.deep.equal(['ghost', 'newone', 'later']);
    expect(timing.sleeps, 'the profile’s request wait between two platform requests').to.deep.equal([15_000, 15_000]);
    expect((await ts.store.listSubscriptions(KEY_ID)).map((s) => s.channelId ?? `@${s.handle}`)).to.have.members([NEW, '@ghost', '@later']);
    expect((await ts.store.listSubscriptions(other)).map((s) => s.channelId)).to.deep.equal([NEW]);
    // The channel is new: it waits in both keys' queues until an allowance gives it to the crawler.
    expect(await ts.store.getChannel(NEW)).to.equal(null);
    expect(await ts.store.importQueues(other)).to.deep.equal([{ keyId: other, queued: 1, handles: 0 }]);
    expect(await releaseImports(ts.store, { perKeyHour: 10, wanted: 10 }, timing.now())).to.equal(2);
    expect(await ts.store.getChannel(NEW)).to.deep.include({ followed: true, awaitedBy: KEY_ID <= other ? KEY_ID : other });
    expect(await round(platform), 'unknown handles are not asked again soon').to.equal(0);
    timing.advance(24 * 3_600_000 + 1);
    expect(await round(platform), 'nor a day later').to.equal(0);
    timing.advance(UNKNOWN_SUBSCRIBED_HANDLE_RETRY_MS);
    expect(await round(platform)).to.equal(2);
  });

  it('gives each key at most its hourly share of platform requests, the others taking their turns', async function () {
    const junk = Array.from({ length: 30 }, (_, i) => ({ handle: `junk${String(i).padStart(2, '0')}` }));
    const other = 'b'.repeat(64);
    await ts.store.follow(KEY_ID, junk, 'import', 10, timing.now());
    await ts.store.follow(other, [{ handle: 'real1' }, { handle: 'real2' }], 'import', 10, timing.now());
    const platform = new StubPlatform({ real1: NEW, real2: CACHED });
    // Both keys' first turns come before either's second: the other key's two handles in the first round.
    expect(await round(platform, 4)).to.equal(HANDLES_PER_ROUND);
    expect(platform.calls).to.have.members(['junk00', 'junk01', 'junk02', 'real1', 'real2']);
    // KEY_ID's share of 4 an hour: one more, then nothing until the hour moves on.
    expect(await round(platform, 4)).to.equal(1);
    expect(await round(platform, 4)).to.equal(0);
    expect(platform.calls.filter((h) => h.startsWith('junk'))).to.have.length(4);
    timing.advance(3_600_000 + 60_000);
    expect(await round(platform, 4)).to.equal(4);
  });

  it('asks nothing of the platform for a handle already cached', async function () {
    await ts.store.follow(KEY_ID, [{ handle: 'someone' }], 'import', 10, timing.now());
    await ts.store.putHandle('someone', CACHED, timing.now());
    const platform = new StubPlatform({});
    expect(await round(platform)).to.equal(1);
    expect(platform.calls).to.deep.equal([]);
    expect((await ts.store.listSubscriptions(KEY_ID))[0]?.channelId).to.equal(CACHED);
  });

  it('ends the round at a block and leaves the rest for the next one', async function () {
    await ts.store.follow(KEY_ID, [{ handle: 'aaa' }, { handle: 'bbb' }], 'import', 10, timing.now());
    const platform = new StubPlatform({ aaa: new PlatformError('blocked', 'HTTP 429'), bbb: NEW });
    expect(await round(platform)).to.equal(0);
    expect(platform.calls).to.deep.equal(['aaa']);
    expect(await ts.store.subscribedHandlesToResolve(timing.now(), 10, 10, timing.now())).to.deep.equal([{ keyId: KEY_ID, handle: 'aaa' }, { keyId: KEY_ID, handle: 'bbb' }]);
  });
});
