// The search page remembers a page's hits under its scope's version token, as the search feed
// remembers its answer: a warm page searches nothing, and a video stored in the scope or a follow
// (subscriptions=1) makes the next page search again. Real API on port 0, real SQLite.

import { expect } from 'chai';
import { sha256 } from '../../shared/config/security';
import type { Store } from '../../shared/store/types';
import { transcriptRecord } from '../support/factories';
import { sessionOf, signIn } from './webapp-support';
import { CHANNEL, KEY, OTHER_CHANNEL, startApi, T0, video, type TestApi } from './support';

describe('web app search page remembered under the scope token', function () {
  let api: TestApi;
  let session: string;
  let searches = 0;
  beforeEach(async () => {
    searches = 0;
    const count = (store: Store): Store => new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'searchVideos') searches++;
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    api = await startApi({ appStore: count });
    session = sessionOf(await signIn(api, KEY));
  });
  afterEach(async () => api.close());

  const store = async (n: number, channelId = CHANNEL): Promise<void> => {
    const v = video(n, { channelId, title: `Talk ${n}`, language: 'en' });
    await api.store.upsertVideos([v], [transcriptRecord(v, [{ startMs: 0, text: 'Hello.' }, { startMs: 65_000, text: 'a remembered word here' }])]);
  };
  const page = async (query: string): Promise<string> => {
    const res = await api.get(`/app/search?${query}`, { key: null, headers: { Cookie: session } });
    expect(res.status).to.equal(200);
    return res.text();
  };

  it('answers a warm page without searching, and searches again once a matching video is stored', async () => {
    await store(1);
    expect(await page('q=remembered')).to.contain('Talk 1');
    const before = searches;
    expect(await page('q=remembered')).to.contain('Talk 1');
    expect(searches).to.equal(before);
    await store(2);
    const again = await page('q=remembered');
    expect(again).to.contain('Talk 2').and.contain('Talk 1');
    expect(searches).to.be.above(before);
  });

  it('searches subscriptions=1 again after a follow', async () => {
    await store(1);
    await store(2, OTHER_CHANNEL);
    const keyId = api.ring.keys.find((k) => k.digest.toString('hex') === sha256(KEY).toString('hex'))!.keyId;
    await api.store.follow(keyId, [{ channelId: CHANNEL }], 'feed', 10, T0);
    const first = await page('q=remembered&subscriptions=1');
    expect(first).to.contain('Talk 1').and.not.contain('Talk 2');
    await api.store.follow(keyId, [{ channelId: OTHER_CHANNEL }], 'feed', 10, T0);
    expect(await page('q=remembered&subscriptions=1')).to.contain('Talk 1').and.contain('Talk 2');
  });
});
