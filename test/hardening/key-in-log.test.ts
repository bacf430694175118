// A key reached the access log as `api_key%00=KEY` (a name the redactor did not recognise) and as a
// path segment (`/KEY?…`). Every configured key's value is now redacted wherever it appears in a
// logged request line, under any name, in a path, percent-encoded once or twice; a key added by a
// reload is covered from then on. Over the real API on a socket, every line captured.

import { writeFileSync } from 'node:fs';
import { expect } from 'chai';
import { CHANNEL, DEFAULT_KEYS, DISABLED_KEY, KEY, rawSocket, securityYaml, startApi, video, type TestApi } from '../api/support';
import { waitFor } from '../support/poll';

const pct = (s: string): string => [...s].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');

describe('a key value in a logged request line', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    await api.store.upsertVideos([video(1)]);
  });
  after(() => api.close());

  /** Sends one raw request line and returns the access line logged for it. */
  const logged = async (target: string): Promise<Record<string, unknown>> => {
    const from = api.logs.length;
    await rawSocket(api.base, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const line = await waitFor('the access line', () => api.logs.slice(from).find((l) => l.includes('"category":"api.http"')), 10_000, 10);
    return JSON.parse(line) as Record<string, unknown>;
  };

  const cases: [string, (k: string) => string][] = [
    ['api_key%00 (NUL-spelled name), accepted by nobody but logged', (k) => `/?channel_id=${CHANNEL}&api_key%00=${k}`],
    ['a path segment', (k) => `/${k}?channel_id=${CHANNEL}`],
    ['a deeper path segment', (k) => `/info/${k}`],
    ['an unrelated parameter name', (k) => `/?channel_id=${CHANNEL}&token=${k}`],
    ['inside a longer value', (k) => `/?channel_id=${CHANNEL}&q=xx${k}yy`],
    ['percent-encoded', (k) => `/?channel_id=${CHANNEL}&q=${pct(k)}`],
    ['percent-encoded twice', (k) => `/?channel_id=${CHANNEL}&q=${pct(k).replace(/%/g, '%25')}`],
    ['as a parameter name', (k) => `/?${k}=1&channel_id=${CHANNEL}`],
  ];
  for (const [what, target] of cases) {
    it(`is redacted when carried as ${what}`, async () => {
      const from = api.logs.length;
      const line = await logged(target(KEY));
      // The pair is dropped (a key-like name) or replaced; the rest of the line stays readable.
      expect(String(line.path)).to.satisfy((p: string) => p.includes(`channel_id=${CHANNEL}`) || p === '/info/[redacted]');
      const text = api.logs.slice(from).join('\n');
      expect(text).not.to.contain(KEY);
      expect(text).not.to.contain(pct(KEY));
    });
  }

  it('covers a disabled key too, and a key added by a reload', async () => {
    expect(String((await logged(`/x/${DISABLED_KEY}`)).path)).to.equal('/x/[redacted]');
    const added = 'added-later-key-000000042';
    writeFileSync(api.securityFile, securityYaml({ ...DEFAULT_KEYS, [added]: { name: 'added', enabled: true } }));
    await waitFor('the reload', () => (api.ring.keys.length === Object.keys(DEFAULT_KEYS).length + 1 ? true : undefined), 10_000, 10);
    const line = await logged(`/?channel_id=${CHANNEL}&k%00=${added}`);
    expect(line.path).to.equal(`/?channel_id=${CHANNEL}&[redacted]`);
  });

  it('leaves a line without a key as it was', async () => {
    expect((await logged(`/?channel_id=${CHANNEL}&format=rss`)).path).to.equal(`/?channel_id=${CHANNEL}&format=rss`);
  });
});
