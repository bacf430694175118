// The summary queue in a real crawler process over a SQLite file, the fake platform and the fake
// OpenAI-compatible model on loopback: while the model holds a request unanswered, then answers
// 429 with Retry-After, then 500, the crawler goes on storing every transcript of channels
// registered meanwhile; once the model answers, every video gets its summary, from one successful
// model call each, and the endpoint's key is in no log line.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { openStore } from '../../shared/store';
import type { Store } from '../../shared/store/types';
import { PROMPT_VERSION } from '../../shared/summary/prompt';
import { makeChannel, startFakePlatform, type FakeChannelSpec, type FakePlatform } from '../fake-platform';
import { startCrawlerProcess, type CrawlerProcess } from '../crawler/support/crawler-process';
import { ensureBuilt } from '../support/processes';
import { until } from '../support/poll';
import { FakeModelServer } from '../fake-model/server';

const KEY = { language: 'transcript', promptVersion: PROMPT_VERSION };
const SECRET = 'sk-never-logged-4242';

describe('summaries in a running crawler while the model faults', function () {
  this.timeout(180_000);
  let dir: string;
  let fake: FakePlatform;
  let model: FakeModelServer;
  let store: Store;
  let crawler: CrawlerProcess | null = null;

  before(() => ensureBuilt());
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tf-summaries-'));
    store = await openStore(`sqlite:${path.join(dir, 'feeds.db')}`, { logger: silentLogger(), rootDir: dir });
    fake = await startFakePlatform();
    model = new FakeModelServer();
    await model.start();
  });
  afterEach(async () => {
    await crawler?.kill('SIGKILL');
    await model.stop();
    await fake.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const transcribed = async (ch: FakeChannelSpec): Promise<number> => {
    const ids = ch.videos.map((v) => v.videoId);
    return new Set((await store.getTranscripts(ids)).map((t) => t.videoId)).size;
  };
  const summarised = async (chs: FakeChannelSpec[]): Promise<number> =>
    (await store.getSummaries(chs.flatMap((c) => c.videos.map((v) => v.videoId)), KEY)).length;

  it('stores transcripts on time through a held answer, 429 and 500, then summarises every video once', async () => {
    const channels = [0, 1, 2].map((i) => fake.addChannel(makeChannel({ handle: `summarised${i}`, count: 4, seed: 700 + i, captionsMix: { manual: 1 } })));
    model.mode = { kind: 'hold' };
    crawler = startCrawlerProcess(dir, {
      DATABASE_URL: `sqlite:${path.join(dir, 'feeds.db')}`, PLATFORM_BASE_URL: fake.url,
      SUMMARY_API_URL: model.url, SUMMARY_API_KEY: SECRET, SUMMARY_MODEL: 'tiny', SUMMARY_TIMEOUT_MS: '600000',
    });
    const c = crawler;
    await until('crawler up', () => c.logs.some((l) => l.msg === 'crawler started'), 30_000);
    await store.registerChannel({ channelId: channels[0]!.channelId, wanted: 4 }, new Date());
    await until('the first summary request held', () => model.holding === 1, 60_000);

    // The model holds its answer: a channel registered now is fetched whole meanwhile.
    await store.registerChannel({ channelId: channels[1]!.channelId, wanted: 4 }, new Date());
    await until('the second channel transcribed while the model holds', async () => (await transcribed(channels[1]!)) === 4, 60_000);
    expect(model.holding, 'the model request is still unanswered').to.equal(1);
    expect(model.answered).to.equal(0);

    // 429 with Retry-After, then 500 with Retry-After: the queue backs off and asks again; a third channel is fetched meanwhile.
    model.mode = { kind: 'rate-limited', retryAfterSeconds: 1 };
    model.release();
    const asked = model.requests.length;
    await store.registerChannel({ channelId: channels[2]!.channelId, wanted: 4 }, new Date());
    await until('asked again after Retry-After', () => model.requests.length > asked, 30_000);
    model.mode = { kind: 'error', retryAfterSeconds: 1 };
    const asked500 = model.requests.length;
    await until('asked again after the 500', () => model.requests.length > asked500 + 1, 30_000);
    await until('the third channel transcribed while the model fails', async () => (await transcribed(channels[2]!)) === 4, 60_000);
    expect(await summarised(channels)).to.equal(0);

    // The model is back: every video is summarised, once.
    model.mode = { kind: 'ok' };
    await until('every video summarised', async () => (await summarised(channels)) === 12, 90_000);
    expect(model.answered, 'one successful model call per video').to.equal(12);
    const videoIds = channels.flatMap((ch) => ch.videos.map((v) => v.videoId));
    for (const s of await store.getSummaries(videoIds, KEY)) {
      expect(s.points.length).to.be.within(1, 8);
      const paragraphs = (await store.getTranscripts([s.videoId])).find((t) => t.language === s.transcriptLanguage)!.paragraphs;
      for (const p of s.points) expect(paragraphs.some((q) => Math.floor(q.startMs / 1000) <= p.seconds), `${s.videoId} ${p.seconds}`).to.equal(true);
    }
    expect(model.requests.every((r) => r.authorization === `Bearer ${SECRET}` && r.body.temperature === 0 && r.body.stream === false)).to.equal(true);

    const exit = await c.kill('SIGTERM');
    expect(exit, c.stderr.join('')).to.deep.equal({ code: 0, signal: null });
    crawler = null;
    expect(JSON.stringify(c.logs) + c.stderr.join('')).not.to.include(SECRET);
    expect(c.logs.some((l) => l.msg === 'summary stored')).to.equal(true);
  });
});
