// The admin channel endpoints over real HTTP on the real app: paging with an opaque cursor, one
// channel with its runs, refresh, remove and purge in batches, and the refusals (401, 403, 400, 404).

import { expect } from 'chai';
import type { ChannelView } from '../../api/admin/channel-view';
import { PURGE_BATCH } from '../../api/routes/admin-channels';
import { heartbeat } from '../store/contract-operators';
import { ADMIN_KEY, CHANNEL, KEY, OTHER_CHANNEL, startApi, T0, video, type TestApi } from './support';

const channelId = (n: number): string => `UC${String(n).padStart(22, '0')}`;
const MIN = 60_000;

describe('admin channel endpoints', () => {
  let api: TestApi;
  beforeEach(async () => {
    api = await startApi();
  });
  afterEach(async () => api.close());

  const admin = (path: string, init: RequestInit = {}) => api.get(path, { ...init, key: ADMIN_KEY });
  const body = async <T>(res: Response): Promise<T> => (await res.json()) as T;

  it('answers 401 without a key and 403 to a reader key, on every admin route', async () => {
    const routes: [string, string][] = [['GET', '/admin/crawlers'], ['GET', '/admin/channels'], ['GET', `/admin/channels/${CHANNEL}`], ['POST', `/admin/channels/${CHANNEL}/refresh`], ['DELETE', `/admin/channels/${CHANNEL}`], ['GET', '/status']];
    for (const [method, path] of routes) {
      const none = await api.get(path, { method, key: null });
      expect(none.status, `${method} ${path}`).to.equal(401);
      expect(none.headers.get('www-authenticate')).to.match(/^Basic /);
      const reader = await api.get(path, { method, key: KEY });
      expect(reader.status, `${method} ${path}`).to.equal(403);
      expect((await body<{ error: string }>(reader)).error).to.equal('Bu işlem için yönetici anahtarı gerekli');
    }
  });

  it('lists every channel in pages with an opaque cursor, with the fields an admin needs', async () => {
    for (let n = 1; n <= 5; n++) await api.store.registerChannel({ channelId: channelId(n), wanted: 10, handle: `h${n}`, title: `Title ${n}` }, T0);
    await api.store.upsertVideos([video(1, { channelId: channelId(2) }), video(2, { channelId: channelId(2), state: 'failed', nextAttemptAt: T0 })]);
    await api.store.askLanguages(channelId(2), ['de'], T0);
    await api.store.follow('some-key-id', [{ channelId: channelId(2) }], 'import', 10, T0);

    const first = await admin('/admin/channels?limit=2');
    expect(first.status).to.equal(200);
    expect(first.headers.get('content-type')).to.match(/^application\/json/);
    const page1 = await body<{ channels: ChannelView[]; next: string }>(first);
    expect(page1.channels.map((c) => c.id)).to.deep.equal([channelId(1), channelId(2)]);
    expect(page1.next).to.be.a('string').and.not.contain(channelId(2));
    const second = await body<{ channels: ChannelView[]; next: string | null }>(await admin(`/admin/channels?limit=2&after=${encodeURIComponent(page1.next)}`));
    expect(second.channels.map((c) => c.id)).to.deep.equal([channelId(3), channelId(4)]);
    const last = await body<{ channels: ChannelView[]; next: string | null }>(await admin(`/admin/channels?limit=2&after=${encodeURIComponent(second.next!)}`));
    expect(last).to.deep.equal({ channels: [last.channels[0]], next: null });

    const c2 = page1.channels[1]!;
    expect(c2).to.deep.include({ id: channelId(2), kind: 'channel', handle: 'h2', title: 'Title 2', followers: 1, wanted: 10, failures_in_a_row: 0, running: null, last_run: null, languages: ['de'] });
    expect(c2.videos).to.deep.equal({ ready: 1, failed: 1, no_transcript: 0, unavailable: 0 });
    expect(c2.coverage).to.deep.equal({ window: 2, shown: 1, percent: 50 });
    expect(c2.next_due).to.equal(T0.toISOString());
  });

  it('counts a playlist\'s videos from its listing, in its order, and shows a channel\'s push state without its secret', async () => {
    const PL = 'PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf';
    await api.store.registerChannel({ channelId: PL, kind: 'playlist', wanted: 2 }, T0);
    // The playlist lists videos of two channels: its counts are its own, its window its first `wanted`.
    await api.store.upsertVideos([video(1, { channelId: CHANNEL }), video(2, { channelId: OTHER_CHANNEL, state: 'failed', nextAttemptAt: T0 }), video(3, { channelId: CHANNEL })]);
    await api.store.putPlaylist({ playlistId: PL, title: 'Course', owner: 'Owner', ownerChannelId: CHANNEL, state: 'listed', videoIds: [video(2).videoId, video(1).videoId, video(3).videoId] }, T0);
    await api.store.registerChannel({ channelId: CHANNEL, wanted: 10 }, T0);
    const lease = new Date(T0.getTime() + 5 * 86_400_000);
    await api.store.putWebSub({ channelId: CHANNEL, topic: `https://www.youtube.com/xml/feeds/videos.xml?channel_id=${CHANNEL}`, token: 'tok-secret-path', secret: 'hub-secret-0123456789', status: 'verified', requestedAt: T0, verifiedAt: T0, leaseSeconds: 432_000, leaseExpiresAt: lease, nextActionAt: lease, failures: 0, lastError: null, updatedAt: T0 });

    const playlist = await body<ChannelView>(await admin(`/admin/channels/${PL}`));
    expect(playlist).to.deep.include({ kind: 'playlist', push: null });
    expect(playlist.videos).to.deep.equal({ ready: 2, failed: 1, no_transcript: 0, unavailable: 0 });
    expect(playlist.coverage).to.deep.equal({ window: 2, shown: 1, percent: 50 });

    const res = await admin(`/admin/channels/${CHANNEL}`);
    const text = await res.text();
    expect(text).to.not.contain('tok-secret-path').and.not.contain('hub-secret-0123456789');
    expect((JSON.parse(text) as ChannelView).push).to.deep.equal({ status: 'verified', requested_at: T0.toISOString(), verified_at: T0.toISOString(), lease_expires_at: lease.toISOString(), next_action_at: lease.toISOString(), failures: 0, error: null });
  });

  it('refuses a bad limit, a forged cursor and a repeated parameter with a Turkish 400', async () => {
    for (const q of ['limit=0', 'limit=501', 'limit=ten', 'limit=1.5']) {
      const res = await admin(`/admin/channels?${q}`);
      expect(res.status, q).to.equal(400);
      expect((await body<{ error: string }>(res)).error).to.equal('Geçersiz limit değeri');
    }
    for (const after of ['abc', `c1.${Buffer.from('not-a-channel').toString('base64url')}`, channelId(1)]) {
      const res = await admin(`/admin/channels?after=${encodeURIComponent(after)}`);
      expect(res.status, after).to.equal(400);
      expect((await body<{ error: string }>(res)).error).to.equal('Geçersiz after değeri');
    }
    expect((await admin('/admin/channels?limit=1&limit=2')).status).to.equal(400);
    expect((await admin('/admin/channels?limit=500')).status).to.equal(200);
  });

  it('shows one channel with its last runs, newest first; 404 for one not known, 400 for a malformed id', async () => {
    await api.store.registerChannel({ channelId: CHANNEL, wanted: 10, title: 'Tom & Jerry <b>' }, T0);
    const claimed = await api.store.claimDueChannel('host:crawler-0', MIN, T0);
    const ended = new Date(T0.getTime() + 5000);
    await api.store.releaseChannel(CHANNEL, 'host:crawler-0', { nextDueAt: new Date(T0.getTime() + 30 * MIN), outcome: 'blocked', error: 'HTTP 429', consecutiveFailures: 1 }, ended);
    await api.store.recordRun({ channelId: CHANNEL, owner: 'host:crawler-0', startedAt: T0, endedAt: ended, outcome: 'blocked', error: 'HTTP 429', stored: 3 });
    expect(claimed).not.to.equal(null);

    const res = await admin(`/admin/channels/${CHANNEL}`);
    expect(res.status).to.equal(200);
    const view = await body<ChannelView & { runs: unknown[] }>(res);
    expect(view).to.deep.include({ id: CHANNEL, title: 'Tom & Jerry <b>', failures_in_a_row: 1 });
    expect(view.last_run).to.deep.equal({ at: ended.toISOString(), outcome: 'blocked', error: 'HTTP 429', stored: 3 });
    expect(view.runs).to.deep.equal([{ started_at: T0.toISOString(), ended_at: ended.toISOString(), crawler: 'host:crawler-0', outcome: 'blocked', error: 'HTTP 429', stored: 3 }]);

    const unknown = await admin(`/admin/channels/${OTHER_CHANNEL}`);
    expect(unknown.status).to.equal(404);
    expect(await body(unknown)).to.deep.equal({ error: 'Kanal bulunamadı', message: 'Bu channel_id ile kayıtlı bir kanal yok', channel_id: OTHER_CHANNEL });
    expect((await admin('/admin/channels/not-a-channel')).status).to.equal(400);
  });

  it('makes a channel due now on refresh', async () => {
    await api.store.registerChannel({ channelId: CHANNEL, wanted: 10 }, T0);
    await api.store.claimDueChannel('w', MIN, T0);
    await api.store.releaseChannel(CHANNEL, 'w', { nextDueAt: new Date(T0.getTime() + 60 * MIN), outcome: 'ok', consecutiveFailures: 0 }, T0);
    api.now = new Date(T0.getTime() + 5 * MIN);
    const res = await admin(`/admin/channels/${CHANNEL}/refresh`, { method: 'POST' });
    expect(res.status).to.equal(200);
    expect(await body(res)).to.deep.equal({ id: CHANNEL, next_due: api.now.toISOString(), running: null });
    expect((await api.store.getChannel(CHANNEL))!.dueAt).to.deep.equal(api.now);
    expect((await admin(`/admin/channels/${OTHER_CHANNEL}/refresh`, { method: 'POST' })).status).to.equal(404);
    const wrong = await admin(`/admin/channels/${CHANNEL}/refresh`);
    expect(wrong.status, 'GET on a POST route').to.equal(405);
    // Every path also answers the CORS preflight, so Allow names OPTIONS too.
    expect(wrong.headers.get('allow')).to.equal('POST, OPTIONS');
    expect((await admin(`/admin/channels/${CHANNEL}`, { method: 'PUT' })).headers.get('allow')).to.equal('GET, HEAD, DELETE, OPTIONS');
  });

  it('lists the crawlers from their heartbeats, down after a minute of silence, stopped when they said so', async () => {
    api.now = new Date(T0.getTime() + 10 * MIN);
    await api.store.putHeartbeat(heartbeat('a:crawler', { state: 'cooling_down', until: new Date(T0.getTime() + 40 * MIN), at: new Date(api.now.getTime() - 10_000) }));
    await api.store.putHeartbeat(heartbeat('b:crawler', { at: new Date(api.now.getTime() - 2 * MIN) }));
    await api.store.putHeartbeat(heartbeat('c:crawler', { state: 'stopped', at: new Date(api.now.getTime() - 5 * MIN) }));
    const { crawlers } = await body<{ crawlers: { owner: string; state: string; until: string | null; down: boolean; requests_last_hour: number }[] }>(await admin('/admin/crawlers'));
    expect(crawlers.map((c) => [c.owner, c.state, c.down])).to.deep.equal([['a:crawler', 'cooling_down', false], ['b:crawler', 'fetching', true], ['c:crawler', 'stopped', false]]);
    expect(crawlers[0]).to.deep.include({ until: new Date(T0.getTime() + 40 * MIN).toISOString(), requests_last_hour: 42 });
  });

  it('removes a channel (its videos stay), and with purge=1 deletes its videos and transcripts in bounded batches', async () => {
    const n = 2 * PURGE_BATCH + 7;
    await api.store.registerChannel({ channelId: CHANNEL, wanted: 10 }, T0);
    await api.store.registerChannel({ channelId: OTHER_CHANNEL, wanted: 10 }, T0);
    const videos = Array.from({ length: n }, (_, i) => video(i + 1));
    await api.store.upsertVideos(videos, videos.map((v) => ({ videoId: v.videoId, language: 'en', kind: 'manual' as const, paragraphs: [{ startMs: 0, text: 'x' }], fetchedAt: T0 })));
    await api.store.upsertVideos([video(n + 1, { channelId: OTHER_CHANNEL })]);

    const removed = await admin(`/admin/channels/${OTHER_CHANNEL}`, { method: 'DELETE' });
    expect(await body(removed)).to.deep.equal({ id: OTHER_CHANNEL, removed: true, purged_videos: 0 });
    expect(await api.store.getChannel(OTHER_CHANNEL)).to.equal(null);
    expect(await api.store.storedVideoIds([video(n + 1).videoId])).to.have.length(1);

    const writes: number[] = [];
    const purge = api.store.purgeChannelVideos.bind(api.store);
    api.store.purgeChannelVideos = async (id, limit) => {
      const done = await purge(id, limit);
      writes.push(done);
      return done;
    };
    const purged = await admin(`/admin/channels/${CHANNEL}?purge=1`, { method: 'DELETE' });
    expect(await body(purged)).to.deep.equal({ id: CHANNEL, removed: true, purged_videos: n });
    expect(writes).to.deep.equal([PURGE_BATCH, PURGE_BATCH, 7]);
    expect(await api.store.storedVideoIds(videos.map((v) => v.videoId))).to.deep.equal([]);
    expect(await api.store.getTranscripts(videos.map((v) => v.videoId))).to.deep.equal([]);

    expect((await admin(`/admin/channels/${CHANNEL}`, { method: 'DELETE' })).status, 'gone').to.equal(404);
    expect((await admin(`/admin/channels/${CHANNEL}?purge=yes`, { method: 'DELETE' })).status).to.equal(400);
    expect(api.logs.join('\n')).not.to.contain(ADMIN_KEY);
  });
});
