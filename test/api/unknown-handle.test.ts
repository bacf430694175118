// A handle the platform does not know: the spec's 400 "Channel ID bulunamadı", and one platform
// request per UNKNOWN_HANDLE_TTL_MS, not one per feed request, so junk handles cannot make the API
// hammer the platform. A block is no answer about the handle.

import { expect } from 'chai';
import { PlatformError } from '../../shared/platform/types';
import { UNKNOWN_HANDLE_TTL_MS } from '../../shared/store/rules';
import { startApi, T0, type TestApi } from './support';
import { DEFAULT_HANDLE_LOOKUP_LIMITS } from '../../api/resolve-channel';

describe('unknown handles', () => {
  let api: TestApi;
  beforeEach(async () => {
    api = await startApi({ known: { realone: 'UCuAXFkgsw1L7xaCfnd5JJOw' } });
  });
  afterEach(async () => api.close());

  it('asks the platform once per TTL about a handle it does not know, answering 400 every time', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await api.get('/?channel=@Ghost');
      expect(res.status).to.equal(400);
      // The spec's error and usage, and a message naming the handle, asked or remembered alike.
      const body = (await res.json()) as { error: string; message: string; usage: object };
      expect(body.error).to.equal('Channel ID bulunamadı');
      expect(body.message).to.equal("Platformda '@Ghost' adlı bir kanal yok; adı kontrol edin ya da channel_id kullanın");
      expect(Object.keys(body.usage)).to.deep.equal(['channel_id', 'channel', 'channel_url', 'format', 'max_items']);
    }
    expect(api.platform.calls).to.deep.equal(['Ghost']);
    // Remembered as unknown, never as a channel id.
    expect(await api.store.getHandle('ghost')).to.equal(null);
    expect(await api.store.isUnknownHandle('ghost', api.now)).to.equal(true);
    api.now = new Date(T0.getTime() + UNKNOWN_HANDLE_TTL_MS - 1);
    expect((await api.get('/?channel=@ghost')).status).to.equal(400);
    expect(api.platform.calls, 'still believed just before the TTL ends').to.have.length(1);
    api.now = new Date(T0.getTime() + UNKNOWN_HANDLE_TTL_MS);
    expect((await api.get('/?channel=@ghost')).status).to.equal(400);
    expect(api.platform.calls, 'asked again once the TTL is over').to.deep.equal(['Ghost', 'ghost']);
  });

  it('caches a platform "not_found" the same way; a block is the 404 "no processed video yet", never cached', async () => {
    api.platform.failWith = new PlatformError('not_found', 'no such handle');
    const gone = await api.get('/?channel_url=https%3A%2F%2Fyoutube.com%2F%40gone');
    expect(gone.status).to.equal(400);
    expect(((await gone.json()) as { message: string }).message).to.contain("'@gone'");
    expect((await api.get('/?channel=@gone')).status).to.equal(400);
    expect(api.platform.calls).to.deep.equal(['gone']);

    api.platform.failWith = new PlatformError('blocked', 'captcha page');
    const blocked = await api.get('/?channel=@maybe');
    expect(blocked.status).to.equal(404);
    const retryAt = new Date(api.now.getTime() + DEFAULT_HANDLE_LOOKUP_LIMITS.coolDownMs).toISOString().slice(0, 16).replace('T', ' ');
    expect(await blocked.json()).to.deep.equal({
      error: 'Henüz işlenmiş video yok',
      message: `Platform şu anda istekleri engelliyor, bu yüzden '@maybe' kanal adı çözümlenemedi; kanal tarayıcının sırasına alındı ve adı ${retryAt} UTC'de yeniden sorulacak, lütfen sonra tekrar deneyin`,
      channel_id: '',
    });
    api.platform.failWith = null;
    // A block starts the platform cool-down for every process: nothing is asked until it is over.
    expect((await api.get('/?channel=@maybe')).status, 'no lookup during the cool-down').to.equal(404);
    api.now = new Date(api.now.getTime() + DEFAULT_HANDLE_LOOKUP_LIMITS.coolDownMs);
    expect((await api.get('/?channel=@maybe')).status, 'a block is not an answer about the handle').to.equal(400);
    expect(api.platform.calls).to.deep.equal(['gone', 'maybe', 'maybe']);

    expect((await api.get('/?channel=@realone')).status, 'known handle: nothing stored yet').to.equal(404);
    expect(await api.store.isUnknownHandle('realone', api.now)).to.equal(false);
  });
});
