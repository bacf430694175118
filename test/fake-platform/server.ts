// The fake platform's HTTP server: the route table, the order in which scenario switches take
// effect, counters, and the wire details (gzip when asked, Content-Length, closing cleanly).
//
// Order for every platform request: count it → JS challenge → 429 window → captcha → 5xx →
// (HTML pages only) consent wall → the endpoint (which applies its own switches: feed outage,
// bot check, rate limit, poison, empty timed text) → malformed → slow → send.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { CounterName, FakeChannelSpec, FakeCounters, FakePlaylistSpec, FakeVideoSpec } from './types';
import { emptyCounters } from './types';
import { Catalog } from './catalog';
import { JsChallenge } from './challenge';
import type { FakeContext, PlayerCall } from './context';
import { controlRoute } from './control';
import { errorPage, internalJson } from './errors';
import { feedRoute } from './feed-xml';
import { html, parseCookies, type FakeRequest, type FakeResponse } from './http';
import { browseCounter, browseRoute, playerRoute, resolveRoute } from './routes-innertube';
import { visitorIdRoute } from './identity';
import { channelPageRoute, handlePageRoute, watchRoute } from './routes-pages';
import { Scenarios, type ScenarioControls, type ScenarioState } from './scenarios';
import { timedTextRoute } from './timedtext';
import { embedRoute } from './embed';
import { PlayerTokens } from './player-tokens';
import { captchaPage, consentPage, consentRedirect, hasConsent } from './walls';

interface Route {
  method: 'GET' | 'POST';
  path: RegExp;
  counter: CounterName | ((req: FakeRequest) => CounterName);
  /** HTML pages: behind the consent wall. */
  page?: boolean;
  /** JSON endpoints answer errors in JSON. */
  innertube?: boolean;
  handle: (ctx: FakeContext, req: FakeRequest) => FakeResponse;
}

const ROUTES: Route[] = [
  { method: 'POST', path: /^\/youtubei\/v1\/navigation\/resolve_url$/, counter: 'resolve', innertube: true, handle: resolveRoute },
  { method: 'POST', path: /^\/youtubei\/v1\/browse$/, counter: browseCounter, innertube: true, handle: browseRoute },
  { method: 'POST', path: /^\/youtubei\/v1\/player$/, counter: 'player', innertube: true, handle: playerRoute },
  { method: 'POST', path: /^\/youtubei\/v1\/visitor_id$/, counter: 'visitorId', innertube: true, handle: visitorIdRoute },
  { method: 'GET', path: /^\/feeds\/videos\.xml$/, counter: 'feed', handle: feedRoute },
  { method: 'GET', path: /^\/api\/timedtext$/, counter: 'timedtext', handle: timedTextRoute },
  { method: 'GET', path: /^\/watch$/, counter: 'watch', page: true, handle: watchRoute },
  { method: 'GET', path: /^\/embed\/[^/]+$/, counter: 'embed', page: true, handle: embedRoute },
  { method: 'GET', path: /^\/@[^/]+(\/.*)?$/, counter: 'handlePage', page: true, handle: handlePageRoute },
  { method: 'GET', path: /^\/channel\/[^/]+(\/.*)?$/, counter: 'channelPage', page: true, handle: channelPageRoute },
];

