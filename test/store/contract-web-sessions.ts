// The store contract's web app session cases (api/webapp/sessions.ts keeps its sessions here), run
// by contract.ts inside each backend's suite.

import { expect } from 'chai';
import type { Store, WebSessionRecord } from '../../shared/store/types';
import { at, MIN } from './contract-support';

const IDLE = 30 * MIN;

const session = (idHash: string, ms: number): WebSessionRecord => ({ idHash, keyId: 'key-a', csrf: `csrf-${idHash}`, createdAt: at(ms), lastSeenAt: at(ms) });

export function webSessionCases(current: () => Store): void {
  describe('web app sessions', function () {
    let store: Store;
    beforeEach(function () {
      store = current();
    });

    it('keeps a session by its id hash and gives it back with lastSeenAt moved to now', async function () {
      await store.putWebSession(session('h1', 0));
      expect(await store.touchWebSession('h1', IDLE, at(MIN))).to.deep.equal({ ...session('h1', 0), lastSeenAt: at(MIN) });
      expect(await store.touchWebSession('h2', IDLE, at(MIN))).to.equal(null);
    });

    it('never moves lastSeenAt back for a request older than the last one', async function () {
      await store.putWebSession(session('h1', 0));
      await store.touchWebSession('h1', IDLE, at(5 * MIN));
      expect((await store.touchWebSession('h1', IDLE, at(2 * MIN)))!.lastSeenAt).to.deep.equal(at(5 * MIN));
    });

    it('ends a session idle longer than the idle time, for good', async function () {
      await store.putWebSession(session('h1', 0));
      expect(await store.touchWebSession('h1', IDLE, at(IDLE))).to.not.equal(null);
      expect(await store.touchWebSession('h1', IDLE, at(2 * IDLE + 1))).to.equal(null);
      // Gone, not only hidden: a longer idle time asked later does not bring it back.
      expect(await store.touchWebSession('h1', 10 * IDLE, at(2 * IDLE + 2))).to.equal(null);
    });

    it('deletes one session and leaves the others', async function () {
      await store.putWebSession(session('h1', 0));
      await store.putWebSession(session('h2', 0));
      await store.deleteWebSession('h1');
      await store.deleteWebSession('h-none');
      expect(await store.touchWebSession('h1', IDLE, at(MIN))).to.equal(null);
      expect(await store.touchWebSession('h2', IDLE, at(MIN))).to.not.equal(null);
    });

    it('sweeps only the idle sessions', async function () {
      await store.putWebSession(session('old', 0));
      await store.putWebSession(session('new', IDLE));
      expect(await store.deleteIdleWebSessions(IDLE, at(IDLE + MIN))).to.equal(1);
      expect(await store.touchWebSession('old', 10 * IDLE, at(IDLE + MIN))).to.equal(null);
      expect(await store.touchWebSession('new', IDLE, at(IDLE + MIN))).to.not.equal(null);
    });
  });
}
