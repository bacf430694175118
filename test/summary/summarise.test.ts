// Summaries against the fake OpenAI-compatible server on loopback (real HTTP): the wire format,
// the checks on cited times, long transcripts in parts within the context, and every fault the
// queue must back off from.

import { expect } from 'chai';
import { ModelFault, type ModelEndpoint } from '../../shared/summary/model-client';
import { checkedPoints, citable, citableOnly, paragraphAt } from '../../shared/summary/points';
import { estimateTokens, type VideoToSummarise } from '../../shared/summary/prompt';
import { askEndpoint, spansOf, summarise } from '../../shared/summary/summarise';
import { defaultScript, FakeModelServer } from '../fake-model/server';

const paragraphs = (count: number, everyMs: number, words = 12) =>
  Array.from({ length: count }, (_, i) => ({ startMs: i * everyMs + 400, text: `Paragraph ${i} ${'word '.repeat(words).trim()}.` }));

const video = (ps: VideoToSummarise['paragraphs'], chapters: VideoToSummarise['chapters'] = []): VideoToSummarise => ({ title: 'A <b>talk</b>', chapters, paragraphs: ps, languageName: 'English' });

async function faultOf(p: Promise<unknown>): Promise<ModelFault> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ModelFault) return err;
    throw err;
  }
  throw new Error('expected a ModelFault');
}

