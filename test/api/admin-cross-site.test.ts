// Admin changes over real HTTP with the Basic credentials a browser keeps after opening /status
// (issue 27.4): a cross-site form post is refused with the catalogue's 403 and changes nothing, a
// same-origin or non-browser request works, a form body is 415, and a GET of the platform check (what
// an <img> sends) never asks for one. Two fresh checks asked for within a minute are one check.

import { expect } from 'chai';
import { startPlatformCheckWorker, type Worker } from '../../crawler/platform-check-worker';
import { realTiming } from '../../crawler/timing';
import { silentLogger } from '../../shared/logger';
import { createPlatformClient } from '../../shared/platform';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { platformConfig } from '../platform/support';
import { ADMIN_KEY, CHANNEL, startApi, T0, type TestApi } from './support';

const MIN = 60_000;
const basic = `Basic ${Buffer.from(`admin:${ADMIN_KEY}`).toString('base64')}`;

describe('admin changes refuse cross-site requests (issue 27.4)', function () {
  this.timeout(30_000);
  let api: TestApi;
  let fake: FakePlatform | undefined;
  let worker: Worker | undefined;
  beforeEach(async () => {
    api = await startApi();
    fake = undefined;
    worker = undefined;
  });
  afterEach(async () => {
    await worker?.stop();
    await fake?.close();
    await api.close();
  });

  const asBrowser = (path: string, method: string, headers: Record<string, string>): Promise<Response> =>
    api.get(path, { key: null, method, headers: { Authorization: basic, ...headers } });
  const dueLater = async (): Promise<Date> => {
    await api.store.registerChannel({ channelId: CHANNEL, wanted: 10 }, T0);
    await api.store.claimDueChannel('w', MIN, T0);
    const later = new Date(T0.getTime() + 60 * MIN);
    await api.store.releaseChannel(CHANNEL, 'w', { nextDueAt: later, outcome: 'ok', consecutiveFailures: 0 }, T0);
    api.now = new Date(T0.getTime() + 5 * MIN);
    return later;
  };

  it('a cross-site form post with valid Basic credentials is 403 and changes nothing', async () => {
    const later = await dueLater();
    const refresh = `/admin/channels/${CHANNEL}/refresh`;
    const forms: Record<string, string>[] = [
      { Origin: 'https://evil.example', 'Content-Type': 'text/plain', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'https://evil.example', 'Content-Type': 'text/plain' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'null' },
    ];
    for (const headers of forms) {
      for (const [method, path] of [['POST', refresh], ['DELETE', `/admin/channels/${CHANNEL}`], ['POST', '/admin/platform-check?wait=0']] as const) {
        const res = await asBrowser(path, method, headers);
        expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).to.equal(403);
        expect(await res.json()).to.deep.include({ error: 'Başka bir siteden gelen yönetici isteği reddedildi' });
      }
    }
    const channel = (await api.store.getChannel(CHANNEL))!;
    expect(channel.dueAt, 'not made due').to.deep.equal(later);
    expect(await api.store.getPlatformCheck(), 'no check asked for').to.equal(null);
  });

  it('same-origin and non-browser requests work; a form body is 415', async () => {
    await dueLater();
    const refresh = `/admin/channels/${CHANNEL}/refresh`;
    expect((await asBrowser(refresh, 'POST', { Origin: api.base, 'Content-Type': 'text/plain' })).status, 'form body').to.equal(415);
    expect((await asBrowser(refresh, 'POST', { Origin: api.base, 'Content-Type': 'application/x-www-form-urlencoded' })).status).to.equal(415);
    expect((await api.store.getChannel(CHANNEL))!.dueAt).to.not.deep.equal(api.now);
    const same = await asBrowser(refresh, 'POST', { Origin: api.base, 'Sec-Fetch-Site': 'same-origin' });
    expect(same.status).to.equal(200);
    expect((await api.store.getChannel(CHANNEL))!.dueAt).to.deep.equal(api.now);
    expect((await asBrowser(refresh, 'POST', {})).status, 'curl: no Origin').to.equal(200);
    expect((await asBrowser(refresh, 'POST', { 'Content-Type': 'application/json' })).status).to.equal(200);
  });

  it('a GET of the platform check (an <img>) never asks for one, fresh=1 or not', async () => {
    for (const path of ['/admin/platform-check', '/admin/platform-check?fresh=1', '/admin/platform-check?fresh=true&wait=0']) {
      const res = await asBrowser(path, 'GET', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Dest': 'image' });
      expect(res.status, path).to.equal(200);
      expect(await res.json()).to.include({ status: 'none' });
    }
    expect(await api.store.getPlatformCheck(), 'no check asked for').to.equal(null);
  });

  it('two POSTs within a minute are one check; the second answers the report and when the next may run', async () => {
    fake = await startFakePlatform();
    const videoId = fake.addChannel(makeChannel({ handle: 'onceaminute', count: 1, seed: 5, captionsMix: { manual: 1 } })).videos[0]!.videoId;
    const platform = createPlatformClient(platformConfig(fake.url), silentLogger());
    let runs = 0;
    const check = async () => {
      runs += 1;
      return platform.checkPlatform(videoId);
    };
    worker = startPlatformCheckWorker({ store: api.store, check, owner: 'crawler-test', pollMs: 20, timing: realTiming, logger: silentLogger() });
    api.now = new Date();
    const first = await api.get('/admin/platform-check', { key: ADMIN_KEY, method: 'POST' });
    expect(first.status).to.equal(200);
    const firstBody = (await first.json()) as { status: string; next_check_at: string };
    expect(firstBody.status).to.equal('done');
    expect(firstBody.next_check_at).to.equal(new Date(api.now.getTime() + MIN).toISOString());
    const players = fake.counters.player;
    api.now = new Date(api.now.getTime() + 30_000);
    const second = await api.get('/admin/platform-check', { key: ADMIN_KEY, method: 'POST' });
    expect(second.status).to.equal(200);
    expect(((await second.json()) as { next_check_at: string }).next_check_at).to.equal(firstBody.next_check_at);
    expect(runs, 'one check').to.equal(1);
    expect(fake.counters.player).to.equal(players);
  });
});
