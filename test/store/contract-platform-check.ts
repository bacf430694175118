// The store contract's platform-check cases (POST /admin/platform-check asks, a crawler answers), run
// by contract.ts inside each backend's suite.

import { expect } from 'chai';
import type { Store } from '../../shared/store/types';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const at = (ms: number): Date => new Date(T0 + ms);
const MIN = 60_000;

export function platformCheckCases(current: () => Store): void {
  describe('platform check requests', function () {
    let store: Store;
    beforeEach(function () {
      store = current();
    });

    it('nothing asked: no state, nothing to claim', async function () {
      expect(await store.getPlatformCheck()).to.equal(null);
      expect(await store.claimPlatformCheck('crawler-1', at(0), 5 * MIN)).to.equal(false);
    });

    it('a request is claimed by one crawler only, answered, and not pending after', async function () {
      const asked = await store.requestPlatformCheck(at(0));
      expect(asked).to.deep.include({ requestedAt: at(0), claimedBy: null, finishedAt: null, report: null });
      expect(await store.claimPlatformCheck('crawler-1', at(1000), 5 * MIN)).to.equal(true);
      expect(await store.claimPlatformCheck('crawler-2', at(2000), 5 * MIN)).to.equal(false);
      expect((await store.getPlatformCheck())!.claimedBy).to.equal('crawler-1');
      // Only the crawler that took it answers it.
      await store.finishPlatformCheck('crawler-2', '{"ok":false}', at(3000));
      expect((await store.getPlatformCheck())!.finishedAt).to.equal(null);
      await store.finishPlatformCheck('crawler-1', '{"ok":true}', at(4000));
      expect(await store.getPlatformCheck()).to.deep.equal({ requestedAt: at(0), claimedBy: null, claimedAt: null, finishedAt: at(4000), report: '{"ok":true}' });
      expect(await store.claimPlatformCheck('crawler-2', at(5000), 5 * MIN)).to.equal(false);
    });

    it('asking again while a request is pending keeps it (and its claim); after the answer it starts a new one and keeps the last report', async function () {
      await store.requestPlatformCheck(at(0));
      await store.claimPlatformCheck('crawler-1', at(1000), 5 * MIN);
      const again = await store.requestPlatformCheck(at(2000));
      expect(again).to.deep.include({ requestedAt: at(0), claimedBy: 'crawler-1' });
      await store.finishPlatformCheck('crawler-1', '{"n":1}', at(3000));
      const next = await store.requestPlatformCheck(at(4000));
      expect(next).to.deep.include({ requestedAt: at(4000), claimedBy: null, finishedAt: at(3000), report: '{"n":1}' });
      expect(await store.claimPlatformCheck('crawler-2', at(5000), 5 * MIN)).to.equal(true);
    });

    it('a claim left by a crawler that died is taken over after staleMs', async function () {
      await store.requestPlatformCheck(at(0));
      await store.claimPlatformCheck('crawler-1', at(0), 5 * MIN);
      expect(await store.claimPlatformCheck('crawler-2', at(4 * MIN), 5 * MIN)).to.equal(false);
      expect(await store.claimPlatformCheck('crawler-2', at(6 * MIN), 5 * MIN)).to.equal(true);
      expect((await store.getPlatformCheck())!.claimedBy).to.equal('crawler-2');
    });
  });
}