describe('summaries from an OpenAI-compatible model', function () {
  const model = new FakeModelServer();
  let endpoint: ModelEndpoint;

  before(async () => {
    await model.start();
    endpoint = { url: model.url, apiKey: 'sk-secret-key', model: 'tiny', timeoutMs: 2000 };
  });
  afterEach(async () => {
    model.mode = { kind: 'ok' };
    model.requests.length = 0;
    await model.up();
  });
  after(() => model.stop());

  it('asks once with model, messages, temperature 0, no streaming and the key as a bearer; the title and paragraph times are in the prompt', async () => {
    const ps = paragraphs(10, 30_000);
    const out = await summarise(askEndpoint(endpoint), video(ps), spansOf(ps, 300_000), 8192);
    expect(out.calls).to.equal(1);
    expect(model.requests).to.have.length(1);
    const r = model.requests[0]!;
    expect(r.authorization).to.equal('Bearer sk-secret-key');
    expect(r.body).to.include({ model: 'tiny', temperature: 0, stream: false });
    const user = r.body.messages!.find((m) => m.role === 'user')!.content;
    expect(user).to.include('Title: A <b>talk</b>').and.include('[0:00] Paragraph 0').and.include('[4:30] Paragraph 9');
    expect(out.points.map((p) => p.seconds)).to.deep.equal([0, 30, 60, 90, 120]);
    expect(out.promptTokens).to.be.above(0);
  });

  it('drops points citing a time outside the video or before the first paragraph, keeps the rest even if fewer than three', () => {
    const spans = spansOf([{ startMs: 5_000 }, { startMs: 60_000 }], 120_000);
    const answer = ['- [0:02] before the first paragraph', '- [0:05] the opening', '* **[1:30]** later on', '- [2:00] at the very end', '- [9:59] made up', 'no time here', '1. 1:00 — the middle'].join('\n');
    expect(checkedPoints(answer, spans)).to.deep.equal([
      { seconds: 5, text: 'the opening' },
      { seconds: 60, text: 'the middle' },
      { seconds: 90, text: 'later on' },
    ]);
  });

  it('asks again once when an answer has no valid point, then gives up with no points', async () => {
    model.script = () => '- [59:00] nothing of the sort\nSure! Here is a summary.';
    try {
      const ps = paragraphs(4, 10_000);
      const out = await summarise(askEndpoint(endpoint), video(ps), spansOf(ps, 40_000), 8192);
      expect(out.points).to.deep.equal([]);
      expect(out.calls).to.equal(2);
    } finally {
      model.script = defaultScript;
    }
  });

  it('summarises a three-hour transcript in parts by chapters and combines them, every request under the context', async () => {
    const ps = paragraphs(360, 30_000, 40); // three hours, a paragraph every 30 s
    const chapters = [0, 3600, 7200].map((s, i) => ({ startSeconds: s, title: `Hour ${i + 1}` }));
    const context = 2048;
    const out = await summarise(askEndpoint(endpoint), video(ps, chapters), spansOf(ps, 3 * 3600_000), context);
    expect(model.requests.length).to.be.above(3);
    for (const r of model.requests) {
      const tokens = r.body.messages!.reduce((n, m) => n + estimateTokens(m.content) + 4, 0);
      expect(tokens).to.be.at.most(context);
    }
    const last = model.requests[model.requests.length - 1]!.body.messages!.find((m) => m.role === 'system')!.content;
    expect(last).to.include('points made from the parts');
    expect(out.points.length).to.be.within(1, 8);
    for (const p of out.points) expect(p.seconds % 30).to.equal(0);
  });

  it('checks each cited time against the cited paragraph\'s span: inside one paragraph (start to the next start), not past the video, and only among the paragraphs the request was shown', () => {
    const spans = spansOf([{ startMs: 5_400 }, { startMs: 60_000 }, { startMs: 90_000 }], 120_000);
    expect([4, 5, 59, 60, 89, 90, 119, 120].map((s) => paragraphAt(s * 1000, spans))).to.deep.equal([-1, 0, 0, 1, 1, 2, 2, -1]);
    const middleOnly = citableOnly(spans, [1]);
    expect([5, 60, 75, 89, 90].map((s) => citable(s, middleOnly))).to.deep.equal([false, true, true, true, false]);
    expect(checkedPoints('- [0:10] shown elsewhere\n- [1:10] its own\n- [1:40] shown elsewhere', middleOnly)).to.deep.equal([{ seconds: 70, text: 'its own' }]);
  });

  it('a part\'s answer citing a time of another part is dropped (asked again, then nothing kept from it)', async () => {
    const ps = paragraphs(360, 30_000, 40);
    const chapters = [0, 3600, 7200].map((s, i) => ({ startSeconds: s, title: `Hour ${i + 1}` }));
    // Every part answers with the transcript's opening second: true only for the first part.
    model.script = (messages) => (messages.find((m) => m.role === 'system')!.content.includes('one part') ? '- [0:00] the opening, cited from anywhere' : defaultScript(messages));
    try {
      const out = await summarise(askEndpoint(endpoint), video(ps, chapters), spansOf(ps, 3 * 3600_000), 2048);
      const parts = model.requests.filter((r) => r.body.messages!.some((m) => m.content.includes('one part'))).length;
      expect(out.points).to.deep.equal([{ seconds: 0, text: 'the opening, cited from anywhere' }]);
      // The first part asked once; every other part twice (its answer held no point of its own).
      const distinctParts = new Set(model.requests.map((r) => r.body.messages!.find((m) => m.role === 'user')!.content));
      expect(out.calls).to.equal(model.requests.length);
      expect(model.requests.length).to.equal(1 + 2 * (distinctParts.size - 1));
      expect(parts).to.equal(model.requests.length);
    } finally {
      model.script = defaultScript;
    }
  });

  it('a combining answer may cite only the paragraphs the parts\' points cite', async () => {
    const ps = paragraphs(360, 30_000, 40);
    const chapters = [0, 3600, 7200].map((s, i) => ({ startSeconds: s, title: `Hour ${i + 1}` }));
    const cited = new Set<number>();
    let unseen = -1;
    model.script = (messages) => {
      const text = defaultScript(messages);
      if (messages.find((m) => m.role === 'system')!.content.includes('one part')) {
        for (const m of text.matchAll(/\[(\d+):(\d+):?(\d+)?\]/g)) cited.add(m[3] === undefined ? Number(m[1]) * 60 + Number(m[2]) : Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]));
        return text;
      }
      // A second inside a paragraph of the transcript that no part's point cites.
      const i = ps.findIndex((_, n) => !cited.has(n * 30));
      unseen = i * 30 + 15;
      return `- [${Math.floor(unseen / 60)}:${String(unseen % 60).padStart(2, '0')}] never given to the combining\n${text}`;
    };
    try {
      const out = await summarise(askEndpoint(endpoint), video(ps, chapters), spansOf(ps, 3 * 3600_000), 2048);
      expect(model.requests.some((r) => r.body.messages!.some((m) => m.content.includes('points made from the parts')))).to.equal(true);
      expect(unseen).to.be.above(0);
      expect(out.points.map((p) => p.seconds)).not.to.include(unseen);
      expect(out.points.length).to.be.within(1, 8);
      for (const p of out.points) expect(cited.has(p.seconds), String(p.seconds)).to.equal(true);
    } finally {
      model.script = defaultScript;
    }
  });

  it('turns 429 (with its Retry-After), 500, garbage, a stalled answer and a refused connection into faults to back off from', async () => {
    const ask = askEndpoint(endpoint);
    const msgs = [{ role: 'user' as const, content: '[0:00] hi' }];
    model.mode = { kind: 'rate-limited', retryAfterSeconds: 42 };
    const limited = await faultOf(ask(msgs));
    expect(limited.kind).to.equal('rate-limited');
    expect(limited.retryAfterMs).to.equal(42_000);
    model.mode = { kind: 'error' };
    expect((await faultOf(ask(msgs))).kind).to.equal('server');
    model.mode = { kind: 'garbage' };
    expect((await faultOf(ask(msgs))).kind).to.equal('garbage');
    model.mode = { kind: 'slow', ms: 5000 };
    expect((await faultOf(askEndpoint({ ...endpoint, timeoutMs: 200 })(msgs))).kind).to.equal('timeout');
    model.mode = { kind: 'ok' };
    await model.down();
    const refused = await faultOf(ask(msgs));
    expect(refused.kind).to.equal('refused');
    for (const f of [limited, refused]) expect(f.message).not.to.include('sk-secret-key');
  });
});
