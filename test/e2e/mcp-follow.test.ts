// An assistant follows a channel through MCP, and the running crawler fetches it: the real API and
// crawler processes on a SQLite file against the fake platform, the SDK's Client over Streamable
// HTTP. follow_channel answers at once (the channel queued, no platform request while it waits);
// the crawler lists the channel and stores its transcripts; then search_transcripts finds what was
// said and get_transcript returns it.

import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { waitFor } from '../support/poll';
import { startServicePair, type ServicePair } from '../support/service-pair';

const KEY = 'e2e-mcp-key-0000000001';

describe('an assistant follows a channel through MCP, and the crawler fetches it', function () {
  this.timeout(120_000);
  const channel = makeChannel({ handle: 'mcptalks', title: 'MCP Talks', count: 4, seed: 11, captionsMix: { manual: 1 } });
  let fake: FakePlatform;
  let pair: ServicePair;
  let client: Client;
  before(async () => {
    fake = await startFakePlatform({ channels: [channel] });
    pair = await startServicePair({ prefix: 'tf-e2e-mcp-', key: KEY, keyName: 'assistant', platformUrl: fake.url });
    client = new Client({ name: 'assistant', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${pair.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }));
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await pair?.kill();
    await fake?.close();
  });

  it('follow_channel answers at once; the crawler stores the channel; its transcripts are searchable and readable', async () => {
    const followed = await client.callTool({ name: 'follow_channel', arguments: { channel: `https://www.youtube.com/channel/${channel.channelId}` } });
    expect(followed.structuredContent).to.deep.include({ id: channel.channelId, kind: 'channel' });
    const listed = await waitFor('the crawler to store the followed channel\'s videos', async () => {
      const r = await client.callTool({ name: 'list_videos', arguments: { channel: channel.channelId } });
      const videos = (r.structuredContent as { videos?: { video_id: string; has_transcript: boolean }[] } | undefined)?.videos ?? [];
      return videos.some((v) => v.has_transcript) ? videos : undefined;
    }, 90_000);
    const stored = listed.find((v) => v.has_transcript)!;
    const transcript = (await client.callTool({ name: 'get_transcript', arguments: { video_id: stored.video_id } })).structuredContent as { paragraphs: { start: number; text: string }[] };
    expect(transcript.paragraphs.length).to.be.greaterThan(0);
    const word = transcript.paragraphs[0]!.text.split(/\s+/).find((w) => /^[A-Za-z]{5,}$/.test(w))!;
    const hits = (await client.callTool({ name: 'search_transcripts', arguments: { query: word, subscriptions: true } })).structuredContent as { hits: { video_id: string }[] };
    expect(hits.hits.map((h) => h.video_id)).to.include(stored.video_id);
    const subs = (await client.callTool({ name: 'list_subscriptions', arguments: {} })).structuredContent as { subscriptions: { id: string; title: string | null }[] };
    expect(subs.subscriptions.find((s) => s.id === channel.channelId)?.title).to.equal('MCP Talks');
  });
});
