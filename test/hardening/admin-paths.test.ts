// Issue 27's held list, kept: no spelling of an operator's path, with any method and any way of
// presenting a reader's key, gets that key a 2xx (or changes anything). Over real HTTP on the real
// API, raw request targets (node:http sends them as written: no client-side `..` or `%2e` folding).
//
// The routes are every operator row of the route table (api/create-app.ts): /status, /metrics and
// /admin/*. The spellings are those a router or a proxy might fold onto the route: case, trailing
// slash (the channel id kept as it is), doubled slashes, percent-encoded letters and slashes, `.` and `..` segments (plain and
// encoded), `;` parameters, a NUL, a backslash, a suffix. Those Express does route to the row (case
// and a trailing slash) are tried with every method and every key placement; every other spelling
// with every method, the placement taking turns over the routes, so that each pair of (spelling,
// method), (route, method) and (route, spelling) meets every placement.
//
// OPTIONS is the CORS preflight, answered before any key is looked at: 204 with no body, the same
// bytes whoever asks, so it shows nothing of the route behind it; the test checks exactly that.

import { request, Agent } from 'node:http';
import { expect } from 'chai';
import { ADMIN_KEY, CHANNEL, KEY, startApi, type TestApi } from '../api/support';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
type Method = (typeof METHODS)[number];

/** Where a row's channel id goes: spelled paths keep the id itself as it is (its case is its identity). */
const ID = '@@';
const spelled = (spell: (p: string) => string, path: string): string => spell(path).replace(ID, CHANNEL);

/** The operator rows of the route table, with the methods each serves (GET also answers HEAD). */
const ROUTES: { path: string; serves: readonly Method[] }[] = [
  { path: '/status', serves: ['GET', 'HEAD'] },
  { path: '/metrics', serves: ['GET', 'HEAD'] },
  { path: '/admin/crawlers', serves: ['GET', 'HEAD'] },
  { path: '/admin/channels', serves: ['GET', 'HEAD'] },
  { path: `/admin/channels/${ID}`, serves: ['GET', 'HEAD', 'DELETE'] },
  { path: `/admin/channels/${ID}/refresh`, serves: ['POST'] },
  { path: '/admin/platform-check', serves: ['GET', 'HEAD', 'POST'] },
];

const basic = (password: string): string => `Basic ${Buffer.from(`user:${password}`).toString('base64')}`;

/** How a reader's key is presented: header, query, both, as a bearer token, as the Basic password. */
const PLACEMENTS: { name: string; headers: Record<string, string>; query: boolean }[] = [
  { name: 'X-API-Key', headers: { 'X-API-Key': KEY }, query: false },
  { name: 'api_key', headers: {}, query: true },
  { name: 'both', headers: { 'X-API-Key': KEY }, query: true },
  { name: 'bearer', headers: { Authorization: `Bearer ${KEY}` }, query: false },
  { name: 'basic', headers: { Authorization: basic(KEY) }, query: false },
];

const capitalized = (p: string): string => p.replace(/\/([a-z])/g, (_m, c: string) => `/${c.toUpperCase()}`);
const encodeFirstLetter = (p: string): string => p.replace(/^\/([a-z])/, (_m, c: string) => `/%${c.charCodeAt(0).toString(16)}`);
const lastSlash = (p: string, by: string): string => (p.lastIndexOf('/') > 0 ? `${p.slice(0, p.lastIndexOf('/'))}${by}${p.slice(p.lastIndexOf('/') + 1)}` : `${p}${by}`);

/** Spellings Express routes to the row itself: the reader meets the admin gate (403) or the row's 405. */
const ROUTED: ((p: string) => string)[] = [(p) => p, (p) => p.toUpperCase(), capitalized, (p) => `${p}/`, (p) => `${p.toUpperCase()}/`];

