// POST/GET/DELETE /mcp: the MCP server over Streamable HTTP, with the SDK's own session handling
// (one transport and one McpServer per session). Every request presents an API key
// (`Authorization: Bearer <key>` or `X-API-Key`; never in the URL) and is counted against the
// key's rate limit in the same count as its feed requests: a tools/call is one request. A session
// belongs to the key that opened it; another key presenting its id is told it does not exist.
// Sessions are bounded per key and expire when idle, so a client that never says goodbye costs
// nothing for long.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { categoryLogger, type Logger } from '../../shared/logger';
import { authorizer } from '../http/keyed';
import type { KeySource } from '../http/key-source';
import type { RateLimitStore as HitStore } from '../../shared/store/types';
import type { ArchiveStore } from './archive';
import { createMcpServer } from './tools';
import { json } from '../http/answer';

export interface McpRouteDeps {
  store: ArchiveStore & HitStore;
  keys: KeySource;
  clock: () => Date;
  logger: Logger;
  /** The service's own origin(s): a browser request from any other Origin is refused (DNS rebinding, CSRF). */
  sameOrigin: (req: IncomingMessage, origin: string) => boolean;
  /** PUBLIC_BASE_URL: the one host a browser may name besides loopback's. */
  publicBaseUrl: string | null;
}

const LOOPBACK_HOST = /^(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(?::\d+)?$/i;

/**
 * A browser's request (it carries an Origin) must come from the service's own origin, on a host the
 * service knows it has: loopback, or PUBLIC_BASE_URL's. A page on another name that resolves here
 * (DNS rebinding) is refused even though its Origin and Host agree. Clients that are not browsers
 * send no Origin and reach the service under any name.
 */
function browserAllowed(req: IncomingMessage, deps: McpRouteDeps): boolean {
  const origin = req.headers.origin;
  if (typeof origin !== 'string') return true;
  if (!deps.sameOrigin(req, origin)) return false;
  const host = req.headers.host ?? '';
  return LOOPBACK_HOST.test(host) || (deps.publicBaseUrl !== null && new URL(deps.publicBaseUrl).host.toLowerCase() === host.toLowerCase());
}

/** Sessions one key may hold open; the least recently used goes when another opens. */
export const MAX_SESSIONS_PER_KEY = 8;
/** A session unused this long is closed at the next request that looks. */
export const SESSION_IDLE_MS = 30 * 60_000;

interface Session {
  transport: StreamableHTTPServerTransport;
  keyId: string;
  lastUsed: number;
}

/** The key as MCP clients send it: a bearer token, or the service's X-API-Key header. */
function mcpKey(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1]!;
  }
  const header = req.headers['x-api-key'];
  return typeof header === 'string' && header !== '' ? header : null;
}

function rpcError(res: ServerResponse, status: number, message: string): void {
  json(res, status, { jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

export function mcpRoute(deps: McpRouteDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const authorize = authorizer(deps.keys, deps.store, deps.clock, { present: mcpKey });
  const sessions = new Map<string, Session>();
  const log = categoryLogger(deps.logger, 'api.mcp');

  const sweep = (now: number): void => {
    for (const s of sessions.values()) if (now - s.lastUsed > SESSION_IDLE_MS) void s.transport.close();
  };
  const makeRoom = (keyId: string): void => {
    const own = [...sessions.values()].filter((s) => s.keyId === keyId).sort((a, b) => a.lastUsed - b.lastUsed);
    for (const s of own.slice(0, Math.max(0, own.length - MAX_SESSIONS_PER_KEY + 1))) void s.transport.close();
  };

  return async (req, res) => {
    if (!browserAllowed(req, deps)) return rpcError(res, 403, 'Forbidden: a browser request from another origin or an unknown host name');
    const key = await authorize(req, res);
    const now = deps.clock().getTime();
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const s = sessions.get(sessionId);
      // Another key's session is answered exactly as an unknown one: its id says nothing.
      if (s === undefined || s.keyId !== key.keyId) return rpcError(res, 404, 'Session not found');
      s.lastUsed = now;
      await s.transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') return rpcError(res, 400, 'Bad Request: no Mcp-Session-Id; initialize with a POST first');
    sweep(now);
    makeRoom(key.keyId);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, keyId: key.keyId, lastUsed: now });
        log.info({ key: key.name, sessions: sessions.size }, 'MCP session opened');
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    const server = createMcpServer({ store: deps.store, keyId: key.keyId, clock: deps.clock, logger: deps.logger });
    await server.connect(transport);
    await transport.handleRequest(req, res);
    // A first request that was not a valid initialize opened no session: nothing to keep.
    if (transport.sessionId === undefined) await server.close();
  };
}
