// The store contract's search cases (run by contract.ts on every backend): the same seeded corpus
// and the same searches, so SQLite FTS5 and MongoDB's text index give the same answers.

import { expect } from 'chai';
import { parseSearchText } from '../../api/query/search-query';
import { SearchBudgetExceeded } from '../../shared/search/budget';
import type { SearchQuery, SearchScope, Store, TranscriptRecord, VideoRecord } from '../../shared/store';
import { videoRecord } from '../support/factories';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const HOUR = 3_600_000;
const CH_A = 'UCaaaaaaaaaaaaaaaaaaaaaa';
const CH_B = 'UCbbbbbbbbbbbbbbbbbbbbbb';
const EVERYWHERE: SearchScope = { channelIds: null, kinds: ['regular'] };

export function q(text: string): SearchQuery {
  const parsed = parseSearchText(text);
  if (!parsed.ok) throw new Error(`test query ${text} refused: ${parsed.error}`);
  return parsed.value;
}

/** Video n of the corpus: published n hours before T0 (so v1 is the newest). */
function corpusVideo(n: number, over: Partial<VideoRecord> = {}): VideoRecord {
  return videoRecord({ videoId: `srch${String(n).padStart(7, '0')}`, channelId: CH_A, title: `Video ${n}`, publishedAt: new Date(T0 - n * HOUR), fetchedAt: new Date(T0), ...over });
}

function transcript(videoId: string, texts: readonly string[], language = 'en', kind: TranscriptRecord['kind'] = 'manual'): TranscriptRecord {
  return { videoId, language, kind, paragraphs: texts.map((text, i) => ({ startMs: i * 30_000 + 1_500, text })), fetchedAt: new Date(T0) };
}

const CORPUS: { video: VideoRecord; transcripts: TranscriptRecord[] }[] = [
  { video: corpusVideo(1, { title: 'Open source in İstanbul' }), transcripts: [transcript('srch0000001', ['Welcome to the meetup.', 'We talk about open source software today.'])] },
  { video: corpusVideo(2), transcripts: [transcript('srch0000002', ['Open the door.', 'Source code is here.'])] },
  { video: corpusVideo(3), transcripts: [transcript('srch0000003', ['Bir ISTANBUL gezisi ve açık kaynak.', 'Café and crème brûlée.'], 'tr')] },
  { video: corpusVideo(4, { channelId: CH_B }), transcripts: [transcript('srch0000004', ['ıstanbul boğazı, cats and dogs.'], 'tr'), transcript('srch0000004', ['Istanbul strait with cats.'], 'en')] },
  { video: corpusVideo(5, { videoKind: 'short' }), transcripts: [transcript('srch0000005', ['A short about cats.'])] },
  { video: corpusVideo(6, { state: 'failed', nextAttemptAt: new Date(T0 + HOUR) }), transcripts: [transcript('srch0000006', ['Cats that failed.'])] },
  { video: corpusVideo(7), transcripts: [transcript('srch0000007', ['Dogs only, no felines. Open source dogs.'])] },
];

const idsOf = (hits: readonly { video: VideoRecord }[]): string[] => hits.map((h) => h.video.videoId);
const n = (...nums: number[]): string[] => nums.map((i) => `srch${String(i).padStart(7, '0')}`);

