// A scripted platform on 127.0.0.1 for the HTTP client's unit tests: routes answer a set number of
// times in the order they were added (a route used up no longer matches), every request is
// recorded with the headers exactly as they arrived, and a request no route expected is answered
// 501 and kept in `unexpected`. Real HTTP, so the tests see what the wire really carries.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';

export interface Seen {
  method: string;
  /** The request target exactly as sent (path and query). */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** Header names and values in the order they arrived (rawHeaders). */
  raw: string[];
  body: string;
}

export interface Reply {
  status?: number;
  /** A string or a Buffer is sent as is; anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string | string[]>;
  /** Held this long before it is sent (a platform that stalls; the client may give up first). */
  holdMs?: number;
}

interface Route {
  method: string;
  path: string | RegExp;
  left: number;
  reply: (req: Seen) => Reply;
  seen: Seen[];
}

export class RecordingServer {
  base = '';
  readonly unexpected: Seen[] = [];
  /** Every request a route answered, in the order they came. */
  readonly answered: Seen[] = [];
  private routes: Route[] = [];
  private readonly holds = new Set<NodeJS.Timeout>();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const seen: Seen = {
        method: req.method ?? '', url: req.url ?? '/', path: url.pathname, query: url.searchParams,
        headers: { ...req.headers }, raw: [...req.rawHeaders], body: Buffer.concat(chunks).toString('utf8'),
      };
      const route = this.routes.find((r) => r.left > 0 && r.method === seen.method
        && (typeof r.path === 'string' ? r.path === seen.path : r.path.test(seen.path)));
      if (!route) {
        this.unexpected.push(seen);
        res.writeHead(501).end('no route');
        return;
      }
      route.left -= 1;
      route.seen.push(seen);
      this.answered.push(seen);
      const r = route.reply(seen);
      const raw = r.body === undefined || typeof r.body === 'string' || Buffer.isBuffer(r.body);
      const headers = { ...(raw ? {} : { 'content-type': 'application/json' }), ...r.headers };
      const send = () => res.writeHead(r.status ?? 200, headers).end(raw ? ((r.body as string | Buffer | undefined) ?? '') : JSON.stringify(r.body));
      if (!r.holdMs) return void send();
      const timer = setTimeout(() => {
        this.holds.delete(timer);
        send();
      }, r.holdMs);
      this.holds.add(timer);
      res.on('close', () => {
        clearTimeout(timer);
        this.holds.delete(timer);
      });
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Answers `times` requests of `method path`; returns the requests it answered, as they come. */
  on(method: 'GET' | 'POST', path: string | RegExp, reply: Reply | ((req: Seen) => Reply), times = 1): Seen[] {
    const seen: Seen[] = [];
    this.routes.push({ method, path, left: times, reply: typeof reply === 'function' ? reply : () => reply, seen });
    return seen;
  }

  /** Routes with answers left (what nock called pending mocks). */
  pending(): number {
    return this.routes.filter((r) => r.left > 0).length;
  }

  /** Forgets every route and every unexpected request (between tests). */
  reset(): void {
    this.routes = [];
    this.unexpected.length = 0;
    this.answered.length = 0;
  }

  async close(): Promise<void> {
    for (const timer of this.holds) clearTimeout(timer);
    this.holds.clear();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * `server` for the enclosing mocha describe: started before its tests, closed after them, and
 * checked after each one, so a request no route expected fails that test.
 */
export function useRecordingServer(server = new RecordingServer()): RecordingServer {
  before(() => server.start());
  after(() => server.close());
  afterEach(() => {
    const unexpected = server.unexpected.map((r) => `${r.method} ${r.path}`);
    server.reset();
    expect(unexpected, 'requests the test did not expect').to.deep.equal([]);
  });
  return server;
}
