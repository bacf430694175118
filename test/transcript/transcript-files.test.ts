// GET /transcripts/<id>.vtt|.srt|.txt over HTTP against the real app, and the links feeds give to
// those files. VTT is read back with the W3C's WebVTT parser and SRT with subsrt-ts: both must
// find exactly the stored paragraphs as cues, at their stored times.

import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import subsrt from 'subsrt-ts';
import { WebVTTParser, type WebVTTNode } from 'webvtt-parser';
import htmlEntities from 'webvtt-parser/html-entities.json';
import type { TranscriptRecord } from '../../shared/store/types';
import { asArray, CHANNEL, KEY, startApi, video, type TestApi } from '../api/support';

const ID = 'vid00000001';
const PARAGRAPHS = [
  { startMs: 0, text: 'Merhaba & hoş geldiniz <3 — İstanbul’dan' },
  { startMs: 2_480, text: 'Bir ok --> iki ok, </c> ve <b>etiket</b> gibi görünen metin' },
  { startMs: 61_005, text: 'Satır\nsonu   ve   boşluklar' },
  { startMs: 3_725_250, text: 'Bir saat sonra: çğıöşü İĞÜŞÖÇ 🎉' },
];
const DURATION_S = 3_730;
/** The cues every format must give back: each paragraph until the next starts, the last until the video ends. */
const EXPECTED = PARAGRAPHS.map((p, i) => ({ startMs: p.startMs, endMs: PARAGRAPHS[i + 1]?.startMs ?? DURATION_S * 1000, text: p.text.replace(/\s+/g, ' ') }));

type Caption = ReturnType<typeof subsrt.parse>[number];
type ContentCaption = Extract<Caption, { type: 'caption' }>;

const at = new Date(Date.UTC(2024, 5, 1));
const row = (videoId: string, language: string, kind: TranscriptRecord['kind'], paragraphs: TranscriptRecord['paragraphs']): TranscriptRecord => ({ videoId, language, kind, paragraphs, fetchedAt: at });

/** The parser with the full entity table, as its README says a spec-compliant reading needs. */
const vttParser = (): WebVTTParser => new WebVTTParser(htmlEntities);

function textOf(nodes: readonly WebVTTNode[]): string {
  return nodes.map((n) => (n.type === 'text' ? (n.value ?? '') : textOf(n.children ?? []))).join('');
}