export function searchCases(storeOf: () => Store): void {
  let store: Store;
  beforeEach(async function () {
    store = storeOf();
    await store.upsertVideos(CORPUS.map((c) => c.video), CORPUS.flatMap((c) => c.transcripts));
  });
  const search = (text: string, scope: SearchScope = EVERYWHERE, limit = 20) => store.searchVideos(q(text), scope, limit);

  it('finds every word in any order, case-insensitively, in the title or any paragraph', async function () {
    expect(idsOf(await search('SOURCE open'))).to.deep.equal(n(1, 2, 7));
    expect(idsOf(await search('meetup istanbul')), 'one word in the title, one in the transcript').to.deep.equal(n(1));
    expect(idsOf(await search('nothing-like-this'))).to.deep.equal([]);
  });

  it('folds diacritics and every Turkish i', async function () {
    expect(idsOf(await search('istanbul'))).to.deep.equal(n(1, 3, 4));
    expect(idsOf(await search('İSTANBUL'))).to.deep.equal(n(1, 3, 4));
    expect(idsOf(await search('ıstanbul'))).to.deep.equal(n(1, 3, 4));
    expect(idsOf(await search('creme brulee cafe'))).to.deep.equal(n(3));
    expect(idsOf(await search('acik kaynak'))).to.deep.equal(n(3));
  });

  it('matches a phrase only as consecutive words inside one paragraph', async function () {
    expect(idsOf(await search('"open source"'))).to.deep.equal(n(1, 7));
    expect(idsOf(await search('"door source"')), 'not across a paragraph break').to.deep.equal([]);
    expect(idsOf(await search('"source open"'))).to.deep.equal([]);
  });

  it('leaves out excluded words and phrases, and joins alternatives with OR', async function () {
    expect(idsOf(await search('open source -meetup'))).to.deep.equal(n(2, 7));
    expect(idsOf(await search('open -"source code"'))).to.deep.equal(n(1, 7));
    expect(idsOf(await search('felines OR meetup'))).to.deep.equal(n(1, 7));
    expect(idsOf(await search('cats OR dogs -strait'))).to.deep.equal(n(7));
    expect(idsOf(await search('open "source code" OR meetup'))).to.deep.equal(n(1, 2));
  });

  it('searches only feed entries of the scope: channels and kinds', async function () {
    expect(idsOf(await search('cats'))).to.deep.equal(n(4), 'the Short and the failed video are out');
    expect(idsOf(await search('cats', { channelIds: null, kinds: ['regular', 'short'] }))).to.deep.equal(n(4, 5));
    expect(idsOf(await search('istanbul', { channelIds: [CH_B], kinds: ['regular'] }))).to.deep.equal(n(4));
    expect(idsOf(await search('istanbul', { channelIds: [CH_A, CH_B], kinds: ['regular'] }))).to.deep.equal(n(1, 3, 4));
    expect(idsOf(await search('istanbul', { channelIds: ['UCAAAAAAAAAAAAAAAAAAAAAA'], kinds: ['regular'] })), 'channel ids are case-sensitive').to.deep.equal([]);
  });

  it('takes a scope of thousands of channels (a key following 5,000) as those channels alone', async function () {
    const others = Array.from({ length: 5_000 }, (_, i) => `UC${String(i).padStart(22, '0')}`);
    expect(idsOf(await search('istanbul', { channelIds: [...others, CH_B], kinds: ['regular'] }))).to.deep.equal(n(4));
    expect(idsOf(await search('istanbul', { channelIds: [CH_A, ...others, CH_B], kinds: ['regular'] }))).to.deep.equal(n(1, 3, 4));
    expect(idsOf(await search('cats', { channelIds: [...others, CH_A], kinds: ['regular', 'short'] }))).to.deep.equal(n(5));
    expect(idsOf(await search('nothing-like-this', { channelIds: others, kinds: ['regular'] }))).to.deep.equal([]);
  });

  it('ends a search whose time budget is spent with SearchBudgetExceeded, and answers within a budget', async function () {
    let caught: unknown;
    try {
      await store.searchVideos(q('open source'), EVERYWHERE, 20, { budgetMs: 0 });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(SearchBudgetExceeded);
    expect((caught as SearchBudgetExceeded).budgetMs).to.equal(0);
    expect(idsOf(await store.searchVideos(q('open source'), EVERYWHERE, 20, { budgetMs: 60_000 }))).to.deep.equal(n(1, 2, 7));
  });

  it('names the newest write among every channel\'s feed entries (newestFeedWrite), a search feed\'s version', async function () {
    expect((await store.newestFeedWrite())?.getTime()).to.equal(T0);
    await store.upsertVideos([corpusVideo(30, { channelId: CH_B, state: 'failed', nextAttemptAt: new Date(T0 + 9 * HOUR), fetchedAt: new Date(T0 + 5 * HOUR) })]);
    expect((await store.newestFeedWrite())?.getTime(), 'not a feed entry').to.equal(T0);
    await store.upsertVideos([corpusVideo(31, { channelId: CH_B, fetchedAt: new Date(T0 + 2 * HOUR) })]);
    expect((await store.newestFeedWrite())?.getTime()).to.equal(T0 + 2 * HOUR);
  });

  it('returns each hit with every stored transcript of it', async function () {
    const [hit] = await search('strait');
    expect(hit!.video.videoId).to.equal(n(4)[0]);
    expect(hit!.transcripts.map((t) => t.language).sort()).to.deep.equal(['en', 'tr']);
  });

  it('answers newest first, then by video id, at most limit', async function () {
    const same = new Date(T0 - 100 * HOUR);
    const many = Array.from({ length: 30 }, (_, i) => corpusVideo(100 + i, { videoId: `tie${String(29 - i).padStart(8, '0')}`, publishedAt: same }));
    await store.upsertVideos(many, many.map((v) => transcript(v.videoId, ['zebra crossing'])));
    const all = await search('zebra', EVERYWHERE, 100);
    expect(idsOf(all)).to.deep.equal(many.map((v) => v.videoId).sort());
    expect(idsOf(await search('zebra', EVERYWHERE, 5))).to.deep.equal(idsOf(all).slice(0, 5));
    const newer = corpusVideo(99, { videoId: 'zzzzzzzzzzz', publishedAt: new Date(T0 - 99 * HOUR) });
    await store.upsertVideos([newer], [transcript(newer.videoId, ['a zebra'])]);
    expect(idsOf(await search('zebra', EVERYWHERE, 2))).to.deep.equal(['zzzzzzzzzzz', idsOf(all)[0]]);
  });

  it('lists videos of unknown date last, by video id', async function () {
    const undated = Array.from({ length: 40 }, (_, i) => corpusVideo(200 + i, { videoId: `und${String(39 - i).padStart(8, '0')}`, publishedAt: new Date(0) }));
    await store.upsertVideos(undated, undated.map((v) => transcript(v.videoId, ['walrus song'])));
    const dated = corpusVideo(199, { videoId: 'dated000001' });
    await store.upsertVideos([dated], [transcript(dated.videoId, ['a walrus'])]);
    const all = await search('walrus', EVERYWHERE, 100);
    expect(idsOf(all)).to.deep.equal(['dated000001', ...undated.map((v) => v.videoId).sort()]);
    expect(idsOf(await search('walrus', EVERYWHERE, 5))).to.deep.equal(idsOf(all).slice(0, 5));
    expect(idsOf(await search('"walrus song"', EVERYWHERE, 3))).to.deep.equal(undated.map((v) => v.videoId).sort().slice(0, 3));
  });

  it('follows every write: new text, a new language, a video no longer shown', async function () {
    await store.upsertVideos([], [transcript('srch0000002', ['Now about giraffes.'])]);
    expect(idsOf(await search('giraffes')), 'the new text').to.deep.equal(n(2));
    expect(idsOf(await search('door')), 'the old text is gone').to.deep.equal([]);
    await store.upsertVideos([], [transcript('srch0000002', ['Zürafa'], 'tr')]);
    expect(idsOf(await search('zurafa'))).to.deep.equal(n(2));
    expect(idsOf(await search('giraffes')), 'the other language stays').to.deep.equal(n(2));
    await store.upsertVideos([corpusVideo(2, { state: 'unavailable', nextAttemptAt: null })]);
    expect(idsOf(await search('giraffes'))).to.deep.equal([]);
    await store.upsertVideos([corpusVideo(2, { title: 'Renamed' })]);
    expect(idsOf(await search('renamed giraffes'))).to.deep.equal(n(2));
    expect(idsOf(await search('door OR video')), 'title "Video 2" replaced').to.not.include(n(2)[0]);
  });

  it('folds every script alike: compatibility forms, Greek final sigma, marks inside a word', async function () {
    const v = corpusVideo(9, { title: 'Script test' });
    await store.upsertVideos([v], [transcript(v.videoId, ['Der ﬁnanzplan.', 'ΟΔΟΣ προς το σπίτι.', 'हिंदी भाषा'])]);
    expect(idsOf(await search('finanzplan'))).to.deep.equal(n(9));
    expect(idsOf(await search('οδος'))).to.deep.equal(n(9));
    expect(idsOf(await search('"οδοσ προσ"'))).to.deep.equal(n(9));
    expect(idsOf(await search('हिंदी'))).to.deep.equal(n(9));
    expect(idsOf(await search('"हिंदी भाषा"'))).to.deep.equal(n(9));
  });

  it('finds a given-up video without captions by its title', async function () {
    await store.upsertVideos([corpusVideo(8, { title: 'Silent film about pelicans', state: 'no_transcript', nextAttemptAt: null, language: null, kind: null })]);
    expect(idsOf(await search('pelicans'))).to.deep.equal(n(8));
  });

  it('takes engine syntax in the words literally', async function () {
    for (const text of ['NEAR(open source)', 'title:open', 'open*', '^open', '{open}', '$where open', 'open AND source', 'open NOT source', '"open', 'open)', '(open']) {
      const hits = await search(text);
      expect(hits, text).to.be.an('array');
    }
    expect(idsOf(await search('title:open source'))).to.deep.equal([], 'title: is the word "title"');
    expect(idsOf(await search('open AND source'))).to.deep.equal([], '"and" is a word here');
    expect(idsOf(await search('"open source'))).to.deep.equal(n(1, 2, 7), 'an unpaired quote is dropped');
  });
}
