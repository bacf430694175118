// The embed page's player and its token, and the playersRefused switch, over real HTTP with a plain
// client (no JavaScript): the page hands out a caption URL only a token makes usable, and only the
// page's own script computes that token. The real browser's side is in
// test/platform/browser-fallback.test.ts.

import { expect } from 'chai';
import { makeChannel, solveChallenge, startFakePlatform, type FakePlatform } from './index';
import { ANDROID_CONTEXT, at, embeddedJson, innertube } from './test-support';

interface EmbedConfig {
  videoId: string;
  tracks: { lang: string; asr: boolean; url: string }[];
  nonce: string;
}

describe('fake platform: the embed page player and playersRefused', () => {
  let fake: FakePlatform;
  const channel = makeChannel({ handle: 'embedded', count: 3, captionsMix: { both: 1 } });
  const videoId = channel.videos[0]!.videoId;

  before(async () => {
    fake = await startFakePlatform({ channels: [channel] });
  });
  afterEach(() => fake.clearScenarios());
  after(() => fake.close());

  const embed = async (id = videoId): Promise<{ html: string; config: EmbedConfig | null }> => {
    const html = await (await fetch(`${fake.url}/embed/${id}?cc_load_policy=1&cc_lang_pref=en`)).text();
    const m = /var cfg = (\{.*?\});\n/.exec(html);
    return { html, config: m ? (JSON.parse(m[1]!) as EmbedConfig) : null };
  };
  const timedText = async (url: string): Promise<string> => (await fetch(url)).text();

  it('lists token-bound (exp=xpe) WEB tracks, manual first, and its script asks for captions only with cc_load_policy=1', async () => {
    const { html, config } = await embed();
    expect(config!.videoId).to.equal(videoId);
    expect(config!.tracks.map((t) => [t.lang, t.asr])).to.deep.equal([['en', false], ['en', true]]);
    for (const t of config!.tracks) expect(new URL(t.url).searchParams.get('exp')).to.equal('xpe');
    expect(html).to.include('q.get("cc_load_policy") !== "1"');
    expect(html).to.include('&fmt=json3&c=WEB_EMBEDDED_PLAYER&pot=');
  });

  it('the caption URL is refused without a token, a made-up one, or a token for a nonce it never issued', async () => {
    const { config } = await embed();
    const url = config!.tracks[0]!.url;
    expect(await timedText(`${url}&fmt=json3`)).to.equal('');
    expect(await timedText(`${url}&fmt=json3&pot=${config!.nonce}.deadbeef`)).to.equal('');
    expect(await timedText(`${url}&fmt=json3&pot=0011223344556677.${solveChallenge('0011223344556677')}`)).to.equal('');
  });

  it('with the token the page script computes, the caption URL serves the transcript', async () => {
    const { config } = await embed();
    const body = await timedText(`${config!.tracks[0]!.url}&fmt=json3&pot=${config!.nonce}.${solveChallenge(config!.nonce)}`);
    expect((JSON.parse(body) as { events: unknown[] }).events.length).to.be.greaterThan(0);
  });

  it('speaks the IFrame API (the listener script and its seek display) only when the embedding page asks with enablejsapi=1', async () => {
    const plain = await (await fetch(`${fake.url}/embed/${videoId}`)).text();
    expect(plain).to.not.include('window.commands').and.not.include('id="state"');
    const widget = await (await fetch(`${fake.url}/embed/${videoId}?enablejsapi=1`)).text();
    expect(widget).to.include('<p id="state">not seeked</p>').and.include("m.event === 'listening'");
    // The duration it delivers is the player answer's lengthSeconds.
    const { json } = await innertube(fake.url, 'player', { context: ANDROID_CONTEXT, videoId });
    expect(widget).to.include(`duration: ${String(at(json, 'videoDetails.lengthSeconds'))} }`);
  });

  it('an unknown video gets a "Video unavailable" page without a player script', async () => {
    const { html, config } = await embed('AAAAAAAAAAA');
    expect(config).to.equal(null);
    expect(html).to.include('Video unavailable');
  });

  it('playersRefused(on): every player answer and the watch page\'s player are the bot check, the embed page still works', async () => {
    fake.scenario.playersRefused(true);
    for (let i = 0; i < 3; i += 1) {
      const { json } = await innertube(fake.url, 'player', { context: ANDROID_CONTEXT, videoId });
      expect(at(json, 'playabilityStatus.status')).to.equal('LOGIN_REQUIRED');
    }
    const watch = await (await fetch(`${fake.url}/watch?v=${videoId}`)).text();
    expect(watch).to.not.match(/g-recaptcha|das_captcha/);
    expect(at(embeddedJson(watch, 'ytInitialPlayerResponse'), 'playabilityStatus.reason')).to.equal('Sign in to confirm you\u2019re not a bot');
    expect((await embed()).config).to.not.equal(null);
    fake.scenario.playersRefused(false);
    const { json } = await innertube(fake.url, 'player', { context: ANDROID_CONTEXT, videoId });
    expect(at(json, 'playabilityStatus.status')).to.equal('OK');
  });
});
