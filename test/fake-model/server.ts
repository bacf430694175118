// A fake OpenAI-compatible model server on loopback (issue 31's tests and bench): real HTTP,
// `POST /v1/chat/completions`, every request recorded, answers scripted. Modes stand for the
// faults a real server has: down (connections refused), slow (the answer stalls), 429 with
// Retry-After, 500, garbage (not JSON), and hold (unanswered until the test releases them). By default it answers points citing the first times
// it finds in the request, which is what a well-behaved model does.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeModelMode =
  | { kind: 'ok' }
  | { kind: 'slow'; ms: number }
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  | { kind: 'error'; retryAfterSeconds?: number }
  /** Requests wait, unanswered, until release(); then they are answered as the mode then says. */
  | { kind: 'hold' }
  | { kind: 'garbage' };

export interface RecordedRequest {
  readonly authorization: string | null;
  readonly body: { model?: string; messages?: { role: string; content: string }[]; temperature?: number; stream?: boolean };
}

/** Given a request's messages, the completion's text; default: points at the first bracketed times. */
export type Scripter = (messages: readonly { role: string; content: string }[]) => string;

export const defaultScript: Scripter = (messages) => {
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  const times = [...user.matchAll(/^\[((?:\d{1,2}:)?\d{1,2}:\d{2})\] (.{0,60})/gm)].slice(0, 5);
  return times.map((m) => `- [${m[1]}] About ${m[2]}`).join('\n');
};

export class FakeModelServer {
  readonly requests: RecordedRequest[] = [];
  mode: FakeModelMode = { kind: 'ok' };
  script: Scripter = defaultScript;
  private server: Server | null = null;
  private port = 0;
  private readonly open = new Set<ServerResponse>();
  private held: (() => void)[] = [];
  /** Completions answered with 200 and a valid body. */
  answered = 0;

  /** Requests waiting in hold mode. */
  get holding(): number {
    return this.held.length;
  }

  /** Lets every held request go on, answered as the mode now says. */
  release(): void {
    const held = this.held;
    this.held = [];
    for (const go of held) go();
  }

  /** Base URL as SUMMARY_API_URL takes it. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  async start(port = 0): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Down: the port refuses connections until start() is called again on the same port. */
  async down(): Promise<void> {
    const s = this.server;
    if (!s) return;
    this.server = null;
    this.release();
    for (const res of this.open) res.destroy();
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  async up(): Promise<void> {
    if (!this.server) await this.start(this.port);
  }

  async stop(): Promise<void> {
    await this.down();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.open.add(res);
    res.on('close', () => this.open.delete(res));
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(res, 404, '{"error":"not found"}');
    let body: RecordedRequest['body'];
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'];
    } catch {
      return send(res, 400, '{"error":"bad json"}');
    }
    this.requests.push({ authorization: req.headers.authorization ?? null, body });
    if (this.mode.kind === 'hold') await new Promise<void>((resolve) => this.held.push(resolve));
    const mode = this.mode;
    if (mode.kind === 'rate-limited') return send(res, 429, '{"error":"rate limited"}', { 'retry-after': String(mode.retryAfterSeconds) });
    if (mode.kind === 'error') return send(res, 500, '{"error":"internal"}', mode.retryAfterSeconds === undefined ? {} : { 'retry-after': String(mode.retryAfterSeconds) });
    if (mode.kind === 'garbage') return send(res, 200, '<html>not a completion');
    if (mode.kind === 'slow') await new Promise((r) => setTimeout(r, mode.ms));
    if (res.destroyed || mode.kind === 'hold') return;
    const content = this.script(body.messages ?? []);
    const promptChars = (body.messages ?? []).reduce((n, m) => n + m.content.length, 0);
    this.answered += 1;
    send(res, 200, JSON.stringify({
      id: `chatcmpl-${this.requests.length}`,
      object: 'chat.completion',
      model: body.model ?? '',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: Math.ceil(promptChars / 4), completion_tokens: Math.ceil(content.length / 4), total_tokens: Math.ceil((promptChars + content.length) / 4) },
    }));
  }
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}
