import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { createChallengeProxy, type SessionInput } from '../../shared/platform';
import { ChallengeProxy } from '../../shared/platform/challenge-proxy';
import { capture } from './support';
import { captureLogs } from '../support/logs';
import { REFUSED_PORT } from '../support/processes';

const BASE = 'http://127.0.0.1:9';
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

/** A FlareSolverr look-alike: answers request.get with what `page` says, records the commands. */
async function fakeSolver(page: (url: string) => { html: string } | { error: string }): Promise<{ url: string; commands: Record<string, unknown>[]; close: () => Promise<void> }> {
  const commands: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const cmd = JSON.parse(body) as Record<string, unknown>;
      commands.push(cmd);
      res.setHeader('content-type', 'application/json');
      if (cmd.cmd === 'sessions.list') return res.end(JSON.stringify({ status: 'ok', message: '', sessions: [] }));
      const answer = page(String(cmd.url));
      if ('error' in answer) return res.writeHead(500).end(JSON.stringify({ status: 'error', message: `Error: ${answer.error}` }));
      res.end(JSON.stringify({
        status: 'ok', message: 'Challenge solved!',
        solution: {
          url: cmd.url, status: 200, headers: {}, response: answer.html, userAgent: UA,
          cookies: [
            { name: 'cf_clearance', value: 'cleared', domain: '127.0.0.1', path: '/', expires: Date.now() / 1000 + 3600, httpOnly: true, secure: false },
            { name: 'NID', value: 'elsewhere', domain: '.google.com', path: '/', expires: -1 },
          ],
        },
      }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    commands,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

function sink(): { adoptSession: (s: SessionInput) => void; taken: SessionInput[] } {
  const taken: SessionInput[] = [];
  return { taken, adoptSession: (s) => taken.push(s) };
}

describe('challenge-solving proxy (FlareSolverr API)', () => {
  it('is not built when CHALLENGE_PROXY_URL is unset', () => {
    expect(createChallengeProxy({ challengeProxyUrl: null, platformBaseUrl: BASE }, sink(), silentLogger())).to.equal(null);
  });

  it('opens the page through the proxy and hands its cookies and user agent to the client', async () => {
    const solver = await fakeSolver(() => ({ html: '<!DOCTYPE html><html><body>var ytInitialData = {};</body></html>' }));
    try {
      const s = sink();
      const proxy = createChallengeProxy({ challengeProxyUrl: solver.url, platformBaseUrl: BASE }, s, silentLogger())!;
      expect(proxy.name).to.equal('challenge-proxy');
      expect(await proxy.available()).to.equal(true);
      expect(await proxy.unblock('/watch?v=abcdefghijk')).to.equal(true);
      const get = solver.commands.find((c) => c.cmd === 'request.get')!;
      expect(get).to.deep.include({ url: `${BASE}/watch?v=abcdefghijk`, maxTimeout: 60000 });
      expect(s.taken).to.have.length(1);
      expect(s.taken[0]!.userAgent).to.equal(UA);
      expect(s.taken[0]!.cookies.map((c) => c.name)).to.deep.equal(['cf_clearance', 'NID']);
      await proxy.close();
    } finally {
      await solver.close();
    }
  });

  it('judges the returned HTML itself: a captcha behind status 200 is not cleared, and nothing is adopted', async () => {
    const solver = await fakeSolver(() => ({ html: capture('captcha-429.html') }));
    try {
      const s = sink();
      const proxy = new ChallengeProxy({ proxyUrl: solver.url, baseUrl: BASE, sink: s, logger: silentLogger() });
      expect(await proxy.unblock('/watch?v=abcdefghijk')).to.equal(false);
      expect(s.taken).to.have.length(0);
    } finally {
      await solver.close();
    }
  });

  it('an error answer of the proxy is "not cleared", with a WARNING naming its message', async () => {
    const solver = await fakeSolver(() => ({ error: 'Timeout after 60.0 seconds.' }));
    try {
      const { logger, lines } = captureLogs();
      const proxy = new ChallengeProxy({ proxyUrl: solver.url, baseUrl: BASE, sink: sink(), logger });
      expect(await proxy.unblock('/@handle')).to.equal(false);
      expect(lines.some((l) => l.level === 'WARNING' && String(l.message).includes('Timeout after'))).to.equal(true);
    } finally {
      await solver.close();
    }
  });

  it('unreachable (closed port): not available, ONE warning however often asked, no throw', async () => {
    const { logger, lines } = captureLogs();
    const proxy = new ChallengeProxy({ proxyUrl: `http://127.0.0.1:${REFUSED_PORT}/v1`, baseUrl: BASE, sink: sink(), logger, recheckMs: 0 });
    expect(await proxy.available()).to.equal(false);
    expect(await proxy.available()).to.equal(false);
    expect(await proxy.unblock('/watch?v=x')).to.equal(false);
    const warnings = lines.filter((l) => l.level === 'WARNING');
    expect(warnings).to.have.length(1);
    expect(warnings[0]!.msg).to.include('unreachable');
  });

  it('caches reachability instead of probing before every use', async () => {
    const solver = await fakeSolver(() => ({ html: '<html></html>' }));
    try {
      const proxy = new ChallengeProxy({ proxyUrl: solver.url, baseUrl: BASE, sink: sink(), logger: silentLogger() });
      for (let i = 0; i < 5; i++) await proxy.available();
      expect(solver.commands.filter((c) => c.cmd === 'sessions.list')).to.have.length(1);
    } finally {
      await solver.close();
    }
  });
});
