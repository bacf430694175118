// Admin keys: `role: admin` in the key file, and the `admin` wrapper every operator route is built
// on. The wrapper is driven over real HTTP in front of a probe route on the real Express stack with
// the app's own error handler, and a real key file read by the KeyRing.

import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import { expect } from 'chai';
import { admin, basicPassword } from '../../api/http/admin';
import { keyIdOf } from '../../api/http/request-state';
import { errorHandler } from '../../api/http/error-answer';
import { door, frontDoor } from '../../api/http/request-entry';
import { KeyRing } from '../../api/key-ring';
import { parseSecurityConfig, sha256, SecurityConfigError } from '../../shared/config/security';
import { captureLogs } from '../support/logs';
import { tempStore, type TempStore } from '../support/temp-store';
import { ADMIN_KEY, DEFAULT_KEYS, DISABLED_ADMIN_KEY, KEY, securityYaml } from './support';

const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('admin keys', () => {
  describe('the key file', () => {
    const opts = { defaultRateLimit: 60 };
    it('reads role: admin, and a key without a role is a reader', () => {
      const keys = parseSecurityConfig(securityYaml({ 'reader-key-0001': { name: 'r', enabled: true }, 'admin-key-00001': { name: 'a', enabled: true, role: 'admin' }, 'reader-key-0002': { name: 'r2', enabled: true, role: 'reader' } }), opts);
      expect(keys.map((k) => [k.name, k.role])).to.deep.equal([['r', 'reader'], ['a', 'admin'], ['r2', 'reader']]);
      expect(keys[1]!.keyId).to.equal(sha256('admin-key-00001').toString('hex'));
    });

    it('refuses an unknown role, naming the key by its label only', () => {
      const text = 'security:\n  api_keys:\n    secret-key-0001:\n      name: ops\n      enabled: true\n      role: root\n';
      expect(() => parseSecurityConfig(text, opts)).to.throw(SecurityConfigError, 'key "ops": role must be reader or admin');
      try {
        parseSecurityConfig(text, opts);
      } catch (err) {
        expect((err as Error).message).not.to.contain('secret-key-0001');
      }
    });
  });

  describe('basicPassword', () => {
    const req = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } }) as never;
    it('takes the password, whatever the user name', () => {
      expect(basicPassword(req(basic('', 'k3y:with:colons')))).to.equal('k3y:with:colons');
      expect(basicPassword(req(basic('admin', 'abc')))).to.equal('abc');
    });
    it('answers null for anything else', () => {
      for (const h of [undefined, 'Bearer abc', 'Basic', 'Basic !!!', basic('user', ''), `Basic ${Buffer.from('nocolon').toString('base64')}`]) expect(basicPassword(req(h)), String(h)).to.equal(null);
    });
  });

  describe('the admin wrapper over HTTP', () => {
    let ts: TempStore;
    let ring: KeyRing;
    let server: ReturnType<express.Express['listen']>;
    let base: string;
    let logs: string[];
    let captured: ReturnType<typeof captureLogs>;
    const seen: (string | undefined)[] = [];

    before(async () => {
      captured = captureLogs();
      logs = captured.raw;
      ts = await tempStore('tf-admin-', { logger: captured.logger });
      const file = path.join(ts.dir, 'security.yaml');
      writeFileSync(file, securityYaml(DEFAULT_KEYS));
      ring = KeyRing.open(file, { defaultRateLimit: 60, logger: captured.logger });
      const app = express();
      app.use(frontDoor(door(captured.logger)));
      app.get('/probe', admin(ring, ts.store, () => new Date(), (_req, res) => void (seen.push(keyIdOf(res)), res.json({ ok: true }))));
      app.use(errorHandler(captured.logger));
      server = app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    after(async () => {
      await new Promise((r) => server.close(r));
      ring.close();
      await ts.cleanup();
    });

    const probe = (init: { headers?: Record<string, string>; query?: string } = {}) => fetch(`${base}/probe${init.query ?? ''}`, { headers: init.headers });

    it('lets an admin key in as X-API-Key, api_key or the Basic password, and names it by digest', async () => {
      seen.length = 0;
      for (const res of [await probe({ headers: { 'X-API-Key': ADMIN_KEY } }), await probe({ query: `?api_key=${ADMIN_KEY}` }), await probe({ headers: { Authorization: basic('me', ADMIN_KEY) } })]) {
        expect(res.status).to.equal(200);
        expect(await res.json()).to.deep.equal({ ok: true });
        expect(res.headers.get('x-ratelimit-remaining')).to.match(/^\d+$/);
      }
      expect(seen).to.deep.equal(Array(3).fill(sha256(ADMIN_KEY).toString('hex')));
    });

    it('answers 401 with a Basic challenge and the Turkish error without a key, or with an unknown or disabled one', async () => {
      const cases: Record<string, string>[] = [{}, { 'X-API-Key': 'not-a-configured-key' }, { 'X-API-Key': DISABLED_ADMIN_KEY }, { Authorization: basic('', 'wrong-password-0000') }];
      for (const headers of cases) {
        const res = await probe({ headers });
        expect(res.status, JSON.stringify(headers)).to.equal(401);
        expect(res.headers.get('www-authenticate')).to.equal('Basic realm="transcript-feed admin", charset="UTF-8"');
        const body = (await res.json()) as { error: string; message: string };
        expect(body.error).to.equal('Geçersiz veya eksik API anahtarı');
        expect(body.message).to.contain('HTTP Basic');
      }
    });

    it('answers 403 with a Turkish error to a reader key, however it is sent', async () => {
      const cases: { headers?: Record<string, string>; query?: string }[] = [{ headers: { 'X-API-Key': KEY } }, { query: `?api_key=${KEY}` }, { headers: { Authorization: basic('', KEY) } }];
      for (const init of cases) {
        const res = await probe(init);
        expect(res.status).to.equal(403);
        expect(res.headers.get('www-authenticate')).to.equal(null);
        expect(await res.json()).to.deep.equal({ error: 'Bu işlem için yönetici anahtarı gerekli', message: "Bu yol yalnızca anahtar dosyasında 'role: admin' olan API anahtarlarıyla kullanılabilir" });
      }
    });

    it('never logs an admin key, in the URL or in the Authorization header', async () => {
      await probe({ query: `?api_key=${ADMIN_KEY}&x=1` });
      await probe({ headers: { Authorization: basic('u', ADMIN_KEY) } });
      // pino redacts the header wherever a line carries request headers.
      captured.logger.info({ headers: { authorization: basic('u', ADMIN_KEY) } }, 'headers');
      expect(logs.some((l) => l.includes('/probe?x=1'))).to.equal(true);
      expect(logs.join('\n')).not.to.contain(ADMIN_KEY);
      expect(logs.join('\n')).not.to.contain(Buffer.from(`u:${ADMIN_KEY}`).toString('base64'));
    });
  });
});
