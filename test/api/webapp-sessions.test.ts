// The web app's sessions live in the store (issue 29): two API apps on one SQLite file serve each
// other's sessions, a restarted API still knows its signed-in readers, the cookie's id is stored
// only as its hash, and a sign-in whose session cannot be stored gets a clear page, not a 5xx stack.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { StoreUnavailableError, type Store } from '../../shared/store/types';
import { KEY, startApi, T0, type TestApi } from './support';
import { sessionOf, signIn } from './webapp-support';

const SIGNED_IN = 'action="/app/sign-out"';

const page = async (api: TestApi, cookie: string): Promise<string> => (await api.get('/app/', { key: null, headers: { Cookie: cookie } })).text();

describe('web app sessions in the store', function () {
  let dir: string;
  const apis: TestApi[] = [];
  const start = async (opts: Parameters<typeof startApi>[0] = {}): Promise<TestApi> => {
    const api = await startApi({ databaseFile: path.join(dir, 'shared.db'), ...opts });
    api.now = T0;
    apis.push(api);
    return api;
  };
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'tf-webapp-sessions-'));
  });
  afterEach(async () => {
    for (const api of apis.splice(0)) await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('limits failed sign-ins to 10 a minute per address across two APIs on one file, not 10 each', async () => {
    const one = await start();
    const two = await start();
    for (let i = 0; i < 10; i++) expect((await signIn(i % 2 === 0 ? one : two, `wrong-${i}`)).status).to.equal(401);
    // The right key is refused too on both: the count is read before any key is looked at.
    for (const api of [one, two]) {
      const limited = await signIn(api, KEY);
      expect(limited.status).to.equal(429);
      expect(await limited.text()).to.contain('try again in 59 seconds');
    }
    for (const api of [one, two]) api.now = new Date(T0.getTime() + 60_000);
    expect((await signIn(two, KEY)).status).to.equal(303);
    // A successful sign-in is not counted: only failures are.
    for (let i = 0; i < 12; i++) expect((await signIn(one, KEY)).status).to.equal(303);
  });

  it('keeps a reader signed in across a restart of the API on the same file', async () => {
    const first = await start();
    const cookie = sessionOf(await signIn(first, KEY));
    expect(await page(first, cookie)).to.contain(SIGNED_IN);
    await apis.shift()!.close();

    const restarted = await start();
    expect(await page(restarted, cookie)).to.contain(SIGNED_IN);
  });

  it('serves one API\'s session from another, and a sign-out on either ends it on both', async () => {
    const one = await start();
    const two = await start();
    const cookie = sessionOf(await signIn(one, KEY));
    const home = await page(two, cookie);
    expect(home).to.contain(SIGNED_IN);
    const csrf = /name="csrf" value="([^"]+)"/.exec(home)![1]!;
    const out = await two.get('/app/sign-out', {
      key: null, method: 'POST', redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: two.base },
      body: new URLSearchParams({ csrf }).toString(),
    });
    expect(out.status).to.equal(303);
    expect(await page(one, cookie)).to.not.contain(SIGNED_IN);
  });

  it('stores the hash of the cookie\'s id, never the id', async () => {
    const api = await start();
    const id = sessionOf(await signIn(api, KEY)).split('=')[1]!;
    const db = new Database(path.join(dir, 'shared.db'), { readonly: true });
    try {
      const rows = db.prepare<[], { id_hash: string }>('SELECT id_hash FROM web_sessions').all();
      expect(rows).to.have.length(1);
      expect(rows[0]!.id_hash).to.match(/^[0-9a-f]{64}$/).and.not.contain(id);
    } finally {
      db.close();
    }
  });

  it('answers a sign-in whose session cannot be stored with a page saying so, and no session cookie', async () => {
    const failing = (store: Store): Store => Object.assign(Object.create(store) as Store, {
      putWebSession: () => Promise.reject(new StoreUnavailableError('SQLite store is read-only')),
    });
    const api = await start({ appStore: failing });
    const res = await signIn(api, KEY);
    expect(res.status).to.equal(503);
    expect(res.headers.get('content-type')).to.contain('text/html');
    expect(res.headers.getSetCookie().some((c) => c.startsWith('tf_session='))).to.equal(false);
    const html = await res.text();
    expect(html).to.contain('could not store the session').and.not.match(/\n\s+at /).and.not.contain('read-only');
    expect(api.logLines.some((l) => l.event === 'webapp_session_write_failed')).to.equal(true);
  });
});