/** Spellings a lax router or proxy might fold onto the row; here none of them reaches it. */
const FOLDED: ((p: string) => string)[] = [
  (p) => `/${p}`,
  (p) => lastSlash(p, '//'),
  encodeFirstLetter,
  (p) => lastSlash(p, '%2F'),
  (p) => lastSlash(p, '%2f'),
  (p) => lastSlash(p, '/./'),
  (p) => `/%2e${p}`,
  (p) => `/x/..${p}`,
  (p) => `/x/%2e%2e${p}`,
  (p) => `/health/%2E%2E${p}`,
  (p) => `${p};x=1`,
  (p) => p.replace(/^\/([a-z-]+)/, '/$1;'),
  (p) => `${p}%00`,
  (p) => lastSlash(p, '%5C'),
  (p) => `${p}.json`,
  (p) => `${p}%20`,
];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe('admin path spellings × methods × key placements: a reader key never gets a 2xx (issue 27, held)', function () {
  this.timeout(180_000);
  let api: TestApi;
  let registered: unknown;
  // Four at a time: under API_MAX_CONNECTIONS_PER_KEY (6), so no answer is a 429 that could hide another.
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  before(async () => {
    api = await startApi();
    await api.store.registerChannel({ channelId: CHANNEL, wanted: 10, title: 'Kept' }, api.now);
    registered = await api.store.getChannel(CHANNEL);
  });
  after(async () => {
    agent.destroy();
    await api.close();
  });

  function send(method: Method, target: string, headers: Record<string, string>): Promise<Answer> {
    const url = new URL(api.base);
    return new Promise((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, method, path: target, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }

  const withKey = (target: string, placement: (typeof PLACEMENTS)[number]): string => (placement.query ? `${target}${target.includes('?') ? '&' : '?'}api_key=${KEY}` : target);

  /** Runs every case, four at a time; answers in the cases' order. */
  async function run<T>(cases: readonly T[], one: (c: T) => Promise<void>): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < cases.length) await one(cases[next++]!);
    };
    await Promise.all(Array.from({ length: 4 }, worker));
  }

  it('every routed spelling with every method and placement: 403 at the admin gate, 405 for the rest, the keyless preflight for OPTIONS', async () => {
    const preflight = await send('OPTIONS', '/admin/crawlers', {});
    expect(preflight.status).to.equal(204);
    expect(preflight.body).to.equal('');
    const cases = ROUTES.flatMap((route) => ROUTED.flatMap((spell) => METHODS.flatMap((method) => PLACEMENTS.map((placement) => ({ route, target: spelled(spell, route.path), method, placement })))));
    expect(cases.length).to.equal(7 * 5 * 7 * 5);
    const seen = new Map<string, number>();
    await run(cases, async ({ route, target, method, placement }) => {
      const res = await send(method, withKey(target, placement), placement.headers);
      const what = `${method} ${target} (${placement.name}) → ${res.status} ${res.body.slice(0, 120)}`;
      seen.set(String(res.status), (seen.get(String(res.status)) ?? 0) + 1);
      if (method === 'OPTIONS') {
        expect(res.status, what).to.equal(preflight.status);
        expect(res.body, what).to.equal('');
        expect(res.headers['access-control-allow-methods'], what).to.equal(preflight.headers['access-control-allow-methods']);
      } else if (route.serves.includes(method) && placement.name === 'bearer') {
        // A bearer token is MCP's presentation only: here it presents no key at all.
        expect(res.status, what).to.equal(401);
      } else if (route.serves.includes(method)) {
        // Basic with a reader's key is a reader's key too: the gate, not a challenge.
        expect(res.status, what).to.equal(403);
        if (method !== 'HEAD') expect((JSON.parse(res.body) as { error: string }).error, what).to.equal('Bu işlem için yönetici anahtarı gerekli');
      } else {
        expect(res.status, what).to.equal(405);
      }
    });
    expect([...seen.keys()].sort(), JSON.stringify(Object.fromEntries(seen))).to.deep.equal(['204', '401', '403', '405']);
  });

  it('every folded spelling with every method, placements taking turns: never a 2xx but the preflight, never a 5xx', async () => {
    const cases = ROUTES.flatMap((route, r) => FOLDED.flatMap((spell, s) => METHODS.map((method, m) => ({ target: spelled(spell, route.path), method, placement: PLACEMENTS[(r + s + m) % PLACEMENTS.length]! }))));
    expect(cases.length).to.equal(7 * FOLDED.length * 7);
    const statuses = new Set<number>();
    await run(cases, async ({ target, method, placement }) => {
      const res = await send(method, withKey(target, placement), placement.headers);
      const what = `${method} ${target} (${placement.name}) → ${res.status} ${res.body.slice(0, 120)}`;
      statuses.add(res.status);
      if (method === 'OPTIONS') {
        expect(res.status, what).to.equal(204);
        expect(res.body, what).to.equal('');
      } else {
        expect(res.status, what).to.be.within(400, 499);
        expect(res.body, what).to.not.match(/"crawlers"|"channels"|transcript_feed_http|<html/i);
      }
    });
    expect([...statuses].every((s) => s === 204 || (s >= 400 && s < 500))).to.equal(true);
  });

  it('the spellings reach the rows: an admin key gets the GET routes with each routed spelling; the reader changed nothing', async () => {
    for (const route of ROUTES.filter((r) => r.serves.includes('GET'))) {
      for (const spell of ROUTED) {
        const res = await send('GET', spelled(spell, route.path), { 'X-API-Key': ADMIN_KEY });
        expect(res.status, `${spelled(spell, route.path)} ${res.body.slice(0, 120)}`).to.equal(200);
      }
    }
    // Not removed, not made due by a refresh: the record exactly as registered.
    expect(await api.store.getChannel(CHANNEL)).to.deep.equal(registered);
    expect(await api.store.getPlatformCheck(), 'no platform check asked').to.equal(null);
  });
});
