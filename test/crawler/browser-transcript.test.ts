// The crawler's branch "every app client refused for this video → the browser fetches the
// transcript", on the scripted platform and injected time: which blocks lead to the browser, what
// is stored, and how a browser success or failure counts for the blocks in a row. The real-Chromium
// path is in test/platform/browser-fallback.test.ts.

import { expect } from 'chai';
import { runChannel } from '../../crawler/channel-run';
import { PROFILES } from '../../shared/config/crawl-profile';
import { silentLogger } from '../../shared/logger';
import { AllClientsRefusedError, TokenRequiredError } from '../../shared/platform/types';
import type { Transcript } from '../../shared/transcript/types';
import { FakeTiming } from './support/fake-timing';
import { ScriptedPlatform, blocked, makeVideos, transcriptFor } from './support/scripted-platform';
import { tempStore, type TempStore } from '../support/temp-store';
import { mainTranscripts, textOf } from '../support/factories';

const CH = 'UCcrawlerbrowsertest0001';
const refused = (videoId: string): AllClientsRefusedError =>
  new AllClientsRefusedError(videoId, [
    { client: 'VISIONOS', reason: 'bot check: Sign in to confirm you’re not a bot' },
    { client: 'ANDROID', reason: 'bot check: Sign in to confirm you’re not a bot' },
  ]);

describe('crawler: the browser transcript for a video every app client refuses', () => {
  let ts: TempStore;
  let timing: FakeTiming;
  beforeEach(async () => {
    ts = await tempStore();
    timing = new FakeTiming();
  });
  afterEach(async () => ts.cleanup());

  async function crawl(platform: ScriptedPlatform, browser: (videoId: string) => Promise<Transcript | null>) {
    const channel = await ts.store.registerChannel({ channelId: CH, wanted: platform.videos.length }, timing.now());
    const result = await runChannel(
      { store: ts.store, platform, unblockers: [], profile: PROFILES.fast, timing, logger: silentLogger(), browserTranscript: browser },
      channel, new AbortController().signal,
    );
    const rows = new Map((await ts.store.getVideos(platform.videos.map((v) => v.videoId))).map((r) => [r.videoId, r]));
    return { result, rows };
  }

  it('asks the browser only for a video every app client refused, and stores its transcript', async () => {
    const platform = new ScriptedPlatform(makeVideos(3));
    platform.transcriptScript.set('v001', [refused('v001'), refused('v001')]);
    platform.transcriptScript.set('v002', [blocked('timed text: empty timed-text answer'), blocked('timed text: empty timed-text answer')]);
    const asked: string[] = [];
    const { result, rows } = await crawl(platform, async (id) => {
      asked.push(id);
      return { ...transcriptFor(id), paragraphs: [{ startMs: 0, text: `From the web player: ${id}.` }] };
    });
    expect(asked).to.deep.equal(['v001']);
    expect(result).to.deep.include({ outcome: 'ok', stored: 3 });
    expect(rows.get('v001')).to.deep.include({ state: 'ready' });
    expect(textOf((await mainTranscripts(ts.store, ['v001'])).get('v001'))).to.equal('From the web player: v001.');
    // A block that is not every client refusing (here the caption URL) is recorded for a retry.
    expect(rows.get('v002')).to.deep.include({ state: 'failed', lastError: 'blocked: timed text: empty timed-text answer' });
    expect(rows.get('v000')!.state).to.equal('ready');
  });

  it('asks the browser for a video whose clients offered only token-bound caption URLs; without it, no transcript is recorded', async () => {
    const tokenOnly = (id: string) => new TokenRequiredError(id, 'VISIONOS: every caption URL needs a proof-of-origin token (exp=xpe/xpv)');
    const served = new ScriptedPlatform(makeVideos(2));
    served.transcriptScript.set('v001', [tokenOnly('v001')]);
    const asked: string[] = [];
    const ok = await crawl(served, async (id) => {
      asked.push(id);
      return { ...transcriptFor(id), paragraphs: [{ startMs: 0, text: `With the web player's token: ${id}.` }] };
    });
    expect(asked).to.deep.equal(['v001']);
    expect(ok.result).to.deep.include({ outcome: 'ok', stored: 2 });
    expect(ok.rows.get('v001')).to.deep.include({ state: 'ready' });
    expect(textOf((await mainTranscripts(ts.store, ['v001'])).get('v001'))).to.equal("With the web player's token: v001.");

    await ts.cleanup();
    ts = await tempStore();
    const unserved = new ScriptedPlatform(makeVideos(2));
    unserved.transcriptScript.set('v001', [tokenOnly('v001')]);
    const none = await crawl(unserved, async () => null);
    // Not a block: the run goes on, and the video is recorded as having no transcript for now.
    expect(none.result).to.deep.include({ outcome: 'ok' });
    expect(none.rows.get('v001')).to.deep.include({ state: 'no_transcript' });
    expect(none.rows.get('v001')!.lastError).to.match(/proof-of-origin token/);
  });

  it('a browser success starts the blocks in a row again; a failure does not', async () => {
    const videos = makeVideos(2);
    const script = (p: ScriptedPlatform): void => {
      p.transcriptScript.set('v000', [refused('v000'), refused('v000')]);
      p.transcriptScript.set('v001', [refused('v001'), refused('v001')]);
    };
    const served = new ScriptedPlatform(videos);
    script(served);
    const ok = await crawl(served, async (id) => transcriptFor(id));
    expect(ok.result).to.deep.include({ outcome: 'ok', stored: 2 });

    await ts.cleanup();
    ts = await tempStore();
    const unserved = new ScriptedPlatform(videos);
    script(unserved);
    const failed = await crawl(unserved, async () => null);
    // Two blocks for v000, the browser gets nothing, the third block in a row (v001) ends the run.
    expect(failed.result).to.deep.include({ outcome: 'blocked' });
    expect(failed.rows.get('v000')).to.deep.include({ state: 'failed' });
    expect(failed.rows.get('v000')!.lastError).to.match(/^blocked: every player client refused/);
  });
});
