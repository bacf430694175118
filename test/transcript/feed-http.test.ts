// format=Json over HTTP against the real app: the JSON Feed answer, its own validators and cache entry.

import Database from 'better-sqlite3';
import { expect } from 'chai';
import path from 'node:path';
import { UNREADABLE_TRANSCRIPT_NOTE } from '../../api/feed/transcript-choice';
import { CHANNEL, startApi, video, type TestApi } from '../api/support';
import { entryHtmlOf, transcriptRecord, withTranscripts } from '../support/factories';
import { jsonFeedViolations } from './json-feed-rules';

describe('format=Json over HTTP', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    await api.store.upsertVideos(...withTranscripts([video(1), video(2)]));
  });
  after(() => api.close());

  it('answers a valid JSON Feed 1.1 as application/feed+json, with the spec security headers', async () => {
    const res = await api.get(`/?channel_id=${CHANNEL}&format=Json`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/feed+json');
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(res.headers.get('x-ratelimit-remaining')).to.match(/^\d+$/);
    const doc = (await res.json()) as { items: { id: string; content_html: string }[]; feed_url: string };
    expect(jsonFeedViolations(doc)).to.deep.equal([]);
    expect(doc.items.map((i) => i.id)).to.deep.equal(['vid00000001', 'vid00000002']);
    expect(doc.feed_url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/\?channel_id=UCuAXFkgsw1L7xaCfnd5JJOw&format=Json$/);
  });

  it('is its own representation: its own ETag, and 304 on a match', async () => {
    const json = await api.get(`/?channel_id=${CHANNEL}&format=json`);
    const atom = await api.get(`/?channel_id=${CHANNEL}`);
    const etag = json.headers.get('etag')!;
    expect(etag).to.match(/^"/);
    expect(etag).not.to.equal(atom.headers.get('etag'));
    expect((await api.get(`/?channel_id=${CHANNEL}&format=json`, { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    expect(await atom.text()).to.match(/^<\?xml/);
  });

  it('names Json in the 400 for an unknown format', async () => {
    const res = await api.get(`/?channel_id=${CHANNEL}&format=jsonfeed`);
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).to.equal('Geçersiz format değeri');
    expect(body.message).to.include("'Json'");
  });
});

describe('include over HTTP', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    await api.store.upsertVideos(...withTranscripts([
      video(1, { videoKind: 'regular' }),
      video(2, { videoKind: 'short' }),
      video(3, { videoKind: 'live' }),
      video(4, { videoKind: 'upcoming', state: 'no_transcript', language: null, kind: null }),
      video(5, { videoKind: null }),
    ]));
  });
  after(() => api.close());

  const ids = async (query: string): Promise<string[]> => {
    const res = await api.get(`/?channel_id=${CHANNEL}&format=Json${query}`);
    expect(res.status, query).to.equal(200);
    return ((await res.json()) as { items: { id: string }[] }).items.map((i) => i.id);
  };

  it('lists regular videos by default and adds what include asks for; never an upcoming one', async () => {
    expect(await ids('')).to.deep.equal(['vid00000001', 'vid00000005']);
    expect(await ids('&include=shorts')).to.deep.equal(['vid00000001', 'vid00000002', 'vid00000005']);
    expect(await ids('&include=live')).to.deep.equal(['vid00000001', 'vid00000003', 'vid00000005']);
    expect(await ids('&include=live,shorts')).to.deep.equal(['vid00000001', 'vid00000002', 'vid00000003', 'vid00000005']);
  });

  it('is part of the self link and the ETag', async () => {
    const a = await api.get(`/?channel_id=${CHANNEL}&format=Json&include=Shorts`);
    const b = await api.get(`/?channel_id=${CHANNEL}&format=Json`);
    expect(((await a.json()) as { feed_url: string }).feed_url).to.match(/&format=Json&include=shorts$/);
    expect(a.headers.get('etag')).not.to.equal(b.headers.get('etag'));
  });

  it('answers 400 with the Turkish entry for an unknown value', async () => {
    const res = await api.get(`/?channel_id=${CHANNEL}&include=upcoming`);
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: string }).error).to.equal('Geçersiz include değeri');
  });

  it('is described in /info beside the spec usage, with an example that works', async () => {
    const info = (await (await api.get('/info')).json()) as { usage: object; extra_usage: Record<string, string>; examples: string[] };
    expect(Object.keys(info.usage)).to.deep.equal(['channel_id', 'channel', 'channel_url', 'format', 'max_items']);
    expect(info.extra_usage.include).to.include('shorts,live');
    const example = info.examples.find((e) => e.includes('include='))!;
    expect((await api.get(example)).status).to.equal(200);
  });
});

