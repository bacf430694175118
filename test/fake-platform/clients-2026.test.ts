// The platform as the maintained clients met it in August and September 2026, over real HTTP:
// made-for-kids videos refused by VISIONOS only; the TV client without a guest session (no
// visitorData) answering without caption tracks; and the timed-text stall switch (a refused
// timed-text request held, then an empty 200).

import { expect } from 'chai';
import { makeChannel, startFakePlatform, type FakePlatform } from './index';
import { ANDROID_CONTEXT, at, innertube, str, VISIONOS_CONTEXT, WEB_CONTEXT } from './test-support';

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

  it('a made-for-kids video is unplayable on VISIONOS only; ANDROID, the embedded player and the TV app play it', async () => {
    const refused = (await player(VISIONOS_CONTEXT, kids)).json;
    expect(at(refused, 'playabilityStatus.status')).to.equal('UNPLAYABLE');
    expect(tracks(refused)).to.equal(undefined);
    const tv = { client: { ...TV_CONTEXT.client, visitorData: 'Cgt2aXNpdG9yLWRhdGE%3D' } };
    for (const context of [ANDROID_CONTEXT, EMBEDDED_CONTEXT, tv]) {
      const ok = (await player(context, kids)).json;
      expect(at(ok, 'playabilityStatus.status'), JSON.stringify(context)).to.equal('OK');
      expect(tracks(ok), JSON.stringify(context)).to.have.length(1);
    }
    expect(at((await player(VISIONOS_CONTEXT, grownUps)).json, 'playabilityStatus.status')).to.equal('OK');
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
