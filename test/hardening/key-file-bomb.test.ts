// A key file of a few hundred bytes whose `rate_limit` is nested YAML aliases: refused before
// anything expands, at start and on reload, with a short log line; the API keeps its keys and
// answers. Over the real API on a socket, the file edited on disk as an operator (or attacker with
// write access to the config dir) would.

import { writeFileSync } from 'node:fs';
import { expect } from 'chai';
import { MAX_MESSAGE_CHARS, MAX_YAML_NODES, parseSecurityConfig, SecurityConfigError } from '../../shared/config/security';
import { KEY, securityYaml, startApi, DEFAULT_KEYS, type TestApi } from '../api/support';
import { waitFor } from '../support/poll';

/** `levels` of nine aliases each: 9^levels nodes once expanded, from a few hundred bytes. */
export function aliasBomb(levels: number): string {
  const lines = ['a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1]'];
  for (let i = 1; i <= levels; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(', ')}]`);
  return lines.join('\n');
}

const bombFile = (levels: number): string =>
  `security:\n  api_keys:\n    ${KEY}:\n      name: bomb\n      enabled: true\n      rate_limit:\n${aliasBomb(levels).split('\n').map((l) => `        ${l}`).join('\n')}\n`;

const refusal = (text: string): string => {
  try {
    parseSecurityConfig(text, { defaultRateLimit: 60 });
  } catch (err) {
    expect(err).to.be.instanceOf(SecurityConfigError);
    return (err as Error).message;
  }
  throw new Error('the file was accepted');
};

describe('the key file: anchors, aliases and node budget', () => {
  it('refuses an alias bomb before it expands, in one short message', () => {
    const text = bombFile(9);
    expect(text.length).to.be.below(1000);
    const message = refusal(text);
    expect(message).to.match(/anchors and aliases/);
    expect(message.length).to.be.at.most(MAX_MESSAGE_CHARS);
  });

  it('refuses a lone anchor or alias anywhere, and a file over the node budget', () => {
    expect(refusal(securityYaml(DEFAULT_KEYS).replace('name: "unlimited"', 'name: &n "unlimited"'))).to.match(/anchors and aliases/);
    const flow = `security:\n  api_keys:\n    ${KEY}:\n      name: x\n      enabled: true\n      rate_limit: [${Array(MAX_YAML_NODES + 10).fill('1').join(',')}]\n`;
    expect(refusal(flow)).to.match(/more than 150000 YAML nodes/);
  });

  it('keeps keys holding & and * (they are not anchors there)', () => {
    const keys = parseSecurityConfig('security:\n  api_keys:\n    "k&ey*with&and*":\n      name: amp\n      enabled: true\n', { defaultRateLimit: 60 });
    expect(keys).to.have.length(1);
  });

  it('bounds every message, however long the label or value', () => {
    const longName = 'n'.repeat(100_000);
    const message = refusal(`security:\n  api_keys:\n    ${KEY}:\n      name: ${longName}\n      enabled: maybe\n`);
    expect(message.length).to.be.at.most(MAX_MESSAGE_CHARS);
  });

  describe('over the running API', () => {
    let api: TestApi;
    before(async () => (api = await startApi()));
    after(() => api.close());

    it('a reload with the bomb is refused in a short line; the previous keys and /health keep working', async () => {
      const from = api.logs.length;
      writeFileSync(api.securityFile, bombFile(7));
      const line = await waitFor('the refusal line', () => api.logs.slice(from).find((l) => l.includes('API key file rejected')), 10_000, 10);
      expect(line.length, 'log line length').to.be.below(1000);
      expect(line).to.match(/anchors and aliases/);
      expect((await fetch(`${api.base}/health`)).status).to.equal(200);
      expect((await api.get('/info')).status).to.equal(200);
    });
  });
});