describe('transcript files over HTTP', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    await api.store.upsertVideos(
      [
        video(1, { language: 'en', kind: 'manual', durationSeconds: DURATION_S }),
        video(2, { state: 'no_transcript', language: null, kind: null }),
        video(3, { durationSeconds: null }),
      ],
      [
        row(ID, 'en', 'manual', PARAGRAPHS),
        row(ID, 'tr', 'translated', [{ startMs: 0, text: 'Türkçe çeviri' }, { startMs: 4_000, text: 'ikinci paragraf' }]),
        row('vid00000003', 'en', 'manual', [{ startMs: 1_000, text: 'only one short line' }]),
      ],
    );
  });
  after(() => api.close());

  it('.vtt is WebVTT that the W3C parser reads without an error, back to the stored cues', async () => {
    const res = await api.get(`/transcripts/${ID}.vtt`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/vtt; charset=utf-8');
    expect(res.headers.get('content-language')).to.equal('en');
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    const parsed = vttParser().parse(await res.text(), 'metadata');
    expect(parsed.errors).to.deep.equal([]);
    const cues = parsed.cues.map((c) => ({ startMs: Math.round(c.startTime * 1000), endMs: Math.round(c.endTime * 1000), text: textOf(c.tree.children) }));
    expect(cues).to.deep.equal(EXPECTED);
  });

  it('.srt is SubRip that subsrt-ts reads back to the same cues, numbered from 1', async () => {
    const res = await api.get(`/transcripts/${ID}.srt`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/x-subrip; charset=utf-8');
    const body = await res.text();
    expect(subsrt.detect(body)).to.equal('srt');
    const captions = subsrt.parse(body, { format: 'srt' }).filter((c): c is ContentCaption => c.type === 'caption');
    expect(captions.map((c) => c.index)).to.deep.equal([1, 2, 3, 4]);
    expect(captions.map((c) => ({ startMs: c.start, endMs: c.end, text: c.content.trim() }))).to.deep.equal(EXPECTED);
  });

  it('.txt is the paragraphs as plain text, a blank line between them', async () => {
    const res = await api.get(`/transcripts/${ID}.txt`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    expect(await res.text()).to.equal(EXPECTED.map((c) => `${c.text}\n`).join('\n'));
  });

  it('without a known length, the last cue lasts as long as its words take, and ends after it starts', async () => {
    const parsed = vttParser().parse(await (await api.get('/transcripts/vid00000003.vtt')).text(), 'metadata');
    expect(parsed.errors).to.deep.equal([]);
    expect(parsed.cues).to.have.length(1);
    expect(parsed.cues[0]!.startTime).to.equal(1);
    expect(parsed.cues[0]!.endTime).to.be.greaterThan(1);
  });

  it('lang chooses the transcript as a feed entry does: the translation into tr here', async () => {
    const res = await api.get(`/transcripts/${ID}.srt?lang=tr`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-language')).to.equal('tr');
    const captions = subsrt.parse(await res.text(), { format: 'srt' }).filter((c): c is ContentCaption => c.type === 'caption');
    expect(captions.map((c) => c.content.trim())).to.deep.equal(['Türkçe çeviri', 'ikinci paragraf']);
    // A language with nothing stored: what the crawler chose, as in the feed.
    expect((await api.get(`/transcripts/${ID}.txt?lang=de`)).headers.get('content-language')).to.equal('en');
  });

  it('404 with the Turkish error when no transcript is stored: unknown video, a video without captions', async () => {
    for (const id of ['zzzzzzzzzzz', 'vid00000002']) {
      const res = await api.get(`/transcripts/${id}.vtt`);
      expect(res.status, id).to.equal(404);
      expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      expect(await res.json()).to.deep.include({ error: 'Bu video için kayıtlı transkript yok' });
    }
  });

  it('400 for a file name that is not <video id>.vtt|srt|txt, and for a bad lang; 401 without a key', async () => {
    for (const p of [`/transcripts/${ID}.pdf`, '/transcripts/short.vtt', `/transcripts/${ID}`, `/transcripts/${ID}.VTT`, '/transcripts/vid0000000%2F.vtt', `/transcripts/${ID}.vtt.vtt`]) {
      const res = await api.get(p);
      expect(res.status, p).to.equal(400);
      expect(((await res.json()) as { error: string }).error, p).to.equal('Geçersiz transkript dosyası adı');
    }
    const lang = await api.get(`/transcripts/${ID}.vtt?lang=not_a_code`);
    expect(lang.status).to.equal(400);
    expect(((await lang.json()) as { error: string }).error).to.equal('Geçersiz lang değeri');
    expect((await api.get(`/transcripts/${ID}.vtt?lang=en&lang=tr`)).status).to.equal(400);
    expect((await api.get(`/transcripts/${ID}.vtt`, { key: null })).status).to.equal(401);
  });

  it('answers 304 to its own ETag and to a not-newer If-Modified-Since', async () => {
    const first = await api.get(`/transcripts/${ID}.vtt`);
    const etag = first.headers.get('etag')!;
    expect(etag).to.match(/^"[A-Za-z0-9_-]+"$/);
    expect((await api.get(`/transcripts/${ID}.vtt`, { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    expect((await api.get(`/transcripts/${ID}.vtt`, { headers: { 'If-Modified-Since': first.headers.get('last-modified')! } })).status).to.equal(304);
    expect((await api.get(`/transcripts/${ID}.srt`, { headers: { 'If-None-Match': etag } })).status).to.equal(200);
  });

  describe('links from feeds', () => {
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' });
    type Item = { guid: { '#text': string }; 'podcast:transcript'?: { '@_url': string; '@_type': string; '@_language': string } };

    it('RSS items carry podcast:transcript (Podcasting 2.0) with the reader\'s api_key, and the link works as it is', async () => {
      const res = await fetch(`${api.base}/?channel_id=${CHANNEL}&format=Rss&lang=tr&api_key=${KEY}`);
      expect(res.status).to.equal(200);
      const doc = xml.parse(await res.text()) as { rss: { '@_xmlns:podcast': string; channel: { item: Item | Item[] } } };
      expect(doc.rss['@_xmlns:podcast']).to.equal('https://podcastindex.org/namespace/1.0');
      const items = asArray(doc.rss.channel.item);
      const first = items.find((i) => i.guid['#text'] === ID)!;
      const link = first['podcast:transcript']!;
      expect(link['@_type']).to.equal('text/vtt');
      expect(link['@_language']).to.equal('tr');
      const url = new URL(link['@_url']);
      expect(url.pathname).to.equal(`/transcripts/${ID}.vtt`);
      expect(url.searchParams.get('api_key')).to.equal(KEY);
      expect(url.searchParams.get('lang')).to.equal('tr');
      const file = await fetch(url);
      expect(file.status).to.equal(200);
      expect(file.headers.get('content-language')).to.equal('tr');
      // A video without captions has no file to link.
      expect(items.find((i) => i.guid['#text'] === 'vid00000002')!['podcast:transcript']).to.equal(undefined);
    });

    it('JSON Feed items carry the file as an attachment; a key sent as a header is not written into links', async () => {
      const res = await api.get(`/?channel_id=${CHANNEL}&format=Json`);
      const doc = (await res.json()) as { items: { id: string; attachments?: { url: string; mime_type: string; title: string }[] }[] };
      const item = doc.items.find((i) => i.id === ID)!;
      expect(item.attachments).to.have.length(1);
      expect(item.attachments![0]!.mime_type).to.equal('text/vtt');
      expect(item.attachments![0]!.url).to.equal(`${api.base}/transcripts/${ID}.vtt`);
      expect(JSON.stringify(doc)).not.to.include(KEY);
    });

    it('a feed read with another key links that key: each key its own body and ETag', async () => {
      const a = await fetch(`${api.base}/?channel_id=${CHANNEL}&format=Json&api_key=${KEY}`);
      const b = await fetch(`${api.base}/?channel_id=${CHANNEL}&format=Json&api_key=test-key-limited-0002`);
      expect(a.headers.get('etag')).not.to.equal(b.headers.get('etag'));
      expect(await b.text()).to.include('api_key=test-key-limited-0002').and.not.include(KEY);
    });
  });
});
