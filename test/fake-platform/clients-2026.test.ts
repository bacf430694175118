// The platform as the maintained clients met it in August and September 2026, over real HTTP:
// made-for-kids videos refused by VISIONOS only; retired client versions; the TV client's reload
// answer and, without a guest session (no visitorData), its answers without caption tracks; the age
// check's spellings; the embed page's flags and non-embeddable videos; and the timed-text stall
// switch (a refused timed-text request held, then an empty 200).

import { expect } from 'chai';
import { makeChannel, startFakePlatform, type FakePlatform } from './index';
import { AGE_SPELLINGS } from './player-refusals';
import { ANDROID_CONTEXT, at, innertube, postJson, str, VISIONOS_CONTEXT, WEB_CONTEXT } from './test-support';

const EMBEDDED_CONTEXT = { client: { clientName: 'WEB_EMBEDDED_PLAYER', clientVersion: '2.20260708.00.00' }, thirdParty: { embedUrl: 'https://www.reddit.com/' } };
const TV_CONTEXT = { client: { clientName: 'TVHTML5', clientVersion: '7.20260707.07.00' } };

describe('fake platform: the 2026 client behaviour', () => {
  let fake: FakePlatform;
  const channel = makeChannel({ handle: 'clients26', count: 3, seed: 26, captionsMix: { manual: 1 } });
  channel.videos[0] = { ...channel.videos[0]!, madeForKids: true };
  const kids = channel.videos[0]!.videoId;
  const grownUps = channel.videos[1]!.videoId;

  before(async () => {
    fake = await startFakePlatform({ channels: [channel] });
  });
  afterEach(() => fake.clearScenarios());
  after(() => fake.close());

  const player = (context: unknown, videoId: string) => innertube(fake.url, 'player', { context, videoId });
  const tracks = (json: unknown) => at(json, 'captions.playerCaptionsTracklistRenderer.captionTracks') as unknown[] | undefined;

  it('a made-for-kids video is refused by VISIONOS only (ERROR, or UNPLAYABLE by the switch, with the made-for-kids reason); ANDROID, the embedded player and the TV app play it', async () => {
    const refused = (await player(VISIONOS_CONTEXT, kids)).json;
    expect(at(refused, 'playabilityStatus.status')).to.equal('ERROR');
    expect(at(refused, 'playabilityStatus.reason')).to.match(/made for kids/i);
    expect(tracks(refused)).to.equal(undefined);
    fake.scenario.kidsRefusal('UNPLAYABLE');
    expect(at((await player(VISIONOS_CONTEXT, kids)).json, 'playabilityStatus.status')).to.equal('UNPLAYABLE');
    const tv = { client: { ...TV_CONTEXT.client, visitorData: 'Cgt2aXNpdG9yLWRhdGE%3D' } };
    for (const context of [ANDROID_CONTEXT, EMBEDDED_CONTEXT, tv]) {
      const ok = (await player(context, kids)).json;
      expect(at(ok, 'playabilityStatus.status'), JSON.stringify(context)).to.equal('OK');
      expect(tracks(ok), JSON.stringify(context)).to.have.length(1);
    }
    expect(at((await player(VISIONOS_CONTEXT, grownUps)).json, 'playabilityStatus.status')).to.equal('OK');
  });

  it('retired versions answer HTTP 400 FAILED_PRECONDITION (ANDROID 19.44.38, VISIONOS 0.1; a stale WEB version only when both client headers name it); retireClient adds any', async () => {
    const ask = async (client: Record<string, unknown>, headers: Record<string, string> = {}) => {
      const res = await postJson(fake.url, 'player', { context: { client }, videoId: grownUps }, headers);
      return { status: res.status, body: await res.text() };
    };
    for (const client of [{ clientName: 'ANDROID', clientVersion: '19.44.38' }, { clientName: 'VISIONOS', clientVersion: '0.1' }]) {
      const r = await ask(client);
      expect(r.status, client.clientVersion).to.equal(400);
      expect(JSON.parse(r.body)).to.deep.include({ error: { code: 400, message: 'Precondition check failed.', errors: [{ message: 'Precondition check failed.', domain: 'global', reason: 'failedPrecondition' }], status: 'FAILED_PRECONDITION' } });
    }
    expect((await ask({ clientName: 'ANDROID', clientVersion: '21.02.35' })).status).to.equal(200);
    const staleWeb = { clientName: 'WEB', clientVersion: '2.20240101.00.00' };
    expect((await ask(staleWeb)).status).to.equal(200);
    expect((await ask(staleWeb, { 'x-youtube-client-name': '1', 'x-youtube-client-version': staleWeb.clientVersion })).status).to.equal(400);
    fake.scenario.retireClient('VISIONOS', '1.02');
    expect((await ask(VISIONOS_CONTEXT.client)).status).to.equal(400);
    fake.scenario.retireClient('VISIONOS', null);
    expect((await ask(VISIONOS_CONTEXT.client)).status).to.equal(200);
  });

  it('the TV client\'s "The page needs to be reloaded." (clientTrouble reload), for both TV records', async () => {
    fake.scenario.clientTrouble('TVHTML5', 'reload');
    for (const version of ['7.20260707.07.00', '5.20260707']) {
      const j = (await player({ client: { clientName: 'TVHTML5', clientVersion: version } }, grownUps)).json;
      expect([at(j, 'playabilityStatus.status'), at(j, 'playabilityStatus.reason')]).to.deep.equal(['UNPLAYABLE', 'The page needs to be reloaded.']);
    }
    expect(at((await player(VISIONOS_CONTEXT, grownUps)).json, 'playabilityStatus.status')).to.equal('OK');
  });

  it('the age check in each spelling the maintained clients read', async () => {
    const spelled = makeChannel({ handle: 'agespell', count: AGE_SPELLINGS.length, seed: 27, captionsMix: { manual: 1 } });
    fake.addChannel({ ...spelled, videos: spelled.videos.map((v, i) => ({ ...v, captions: 'age_restricted' as const, ageCheck: AGE_SPELLINGS[i]! })) });
    const seen = [];
    for (const v of spelled.videos) {
      const ps = at((await player(VISIONOS_CONTEXT, v.videoId)).json, 'playabilityStatus') as Record<string, unknown>;
      seen.push([ps.status, ps.reason ?? null]);
    }
    expect(seen).to.deep.equal([
      ['LOGIN_REQUIRED', 'This video may be inappropriate for some users.'],
      ['AGE_VERIFICATION_REQUIRED', 'Sign in to view this video'],
      ['AGE_CHECK_REQUIRED', null],
      ['LOGIN_REQUIRED', 'Please confirm your age.'],
      ['UNPLAYABLE', 'This video is age-restricted and only available on YouTube.'],
    ]);
  });

  it('the embed page carries encryptedHostFlags; with strict identity the embedded player plays only with flags its page gave for that video; a video kept off other sites is refused to it', async () => {
    const page = await (await fetch(`${fake.url}/embed/${grownUps}?html5=1`)).text();
    const flags = /"encryptedHostFlags":"([^"]+)"/.exec(page)?.[1];
    expect(flags).to.be.a('string');
    expect(page).to.include('WEB_PLAYER_CONTEXT_CONFIG_ID_EMBEDDED_PLAYER');
    fake.scenario.strictIdentity(true);
    const embedded = (videoId: string, f?: string) =>
      innertube(fake.url, 'player', { context: EMBEDDED_CONTEXT, videoId, ...(f ? { playbackContext: { contentPlaybackContext: { encryptedHostFlags: f } } } : {}) });
    expect(at((await embedded(grownUps, flags)).json, 'playabilityStatus.status')).to.equal('OK');
    expect(at((await embedded(grownUps)).json, 'playabilityStatus.status')).to.equal('LOGIN_REQUIRED');
    expect(at((await embedded(kids, flags)).json, 'playabilityStatus.status'), 'flags of another video').to.equal('LOGIN_REQUIRED');
    fake.scenario.strictIdentity(false);
    const made = makeChannel({ handle: 'offsite', count: 1, seed: 28, captionsMix: { manual: 1 } });
    const offSite = fake.addChannel({ ...made, videos: made.videos.map((v) => ({ ...v, embeddable: false })) });
    const refused = (await embedded(offSite.videos[0]!.videoId)).json;
    expect([at(refused, 'playabilityStatus.status'), at(refused, 'playabilityStatus.reason')]).to.deep.equal(['UNPLAYABLE', 'Playback on other websites has been disabled by the video owner.']);
    expect(fake.playerCalls.at(-1)).to.deep.include({ client: 'WEB_EMBEDDED_PLAYER', videoId: offSite.videos[0]!.videoId, status: 200, playability: 'UNPLAYABLE', encryptedHostFlags: null });
  });

  it('the TV app without a guest session answers OK with no caption tracks; with a visitorData it lists them', async () => {
    const bare = (await player(TV_CONTEXT, grownUps)).json;
    expect(at(bare, 'playabilityStatus.status')).to.equal('OK');
    expect(at(bare, 'captions')).to.equal(undefined);
    const guest = (await player({ client: { ...TV_CONTEXT.client, visitorData: 'Cgt2aXNpdG9yLWRhdGE%3D' } }, grownUps)).json;
    expect(tracks(guest)).to.have.length(1);
  });

  it('timedTextStall: a token-bound timed-text request is held, then answered with an empty 200; a plain one is not, unless the switch says all', async () => {
    const tokenBound = str(at((await player(WEB_CONTEXT, grownUps)).json, 'captions.playerCaptionsTracklistRenderer.captionTracks[0].baseUrl'));
    const plain = str(at((await player(ANDROID_CONTEXT, grownUps)).json, 'captions.playerCaptionsTracklistRenderer.captionTracks[0].baseUrl')).replace(/&fmt=[^&]*/, '');
    expect(new URL(tokenBound).searchParams.get('exp')).to.equal('xpe');
    expect(new URL(plain).searchParams.get('exp')).to.equal(null);
    const local = (u: string) => `${fake.url}${new URL(u).pathname}${new URL(u).search}`;
    const pending = async (url: string, ms: number): Promise<boolean> =>
      fetch(url, { signal: AbortSignal.timeout(ms) }).then(() => false, (err: Error) => err.name === 'TimeoutError');

    fake.scenario.timedTextStall(60_000);
    expect(await pending(local(tokenBound), 200), 'a token-bound request is held').to.equal(true);
    expect(await (await fetch(local(plain))).text()).to.include('<transcript>');

    fake.scenario.timedTextStall(50);
    const late = await fetch(local(tokenBound));
    expect([late.status, await late.text()]).to.deep.equal([200, '']);

    fake.scenario.timedTextStall(60_000, 'all');
    expect(await pending(local(plain), 200), 'with "all", a plain request is held too').to.equal(true);
    fake.scenario.timedTextStall(null);
    expect(await (await fetch(local(plain))).text()).to.include('<transcript>');
  });
});
