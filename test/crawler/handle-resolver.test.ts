// Followed handles from imports, resolved by the crawler (never while the import waited): paced
// like every platform request, cached handles free, "no such channel" asked again a day later, and
// a block ending the round with the rest left for later. A real SQLite store, a stub platform.

import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { resolveFollowedHandles, UNKNOWN_SUBSCRIBED_HANDLE_RETRY_MS } from '../../crawler/handle-resolver';
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

  const round = (platform: StubPlatform): Promise<number> =>
    resolveFollowedHandles({ store: ts.store, platform, profile: { requestWaitMs: [10_000, 20_000] }, timing, logger: silentLogger() }, new AbortController().signal);

  it('turns each followed handle into its channel, for every key, paced by the profile’s wait', async function () {
    await ts.store.follow(KEY_ID, [{ handle: '@NewOne', title: 'New one' }, { handle: 'ghost' }], 'import', 10, timing.now());
    await ts.store.follow('b'.repeat(64), [{ handle: 'newone' }], 'import', 10, timing.now());
    await ts.store.follow(KEY_ID, [{ handle: 'later' }], 'import', 10, timing.now());
    const platform = new StubPlatform({ newone: NEW, ghost: null, later: new PlatformError('not_found', 'HTTP 404') });
    expect(await round(platform)).to.equal(3);
    expect(platform.calls).to.deep.equal(['ghost', 'later', 'newone']);
    expect(timing.sleeps, 'the profile’s request wait between two platform requests').to.deep.equal([15_000, 15_000]);
    expect((await ts.store.listSubscriptions(KEY_ID)).map((s) => s.channelId ?? `@${s.handle}`)).to.have.members([NEW, '@ghost', '@later']);
    expect((await ts.store.listSubscriptions('b'.repeat(64))).map((s) => s.channelId)).to.deep.equal([NEW]);
    expect(await ts.store.getChannel(NEW)).to.deep.include({ followed: true, handle: 'newone' });
    expect(await round(platform), 'unknown handles wait a day').to.equal(0);
    timing.advance(UNKNOWN_SUBSCRIBED_HANDLE_RETRY_MS + 1);
    expect(await round(platform)).to.equal(2);
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
    expect(await ts.store.subscribedHandlesToResolve(timing.now(), 10)).to.deep.equal(['aaa', 'bbb']);
  });
});
