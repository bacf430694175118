import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { withTranscripts } from '../support/factories';
import { CHANNEL, KEY, securityYaml, startApi, video, type TestApi } from './support';

const NEW_KEY = 'brand-new-key-0004';

/** Resolves on the ring's next event of that name: the test waits for the reload, never sleeps. */
const next = (api: TestApi, name: 'reload' | 'reload-failed') => new Promise((resolve) => api.ring.once(name, resolve));

describe('API keys reload without restart', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    await api.store.upsertVideos(...withTranscripts([video(1)]));
  });
  after(() => api.close());

  const status = async (key: string) => (await api.get(`/?channel_id=${CHANNEL}`, { key })).status;

  it('takes a new key and a disabled one into effect after the file is saved', async () => {
    expect(await status(NEW_KEY)).to.equal(401);
    const reloaded = next(api, 'reload');
    writeFileSync(api.securityFile, securityYaml({ [KEY]: { name: 'unlimited', enabled: false }, [NEW_KEY]: { name: 'new', rate_limit: 2, enabled: true } }));
    await reloaded;
    expect(await status(KEY)).to.equal(401);
    const res = await api.get(`/?channel_id=${CHANNEL}`, { key: NEW_KEY });
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-ratelimit-remaining')).to.equal('1');
  });

  it('keeps serving with the last good keys when an edit is broken, and logs an ERROR', async () => {
    const failed = next(api, 'reload-failed');
    writeFileSync(api.securityFile, 'security:\n  api_keys:\n    brand-new-key-0004: {name: "new", rate_limit: 0, enabled: true}\n');
    await failed;
    expect(await status(NEW_KEY)).to.equal(200);
    const errorLine = api.logs.find((l) => l.includes('"level":"ERROR"') && l.includes('"category":"api.auth"'));
    expect(errorLine).to.be.a('string').and.match(/key \\"new\\": rate_limit/);
    expect(api.logs.join('')).not.to.contain(NEW_KEY);
  });

  it('follows a file replaced by rename, as editors do', async () => {
    const reloaded = next(api, 'reload');
    const tmp = path.join(api.dir, 'security.yaml.tmp');
    writeFileSync(tmp, securityYaml({ [KEY]: { name: 'back again', rate_limit: 100, enabled: true } }));
    renameSync(tmp, api.securityFile);
    await reloaded;
    expect(await status(KEY)).to.equal(200);
    expect(await status(NEW_KEY)).to.equal(401);
  });
});