export interface StartOptions {
  channels?: FakeChannelSpec[];
  /** Playlists of the hosted channels' videos (after the channels). */
  playlists?: FakePlaylistSpec[];
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface FakePlatform {
  /** `http://127.0.0.1:<port>`: use as PLATFORM_BASE_URL. */
  readonly url: string;
  readonly port: number;
  /** A snapshot of the request counts so far. */
  readonly counters: FakeCounters;
  /** Body bytes sent per endpoint since the last reset (compressed when the client allowed gzip). */
  readonly bytes: FakeCounters;
  resetCounters(): void;
  /** Every player call since the last counter reset, in order (client, version, its session, the answer's status). */
  readonly playerCalls: PlayerCall[];
  /** The switches of docs/crawler.md §4, plus `state()` to read them back. */
  readonly scenario: ScenarioControls & { state(): ScenarioState };
  clearScenarios(): void;
  addChannel(spec: FakeChannelSpec): FakeChannelSpec;
  /** A playlist of hosted videos (docs/crawler.md §2b). */
  addPlaylist(spec: FakePlaylistSpec): FakePlaylistSpec;
  /** A new upload, dated now unless `video.publishedAt` says otherwise; returns it. */
  addUpload(channelId: string, video?: Partial<FakeVideoSpec>): FakeVideoSpec;
  /** A hosted channel by id or handle (the fake's own copy, newest video first). */
  channel(idOrHandle: string): FakeChannelSpec | undefined;
  channels(): FakeChannelSpec[];
  close(): Promise<void>;
}

/** Google's answer to the garbage a malformed scenario stands for: cut JSON/XML, HTML without data. */
function spoil(res: FakeResponse): FakeResponse {
  if (res.kind === 'json' || res.kind === 'xml') return { ...res, body: res.body.slice(0, Math.floor(res.body.length / 2)) };
  return html('<!DOCTYPE html><html><head><title>YouTube</title></head><body><div id="content"><scr\u0000ipt>var ytInitial', 200);
}

function answer(ctx: FakeContext, route: Route | undefined, req: FakeRequest): FakeResponse {
  const s = ctx.scenarios;
  const pathAndQuery = req.query.size > 0 ? `${req.path}?${req.query.toString()}` : req.path;
  if (s.challenging && !ctx.challenge.passes(req)) return ctx.challenge.challenge(req);
  if (s.take429()) return captchaPage(pathAndQuery, 429);
  if (s.take('captcha')) return captchaPage(pathAndQuery, 200);
  if (s.take('serverError')) return route?.innertube ? internalJson(s.serverErrorStatus) : errorPage(s.serverErrorStatus);
  if (!route) return errorPage(404);
  if (route.page && s.consent !== 'off' && !hasConsent(req)) {
    const back = `${ctx.origin}${pathAndQuery}`;
    return s.consent === 'redirect' ? consentRedirect(back) : consentPage(back);
  }
  const res = route.handle(ctx, req);
  return s.take('malformed') ? spoil(res) : res;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Sends the answer; returns the body bytes put on the wire (compressed when the client allowed it). */
function send(req: IncomingMessage, res: ServerResponse, answer: FakeResponse): number {
  if (res.destroyed) return 0;
  let body = Buffer.from(answer.body, 'utf8');
  const headers: Record<string, string> = { ...answer.headers };
  // The platform compresses whatever it can when the client allows it; clients must cope.
  if (body.length > 0 && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    body = gzipSync(body);
    headers['content-encoding'] = 'gzip';
    headers.vary = 'Accept-Encoding';
  }
  headers['content-length'] = String(body.length);
  res.writeHead(answer.status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
  return req.method === 'HEAD' ? 0 : body.length;
}

export async function startFakePlatform(opts: StartOptions = {}): Promise<FakePlatform> {
  const catalog = new Catalog();
  for (const spec of opts.channels ?? []) catalog.addChannel(spec);
  for (const spec of opts.playlists ?? []) catalog.addPlaylist(spec);
  const scenarios = new Scenarios();
  const challenge = new JsChallenge();
  scenarios.onJsChallenge = () => challenge.forget();
  const ctx: FakeContext = { catalog, scenarios, challenge, tokens: new PlayerTokens(), visitors: new Map(), hostFlags: new Map(), playerCalls: [], origin: '' };
  let counters = emptyCounters();
  // Body bytes sent per endpoint (what a client downloads), reset with the counters.
  let bytes = emptyCounters();
  const control = { catalog, scenarios, counters: () => ({ ...counters }), resetCounters: () => {
    counters = emptyCounters();
    bytes = emptyCounters();
    ctx.playerCalls.length = 0;
  } };

  // Answers held back (slow, stalls): close() drops them, so a long stall keeps no timer alive.
  const holds = new Set<NodeJS.Timeout>();
  const hold = (ms: number) => new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      holds.delete(timer);
      resolve();
    }, ms);
    holds.add(timer);
  });

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const fake: FakeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        cookies: parseCookies(req.headers.cookie),
        userAgent: String(req.headers['user-agent'] ?? ''),
        body: await readBody(req),
      };
      if (fake.path.startsWith('/__fake/')) return void send(req, res, controlRoute(control, fake));
      const method = fake.method === 'HEAD' ? 'GET' : fake.method;
      const route = ROUTES.find((r) => r.method === method && r.path.test(fake.path));
      const counter = route ? (typeof route.counter === 'function' ? route.counter(fake) : route.counter) : 'other';
      counters[counter] += 1;
      counters.total += 1;
      const result = answer(ctx, route, fake);
      const holdMs = scenarios.slowMs + (result.stallMs ?? 0);
      if (holdMs > 0) await hold(holdMs);
      bytes[counter] += send(req, res, result);
    })().catch((error: unknown) => {
      // A bug in the fake must show up in the test output, not as a hung request.
      console.error('fake platform: handler failed', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  ctx.origin = `http://${shownHost}:${port}`;

  let closing: Promise<void> | null = null;
  return {
    url: ctx.origin,
    port,
    get counters() {
      return { ...counters };
    },
    get bytes() {
      return { ...bytes, total: Object.entries(bytes).reduce((n, [k, v]) => (k === 'total' ? n : n + v), 0) };
    },
    resetCounters: () => {
      counters = emptyCounters();
      bytes = emptyCounters();
      ctx.playerCalls.length = 0;
    },
    get playerCalls() {
      return [...ctx.playerCalls];
    },
    scenario: scenarios,
    clearScenarios: () => scenarios.clearScenarios(),
    addChannel: (spec) => catalog.addChannel(spec),
    addPlaylist: (spec) => catalog.addPlaylist(spec),
    addUpload: (channelId, video) => catalog.addUpload(channelId, video),
    channel: (idOrHandle) => catalog.channel(idOrHandle) ?? catalog.channelByHandle(idOrHandle),
    channels: () => catalog.channels(),
    close: () => {
      // Idempotent; kept-alive connections (browsers, undici) would otherwise hold close() open.
      closing ??= new Promise<void>((resolve) => {
        for (const timer of holds) clearTimeout(timer);
        holds.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
