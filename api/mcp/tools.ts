// The MCP server of one API key: its five tools and the transcript resources, on the official SDK
// (McpServer: schemas, validation, JSON-RPC and errors are the SDK's). Every tool answers from the
// store (archive.ts) with structured content and the same as JSON text; a failure an agent can act
// on is a tool error (isError) with a clear text, never a crash and never an engine's message.

import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Logger } from '../../shared/logger';
import { renderTranscriptFile } from '../feed/transcript-files';
import { SERVICE_NAME, VERSION } from '../service-info';
import {
  MAX_LIMIT, ToolFailure, followChannel, getTranscript, listSubscriptions, listVideos, searchTranscripts, type ArchiveStore,
} from './archive';

export interface McpDeps {
  store: ArchiveStore;
  /** The key every call of this server acts for (its digest id, never the key). */
  keyId: string;
  clock: () => Date;
  logger: Logger;
  /** Asked before each call (stdio: the key may be disabled while the assistant runs). */
  stillAllowed?: () => boolean;
}

const video = {
  video_id: z.string(), title: z.string(), channel_id: z.string(), channel_title: z.string().nullable(),
  published: z.string().describe('ISO 8601'), url: z.string().describe('watch URL'),
};
const paragraph = z.object({ start: z.number().describe('seconds from the start'), text: z.string() });
const followed = z.object({ id: z.string(), kind: z.enum(['channel', 'playlist']), title: z.string().nullable(), state: z.string() });
const limit = (def: number) => z.number().int().min(1).max(MAX_LIMIT).optional().describe(`at most ${MAX_LIMIT}; default ${def}`);

/** One call: structured content, the same as text, or the failure as a tool error. */
async function answer<T extends Record<string, unknown>>(d: McpDeps, tool: string, work: () => Promise<T>): Promise<CallToolResult> {
  const log = d.logger;
  try {
    if (d.stillAllowed?.() === false) throw new ToolFailure('this API key has been disabled or removed from the key file');
    const out = await work();
    return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out };
  } catch (err) {
    if (err instanceof ToolFailure) return { isError: true, content: [{ type: 'text', text: err.message }] };
    log.error({ tool, err }, 'MCP tool failed');
    return { isError: true, content: [{ type: 'text', text: `${tool} failed inside the service; the operator's log has the details` }] };
  }
}

export function createMcpServer(d: McpDeps): McpServer {
  const server = new McpServer({ name: SERVICE_NAME, version: VERSION }, {
    // logging/setLevel is answered (the SDK's own handler); the server sends no log messages yet.
    capabilities: { logging: {} },
    instructions: 'An archive of video transcripts (YouTube channels this service follows). Every answer comes from what is stored; nothing is fetched from the platform while you wait. follow_channel queues a channel for the crawler.',
  });

  server.registerTool('search_transcripts', {
    description: 'Search everything said in the stored transcripts (the search feed\'s query language: words, "exact phrases", OR, -exclude). Hits are newest first, each with its matching paragraphs and a watch URL at the moment.',
    inputSchema: {
      query: z.string().min(1).max(1000).describe('e.g. solar "heat pump" -gas'),
      channels: z.array(z.string().max(200)).max(20).optional().describe('channel ids (UC…), @handles or channel URLs to search within'),
      subscriptions: z.boolean().optional().describe('only the channels this key follows'),
      since: z.string().max(40).optional().describe('only videos published at or after this date (ISO 8601)'),
      limit: limit(10),
    },
    outputSchema: { hits: z.array(z.object({ ...video, paragraphs: z.array(paragraph) })) },
    annotations: { readOnlyHint: true },
  }, (a) => answer(d, 'search_transcripts', async () => ({ hits: await searchTranscripts(d.store, d.keyId, a) })));

  server.registerTool('get_transcript', {
    description: 'A stored transcript as timed paragraphs with the creator\'s chapters, its language and kind. Long transcripts come in pages of about 50 KB: pass next_cursor back as cursor. start/end (seconds) return the paragraphs that overlap that range.',
    inputSchema: {
      video_id: z.string().max(20), lang: z.string().max(20).optional().describe('a stored language, e.g. en or tr'),
      start: z.number().min(0).optional(), end: z.number().min(0).optional(), cursor: z.string().max(20).optional(),
    },
    outputSchema: {
      video_id: z.string(), language: z.string(), kind: z.string(), title: z.string(),
      chapters: z.array(z.object({ start: z.number(), title: z.string() })), paragraphs: z.array(paragraph),
      summary: z.string().optional(), next_cursor: z.string().optional(),
    },
    annotations: { readOnlyHint: true },
  }, (a) => answer(d, 'get_transcript', async () => ({ ...(await getTranscript(d.store, a)) })));

  server.registerTool('list_videos', {
    description: 'Stored videos, newest first (a playlist in its own order), with whether a transcript is stored. Name one of channel, playlist or subscriptions.',
    inputSchema: {
      channel: z.string().max(200).optional(), playlist: z.string().max(80).optional(), subscriptions: z.boolean().optional(),
      since: z.string().max(40).optional(), limit: limit(20),
    },
    outputSchema: { videos: z.array(z.object({ ...video, has_transcript: z.boolean() })) },
    annotations: { readOnlyHint: true },
  }, (a) => answer(d, 'list_videos', async () => ({ videos: await listVideos(d.store, d.keyId, a) })));

  server.registerTool('list_subscriptions', {
    description: 'The channels and playlists this key follows, each with what the crawler is doing with it.',
    inputSchema: {},
    outputSchema: { subscriptions: z.array(followed) },
    annotations: { readOnlyHint: true },
  }, () => answer(d, 'list_subscriptions', async () => ({ subscriptions: await listSubscriptions(d.store, d.keyId, d.clock()) })));

  server.registerTool('follow_channel', {
    description: 'Follow a channel (id, @handle or channel URL) as reading its feed does: the crawler fetches its newest videos. Answers at once with its state; it never waits for the platform.',
    inputSchema: { channel: z.string().min(1).max(200) },
    outputSchema: followed.shape,
    annotations: { readOnlyHint: false, idempotentHint: true },
  }, (a) => answer(d, 'follow_channel', async () => ({ ...(await followChannel(d.store, d.keyId, a.channel, d.clock())) })));

  server.registerResource('transcript', new ResourceTemplate('transcript://{video_id}', { list: undefined }), {
    description: 'A stored transcript as WebVTT (text/vtt) and plain text (text/plain)',
    mimeType: 'text/vtt',
  }, async (uri, vars) => {
    const id = String(Array.isArray(vars.video_id) ? vars.video_id[0] : vars.video_id);
    let page;
    try {
      page = await getTranscript(d.store, { video_id: id });
    } catch (err) {
      // The SDK answers a thrown error as a JSON-RPC error with this text.
      throw new Error(err instanceof ToolFailure ? err.message : 'the transcript could not be read', { cause: err });
    }
    const [v] = await d.store.getVideos([id]);
    const whole = (await d.store.getTranscripts([id])).find((t) => t.language === page.language && t.kind === page.kind)!;
    const duration = v?.durationSeconds ?? null;
    return {
      contents: [
        { uri: uri.href, mimeType: 'text/vtt', text: renderTranscriptFile('vtt', whole, duration) },
        { uri: uri.href, mimeType: 'text/plain', text: renderTranscriptFile('txt', whole, duration) },
      ],
    };
  });
  return server;
}
