// Handle lookups by the API were unbounded: 60 unknown handles a minute from one key sent 60
// lookups to the platform, and while the platform answered 429 every request still sent one. Now a
// key gets at most 10 new handles a minute (429 with retry_after beyond), lookups count into the
// hourly budget the crawler paces itself by (through the store), and none is sent during the
// platform cool-down, whether the crawler started it or a refused lookup did. Over the real API on
// a socket, with the real SQLite store.

import { expect } from 'chai';
import { RequestBudget } from '../../crawler/request-budget';
import { sha256 } from '../../shared/config/security';
import { silentLogger } from '../../shared/logger';
import { PlatformError } from '../../shared/platform/types';
import { DEFAULT_KEYS, KEY, LIMITED_KEY, startApi, type TestApi } from '../api/support';
import { until } from '../support/poll';

const OTHER_KEY = 'test-key-other-unlimited-04';
const keys = { ...DEFAULT_KEYS, [OTHER_KEY]: { name: 'other', rate_limit: 1000, enabled: true } };

const feedOf = (api: TestApi, handle: string, key = KEY) => api.get(`/?channel=@${handle}`, { key });

describe('handle lookups by the API', () => {
  let api: TestApi;
  afterEach(() => api?.close());

  it('a burst of unknown handles from one key sends at most 10 lookups a minute; the rest get 429 with retry_after', async () => {
    api = await startApi({ keys });
    const answers = [];
    for (let i = 0; i < 15; i++) answers.push(await feedOf(api, `junkhandle${i}`));
    expect(answers.map((r) => r.status)).to.deep.equal([...Array(10).fill(400), ...Array(5).fill(429)]);
    const refused = (await answers[14]!.json()) as { error: string; retry_after: number };
    expect(refused.error).to.equal('Kanal adı sorgu limiti aşıldı');
    expect(refused.retry_after).to.equal(60);
    expect(answers[14]!.headers.get('retry-after')).to.equal('60');
    expect(api.platform.calls).to.have.length(10);
    // Another key is not held back by this one; a handle already answered costs no lookup.
    expect((await feedOf(api, 'otherhandle', OTHER_KEY)).status).to.equal(400);
    expect((await feedOf(api, 'junkhandle0')).status).to.equal(400);
    expect(api.platform.calls).to.have.length(11);
    // The next minute the key may look up again.
    api.now = new Date(api.now.getTime() + 60_000);
    expect((await feedOf(api, 'junkhandle15')).status).to.equal(400);
    expect(api.platform.calls).to.have.length(12);
  });

  it('during the crawler\'s cool-down (read from the store) no lookup is sent', async () => {
    api = await startApi({ keys });
    // The crawler's own budget object, sharing the store, meets "try again later".
    const budget = new RequestBudget({ perHour: 500, coolDownMs: [1_800_000, 1_800_000], timing: { now: () => api.now, random: () => 0, sleep: async () => undefined }, sent: () => 0, logger: silentLogger(), shared: api.store });
    budget.startCoolDown('session rate-limited (try again later)');
    await waitForCoolDown(api);
    for (let i = 0; i < 5; i++) {
      const res = await feedOf(api, `coolhandle${i}`);
      // The channel_id form's answer (issue 26): 404, the handle queued for the crawler.
      expect(res.status).to.equal(404);
      expect(((await res.json()) as { message: string }).message).to.match(/^Platform şu anda istekleri engelliyor, bu yüzden '@coolhandle\d' kanal adı çözümlenemedi/);
    }
    expect(api.platform.calls).to.have.length(0);
    api.now = new Date(api.now.getTime() + 1_800_001);
    expect((await feedOf(api, 'coolhandle0')).status).to.equal(400);
    expect(api.platform.calls).to.have.length(1);
  });

  it('a lookup the platform refuses as blocked starts the shared cool-down: the requests after it send nothing', async () => {
    api = await startApi({ keys });
    api.platform.failWith = new PlatformError('blocked', 'HTTP 429 (rate limited)');
    expect((await feedOf(api, 'blockedhandle1')).status).to.equal(404);
    for (let i = 2; i < 8; i++) expect((await feedOf(api, `blockedhandle${i}`, i % 2 ? KEY : OTHER_KEY)).status).to.equal(404);
    expect(api.platform.calls).to.have.length(1);
    expect(await api.store.platformCoolDown(api.now)).to.not.equal(null);
  });

  it('asking again for a handle no lookup could be sent for uses none of the key\'s lookups', async () => {
    // A reader polling its feed while the platform cannot be reached, or during the cool-down, is
    // answered the 404 each time (no lookup sent) and keeps its minute's lookups: those polls once
    // counted, so the 11th poll in a minute got 429, and so did the key's next real lookup from any
    // API process (the counter is the store's).
    api = await startApi({ keys });
    const usedThisMinute = async () => (await api.store.peekRateLimit(`handle-lookups:${sha256(KEY).toString('hex')}`, 10, api.now)).count;
    api.platform.failWith = new PlatformError('transient', 'connect ECONNREFUSED');
    const unreached = [];
    for (let i = 0; i < 12; i++) unreached.push((await feedOf(api, 'unreachedhandle')).status);
    expect(unreached).to.deep.equal(Array(12).fill(404));
    expect(api.platform.calls).to.have.length(1);
    expect(await usedThisMinute(), 'lookups counted').to.equal(1);

    api.now = new Date(api.now.getTime() + 60_000);
    api.platform.failWith = new PlatformError('blocked', 'HTTP 429 (rate limited)');
    const coolingDown = [];
    for (let i = 0; i < 12; i++) coolingDown.push((await feedOf(api, 'blockedhandle')).status);
    expect(coolingDown).to.deep.equal(Array(12).fill(404));
    expect(api.platform.calls).to.have.length(2);
    expect(await usedThisMinute(), 'lookups counted').to.equal(1);
  });

  it('lookups count into the hourly budget every process shares, and stop when it is spent', async () => {
    api = await startApi({ keys, handleLookups: { perKeyPerMinute: 10, perHour: 8, coolDownMs: 1_800_000 } });
    await api.store.addPlatformRequests('crawler', 5, api.now);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await feedOf(api, `budgethandle${i}`, i % 2 ? KEY : OTHER_KEY)).status);
    expect(statuses).to.deep.equal([400, 400, 400, 429, 429, 429]);
    expect(api.platform.calls).to.have.length(3);
    expect(await api.store.platformRequestsInHour(api.now, 'api')).to.equal(3);
    // A crawler's budget counts the API's lookups beside its own requests: with room for 3 an
    // hour and the API's 3 in the store, it holds its next request back.
    const ctl = new AbortController();
    const held = new RequestBudget({
      perHour: 3, coolDownMs: [1000, 1000], sent: () => 0, logger: silentLogger(), shared: api.store,
      timing: { now: () => api.now, random: () => 0, sleep: async () => void ctl.abort() },
    }).waitForRoom(ctl.signal).then(() => 'room', () => 'held back');
    expect(await held).to.equal('held back');
  });

  it('LIMITED_KEY still gets its ordinary request limit first', async () => {
    api = await startApi({ keys });
    expect((await feedOf(api, 'limitedhandle', LIMITED_KEY)).status).to.equal(400);
  });
});

async function waitForCoolDown(api: TestApi): Promise<void> {
  await until('the shared cool-down in the store', async () => (await api.store.platformCoolDown(api.now)) !== null);
}
