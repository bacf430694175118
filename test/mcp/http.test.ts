// The MCP server over Streamable HTTP at /mcp, driven by the SDK's own Client against the real API
// on port 0 and a seeded SQLite store: the handshake and tool schemas, every tool, paging of a
// three-hour transcript, the resources, keys (bearer, X-API-Key, disabled, missing), the shared rate
// limit, sessions bound to their key, cross-origin requests, bad input and the search's hostile
// queries, and a follow that registers work without a platform request.

import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DISABLED_KEY, KEY, LIMIT, LIMITED_KEY, startApi, type TestApi } from '../api/support';
import { HOSTILE_TEXT, LONG_PARAGRAPHS, LONG_VIDEO, MCP_CHANNEL, NO_CAPTIONS, seedArchive } from './seed';

type Structured = Record<string, unknown>;
interface ToolAnswer { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Structured }

async function connect(api: TestApi, key: string = KEY, header: 'bearer' | 'x-api-key' = 'bearer'): Promise<Client> {
  const headers: Record<string, string> = header === 'bearer' ? { Authorization: `Bearer ${key}` } : { 'X-API-Key': key };
  const client = new Client({ name: 'transcript-feed-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api.base}/mcp`), { requestInit: { headers } }));
  return client;
}

const call = async (c: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> => (await c.callTool({ name, arguments: args })) as ToolAnswer;

const rpc = (api: TestApi, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${api.base}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

describe('MCP over Streamable HTTP', () => {
  let api: TestApi;
  let client: Client;
  before(async () => {
    api = await startApi();
    await seedArchive(api.store);
    client = await connect(api);
  });
  after(async () => {
    await client?.close();
    await api?.close();
  });

  it('initializes and lists the five tools, each with an input and an output schema', async () => {
    expect(client.getServerVersion()?.name).to.equal('YouTube Transcript Feed');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).to.deep.equal(['follow_channel', 'get_transcript', 'list_subscriptions', 'list_videos', 'search_transcripts']);
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).to.equal('object');
      expect(t.outputSchema?.type, t.name).to.equal('object');
      expect(t.description, t.name).to.be.a('string').with.length.greaterThan(10);
    }
    const search = tools.find((t) => t.name === 'search_transcripts')!;
    expect(search.inputSchema.required).to.deep.equal(['query']);
  });

  it('search_transcripts: hits newest first with their matching paragraphs, start seconds and a watch URL; structured and as text alike', async () => {
    const r = await call(client, 'search_transcripts', { query: 'heat pump' });
    expect(r.isError).to.not.equal(true);
    const hits = (r.structuredContent as { hits: Structured[] }).hits;
    expect(JSON.parse(r.content[0]!.text!)).to.deep.equal(r.structuredContent);
    expect(hits.map((h) => h.video_id)).to.deep.equal(['vid00000001', 'vid00000002', 'vid00000003']);
    expect(hits[0]).to.deep.include({ title: 'Heat pumps explained', channel_id: MCP_CHANNEL, channel_title: 'Energy Talks', url: 'https://youtube.com/watch?v=vid00000001' });
    expect(hits[0]!.paragraphs).to.deep.equal([{ start: 60, text: 'A heat pump moves heat instead of making it.' }]);
    expect(hits[0]!.published).to.match(/^\d{4}-\d\d-\d\dT/);
    // Platform text is data: the hostile title comes back as the same text, unchanged.
    expect(hits[1]!.title).to.equal(HOSTILE_TEXT);
    // and a matching paragraph is the stored text itself (no entity or <mark> left from the feed's HTML).
    const markup = await call(client, 'search_transcripts', { query: 'onerror' });
    expect((markup.structuredContent as { hits: { paragraphs: unknown[] }[] }).hits[0]!.paragraphs).to.deep.equal([{ start: 0, text: HOSTILE_TEXT }]);
    const limited = await call(client, 'search_transcripts', { query: 'heat pump', limit: 1, channels: [MCP_CHANNEL] });
    expect((limited.structuredContent as { hits: unknown[] }).hits).to.have.length(1);
    const since = await call(client, 'search_transcripts', { query: 'heat pump', since: new Date(Date.UTC(2025, 0, 1, 10, 30)).toISOString() });
    expect((since.structuredContent as { hits: Structured[] }).hits.map((h) => h.video_id)).to.deep.equal(['vid00000001']);
  });

  it('get_transcript: timed paragraphs with chapters, language and kind; a language; a time range', async () => {
    const r = (await call(client, 'get_transcript', { video_id: 'vid00000001' })).structuredContent!;
    expect(r).to.deep.include({ video_id: 'vid00000001', language: 'en', kind: 'manual' });
    expect(r.chapters).to.deep.equal([{ start: 0, title: 'Intro' }, { start: 60, title: 'How they work' }, { start: 150, title: 'Costs' }]);
    expect(r.paragraphs).to.have.length(3);
    expect(r.next_cursor).to.equal(undefined);
    const tr = (await call(client, 'get_transcript', { video_id: 'vid00000003', lang: 'tr' })).structuredContent!;
    expect(tr).to.deep.include({ language: 'tr' });
    const en = (await call(client, 'get_transcript', { video_id: 'vid00000003', lang: 'en' })).structuredContent!;
    expect(en).to.deep.include({ language: 'en', kind: 'translated' });
    // 70 s to 100 s overlaps the paragraph that starts at 60 s (it runs to 150 s) and no other.
    const range = (await call(client, 'get_transcript', { video_id: 'vid00000001', start: 70, end: 100 })).structuredContent!;
    expect(range.paragraphs).to.deep.equal([{ start: 60, text: 'A heat pump moves heat instead of making it.' }]);
  });

  it('get_transcript pages a three-hour transcript at about 50 KB, every paragraph once, in order', async () => {
    const seen: { start: number; text: string }[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await call(client, 'get_transcript', { video_id: LONG_VIDEO, ...(cursor === undefined ? {} : { cursor }) });
      const page = r.structuredContent as { paragraphs: { start: number; text: string }[]; next_cursor?: string };
      expect(Buffer.byteLength(JSON.stringify(page.paragraphs))).to.be.below(60_000);
      seen.push(...page.paragraphs);
      cursor = page.next_cursor;
      pages++;
    } while (cursor !== undefined && pages < 20);
    expect(pages).to.be.within(3, 5);
    expect(seen).to.deep.equal(LONG_PARAGRAPHS.map((p) => ({ start: p.startMs / 1000, text: p.text })));
  });

  it('a video or channel the archive does not hold is a tool error that says so and what to do, never a platform request', async () => {
    const missing = await call(client, 'get_transcript', { video_id: 'zzzzzzzzzzz' });
    expect(missing.isError).to.equal(true);
    expect(missing.content[0]!.text).to.match(/not stored in this archive; follow its channel/);
    const none = await call(client, 'get_transcript', { video_id: NO_CAPTIONS });
    expect(none.isError).to.equal(true);
    expect(none.content[0]!.text).to.match(/no transcript is stored \(state: no_transcript/);
    const handle = await call(client, 'list_videos', { channel: '@nobodyknows' });
    expect(handle.content[0]!.text).to.match(/not known to this archive yet; follow_channel queues it/);
    expect(api.platform.calls).to.deep.equal([]);
  });

  it('list_videos: newest first with has_transcript; list_subscriptions and follow_channel: the key\'s follows with their state, at once', async () => {
    const listed = (await call(client, 'list_videos', { channel: MCP_CHANNEL })).structuredContent as { videos: Structured[] };
    expect(listed.videos.map((v) => [v.video_id, v.has_transcript])).to.deep.include.members([['vid00000001', true], ['vid00000009', true]]);
    const followed = (await call(client, 'follow_channel', { channel: MCP_CHANNEL })).structuredContent!;
    expect(followed).to.deep.include({ id: MCP_CHANNEL, kind: 'channel', title: 'Energy Talks' });
    const queued = (await call(client, 'follow_channel', { channel: '@SomeoneNew' })).structuredContent!;
    expect(queued).to.deep.include({ id: '@someonenew', kind: 'channel' });
    expect(queued.state).to.match(/queued/);
    const other = 'UCother0000000000000000A';
    await call(client, 'follow_channel', { channel: `https://www.youtube.com/channel/${other}` });
    expect(await api.store.getChannel(other), 'registered as the crawler\'s work').to.not.equal(null);
    const subs = (await call(client, 'list_subscriptions')).structuredContent as { subscriptions: Structured[] };
    expect(subs.subscriptions.map((s) => s.id).sort()).to.deep.equal(['@someonenew', MCP_CHANNEL, other].sort());
    expect(subs.subscriptions.find((s) => s.id === other)!.state).to.equal('waiting for the first batch');
    const mine = (await call(client, 'list_videos', { subscriptions: true })).structuredContent as { videos: Structured[] };
    expect(mine.videos.length).to.be.greaterThan(0);
    expect(api.platform.calls, 'no handle was looked up').to.deep.equal([]);
  });

  it('resources: transcript://<video_id> as WebVTT and plain text', async () => {
    const r = await client.readResource({ uri: 'transcript://vid00000001' });
    expect(r.contents.map((c) => c.mimeType)).to.deep.equal(['text/vtt', 'text/plain']);
    expect((r.contents[0] as { text: string }).text).to.match(/^WEBVTT\n/);
    expect((r.contents[1] as { text: string }).text).to.contain('A heat pump moves heat instead of making it.');
    let failed: Error | null = null;
    await client.readResource({ uri: 'transcript://zzzzzzzzzzz' }).catch((err: Error) => (failed = err));
    expect(String(failed)).to.match(/not stored in this archive/);
  });

  it('bad input: wrong types and unknown tools are errors with a clear text; the hostile search queries never crash or leak an engine\'s text', async () => {
    const wrong = await call(client, 'search_transcripts', { query: 42 });
    expect(wrong.isError).to.equal(true);
    expect(wrong.content[0]!.text).to.match(/query/);
    const unknown = await call(client, 'no_such_tool');
    expect(unknown.isError).to.equal(true);
    expect(unknown.content[0]!.text).to.match(/no_such_tool/);
    const long = await call(client, 'search_transcripts', { query: 'x'.repeat(1001) });
    expect(long.isError).to.equal(true);
    const HOSTILE = [
      'NEAR(open source)', 'open*', '*', '^open', 'title:open', '"open', '"""', '(open', 'open AND source', 'NOT open', 'OR', '- -', '-', '$where',
      '{"$where": "sleep(1000)"}', "'; DROP TABLE videos; --", 'open\u0000source', '\uFFFF', '𝕠𝕡𝕖𝕟', 'x'.repeat(200), 'x'.repeat(201), 'rowid:1', '%', '<script>alert(1)</script>', ']]>',
    ];
    for (const q of HOSTILE) {
      const r = await call(client, 'search_transcripts', { query: q });
      const text = r.content.map((c) => c.text ?? '').join(' ');
      expect(text, JSON.stringify(q)).to.not.match(/fts5|syntax error|sqlite|no such column|MongoServerError|malformed MATCH|inside the service/i);
      if (r.isError !== true) expect((r.structuredContent as { hits: unknown[] }).hits, JSON.stringify(q)).to.be.an('array');
    }
  });

  it('keys: X-API-Key works as the bearer does; no key, an unknown or a disabled key is a JSON 401', async () => {
    const other = await connect(api, KEY, 'x-api-key');
    expect((await other.listTools()).tools).to.have.length(5);
    await other.close();
    const refused: Record<string, string>[] = [{}, { Authorization: 'Bearer not-a-configured-key' }, { Authorization: `Bearer ${DISABLED_KEY}` }, { 'X-API-Key': DISABLED_KEY }];
    for (const headers of refused) {
      const res = await rpc(api, INIT, headers);
      expect(res.status, JSON.stringify(headers)).to.equal(401);
      expect(((await res.json()) as { error: string }).error).to.be.a('string');
    }
    // The key in the URL is not how MCP clients present it, and is not read.
    expect((await fetch(`${api.base}/mcp?api_key=${KEY}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify(INIT) })).status).to.equal(401);
  });

  it('every request counts against the key\'s rate limit, in the same count as its feeds: a tools/call is one', async () => {
    const headers = { Authorization: `Bearer ${LIMITED_KEY}` };
    const init = await rpc(api, INIT, headers);
    expect(init.status).to.equal(200);
    expect(init.headers.get('x-ratelimit-remaining')).to.equal(String(LIMIT - 1));
    const session = { ...headers, 'Mcp-Session-Id': init.headers.get('mcp-session-id')!, 'Mcp-Protocol-Version': '2025-06-18' };
    expect((await rpc(api, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).to.equal(202);
    const first = await rpc(api, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_subscriptions', arguments: {} } }, session);
    expect(first.status).to.equal(200);
    expect(first.headers.get('x-ratelimit-remaining')).to.equal('0');
    expect((await api.get('/info', { key: LIMITED_KEY })).status, 'the feed count is the same count').to.equal(429);
    expect((await rpc(api, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_subscriptions', arguments: {} } }, session)).status).to.equal(429);
  });

  it('a session belongs to its key: another key presenting its id is told it does not exist; a cross-site Origin is refused', async () => {
    const init = await rpc(api, INIT, { Authorization: `Bearer ${KEY}` });
    const id = init.headers.get('mcp-session-id')!;
    const theirs = await rpc(api, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'X-API-Key': 'test-key-admin-0004', 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-06-18' });
    expect(theirs.status).to.equal(404);
    const cross = await rpc(api, INIT, { Authorization: `Bearer ${KEY}`, Origin: 'https://evil.example' });
    expect(cross.status).to.equal(403);
    const same = await rpc(api, INIT, { Authorization: `Bearer ${KEY}`, Origin: api.base });
    expect(same.status).to.equal(200);
  });

  it('no log line carries a key', () => {
    for (const line of api.logs) for (const k of [KEY, LIMITED_KEY, DISABLED_KEY]) expect(line).to.not.contain(k);
  });
});