describe('lang over HTTP', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    await api.store.upsertVideos([video(1, { language: 'en', kind: 'manual' })], [
      transcriptRecord(video(1)),
      { videoId: 'vid00000001', language: 'tr', kind: 'translated', paragraphs: [{ startMs: 2_000, text: 'Merhaba & hoş geldiniz' }], fetchedAt: video(1).fetchedAt },
    ]);
  });
  after(() => api.close());

  it('shows the stored language, names it in the self link, and records what the reader asked for', async () => {
    const res = await api.get(`/?channel_id=${CHANNEL}&format=Json&lang=TR,de`);
    expect(res.status).to.equal(200);
    const doc = (await res.json()) as { feed_url: string; items: { content_html: string }[] };
    expect(doc.feed_url).to.match(/&format=Json&lang=tr,de$/);
    // Neither Turkish nor German of its own: the platform's Turkish translation.
    expect(doc.items[0]!.content_html).to.include('Turkish (tr), machine-translated captions');
    expect(doc.items[0]!.content_html).to.include('&amp;t=2s">0:02</a> Merhaba &amp; hoş geldiniz');
    expect(await api.store.wantedLanguages(CHANNEL, 5, api.now)).to.have.members(['tr', 'de']);
    // English first: the video's own English before a translation.
    const en = (await (await api.get(`/?channel_id=${CHANNEL}&format=Json&lang=en,tr`)).json()) as { items: { content_html: string }[] };
    expect(en.items[0]!.content_html).to.equal(entryHtmlOf(video(1)));
  });

  it('answers 400 with the Turkish entry for a bad list, and lists lang in /info', async () => {
    const res = await api.get(`/?channel_id=${CHANNEL}&lang=tr,en,de,fr,es,ja`);
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: string }).error).to.equal('Geçersiz lang değeri');
    const info = (await (await api.get('/info')).json()) as { extra_usage: Record<string, string>; examples: string[] };
    expect(info.extra_usage.lang).to.include('tr,en');
    const example = info.examples.find((e) => e.includes('lang='))!;
    expect((await api.get(example)).status).to.equal(200);
  });
});

describe('a damaged transcripts row', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    const fetchedAt = video(1).fetchedAt;
    await api.store.upsertVideos([video(1, { language: 'en', kind: 'manual' }), video(2, { language: 'en', kind: 'manual' })], [
      { videoId: 'vid00000001', language: 'en', kind: 'manual', paragraphs: [{ startMs: 0, text: 'fine' }], fetchedAt },
      { videoId: 'vid00000002', language: 'en', kind: 'manual', paragraphs: [{ startMs: 0, text: 'will break' }], fetchedAt: video(2).fetchedAt },
    ]);
    const db = new Database(path.join(api.dir, 'api.db'));
    try {
      db.prepare("UPDATE transcripts SET paragraphs = '[{\"startMs\":\"x\"' WHERE video_id = ?").run('vid00000002');
    } finally {
      db.close();
    }
  });
  after(() => api.close());

  it('is left out: the entry says its transcript could not be read, the rest of the feed renders', async () => {
    expect((await api.store.getTranscripts(['vid00000001', 'vid00000002'])).map((t) => t.videoId)).to.deep.equal(['vid00000001']);
    const res = await api.get(`/?channel_id=${CHANNEL}&format=Json`);
    expect(res.status).to.equal(200);
    const doc = (await res.json()) as { items: { id: string; content_html: string }[] };
    expect(doc.items[0]!.content_html).to.include('&amp;t=0s">0:00</a> fine');
    expect(doc.items[1]!.content_html).to.equal(UNREADABLE_TRANSCRIPT_NOTE);
  });
});
