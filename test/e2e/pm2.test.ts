// The real ecosystem.config.js under the real PM2 (its own PM2_HOME and LOG_DIR in a temp dir, on
// loopback): every line of the API (cluster mode) and of the crawler (fork mode) reaches the app's
// log file and `pm2 logs`, never PM2's own daemon log, the last line before an exit included; a port
// in use stops the API with its one line and no restart, and ends `npm start` with a failure.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { ensureBuilt, ROOT } from '../support/processes';
import { jsonLines, pm2Home, type Pm2Home } from '../support/pm2';
import { waitFor } from '../support/poll';

const KEY = 'dev-local-key-change-me';

/** A loopback port someone else holds, as an old copy of the service or another program would. */
async function busyPort(): Promise<Server & { port: number }> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return Object.assign(srv, { port: (srv.address() as { port: number }).port });
}

describe('under PM2 with the real ecosystem file', function () {
  this.timeout(120_000);
  let home: Pm2Home | undefined;
  let fake: FakePlatform;
  let held: (Server & { port: number }) | undefined;

  before(() => ensureBuilt());
  beforeEach(async () => {
    fake = await startFakePlatform();
  });
  afterEach(async () => {
    await home?.kill();
    home = undefined;
    held?.close();
    held = undefined;
    await fake.close();
  });

  const has = (text: string, msg: string, proc: string) => jsonLines(text).some((l) => l.msg === msg && l.process === proc);

  it('every line of the API (cluster mode) and the crawler (fork mode) reaches its log file and pm2 logs, the last one before an exit too', async () => {
    const channel = fake.addChannel(makeChannel({ handle: 'pm2logs', count: 3, seed: 19, captionsMix: { manual: 1 } }));
    // PORT=0: the system picks a free port for the cluster, and the API's line names it.
    home = pm2Home({ PORT: '0', PLATFORM_BASE_URL: fake.url, CRAWL_PROFILE: 'fast', CRAWL_POLL_SECONDS: '1' });
    const h = home;
    await h.pm2('start', 'ecosystem.config.js');
    const modes = Object.fromEntries((await h.jlist()).map((a) => [a.name, a.pm2_env.exec_mode]));
    expect(modes).to.deep.equal({ api: 'cluster_mode', crawler: 'fork_mode' });

    const listening = await waitFor('the API listening, in its own log file', () =>
      jsonLines(h.log('api.out.log')).find((l) => l.process === 'api' && String(l.msg).startsWith('API listening on http://127.0.0.1:')));
    const port = Number(listening.port);
    expect(listening.msg).to.equal(`API listening on http://127.0.0.1:${port}`);
    expect(port).to.be.greaterThan(0);
    await waitFor('the crawler started, in its own log file', () => has(h.log('crawler.out.log'), 'crawler started', 'crawler') || undefined);
    // A request's access line, and the crawler's work on the channel it registers.
    const feed = await fetch(`http://127.0.0.1:${port}/?channel_id=${channel.channelId}&api_key=${KEY}`);
    expect(feed.status).to.equal(404);
    await waitFor('the access line', () => jsonLines(h.log('api.out.log')).find((l) => l.category === 'api.http' && l.status === 404));
    await waitFor('the crawler ran the channel', () => has(h.log('crawler.out.log'), 'run ended', 'crawler') || undefined, 60_000);

    for (const app of ['api', 'crawler']) {
      const lines = jsonLines(h.log(`${app}.out.log`));
      expect(lines.filter((l) => 'raw' in l), `${app}.out.log holds JSON lines only`).to.deep.equal([]);
      expect(lines.every((l) => l.process === app)).to.equal(true);
      const shown = await h.pm2('logs', app, '--nostream', '--raw', '--lines', '500');
      expect(shown, `pm2 logs ${app}`).to.contain(app === 'api' ? '"msg":"API listening on' : '"msg":"crawler started"');
    }
    expect(h.daemonLog(), "PM2's own log holds none of the apps' lines").not.to.match(/"process":"(api|crawler)"/);
    // The README's way to read a log file as text (pino-pretty).
    const text = await new Promise<string>((resolve, reject) => {
      const child = spawn('npm', ['run', '--silent', 'logs:text'], { cwd: ROOT, env: h.env, stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.once('error', reject).once('exit', () => resolve(out));
      child.stdin.end(h.log('api.out.log'));
    });
    expect(text).to.match(new RegExp(`^\\[\\d{4}-\\d\\d-\\d\\d [\\d:.]+\\] INFO: api \\[api\\] API listening on http://127\\.0\\.0\\.1:${port}$`, 'm'));

    // The line a worker writes just before it exits is in the file when PM2 reports it stopped.
    await h.pm2('stop', 'api');
    expect(has(h.log('api.out.log'), 'shutting down', 'api'), 'the API\'s last line').to.equal(true);
  });

  it('a port in use: the API stops with its one line and exit code 78, PM2 does not restart it, the crawler runs on', async () => {
    held = await busyPort();
    home = pm2Home({ PORT: String(held.port), PLATFORM_BASE_URL: fake.url });
    const h = home;
    await h.pm2('start', 'ecosystem.config.js');
    const api = await waitFor('the API stopped', async () => (await h.jlist()).find((a) => a.name === 'api' && a.pm2_env.exit_code !== undefined));
    expect(api.pm2_env.exit_code).to.equal(78);
    await waitFor('the crawler started', () => has(h.log('crawler.out.log'), 'crawler started', 'crawler') || undefined);
    // Time for several restarts at PM2's 100 ms back-off: the crawler's start took longer than that.
    const after = await h.jlist();
    expect(after.find((a) => a.name === 'api')!.pm2_env.restart_time, 'restarts of the API').to.equal(0);
    expect(after.find((a) => a.name === 'crawler')!.pm2_env.status).to.equal('online');
    const lines = h.log('api.err.log').trim().split('\n');
    expect(lines, 'one line, once').to.have.length(1);
    expect(lines[0]).to.match(new RegExp(`^transcript-feed api: PORT/HOST: cannot listen on 127\\.0\\.0\\.1:${held.port} \\(.*EADDRINUSE.*\\)$`));
  });

  it('npm start with the port in use fails: the API\'s one line, then everything stops with exit code 1', async () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).to.equal('npm run build && node dist/shared/cli/start.js');
    held = await busyPort();
    home = pm2Home({ PORT: String(held.port), PLATFORM_BASE_URL: fake.url });
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/shared/cli/start.js')], { cwd: ROOT, env: home.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, err).to.equal(1);
    const refusal = `transcript-feed api: PORT/HOST: cannot listen on 127.0.0.1:${held.port}`;
    expect(err.split('\n').filter((l) => l.startsWith(refusal)), err).to.have.length(1);
    expect(err).to.contain('transcript-feed: the api cannot start (the line above says why); stopping everything');
    expect(home.log('api.err.log').split('\n').filter((l) => l.startsWith(refusal))).to.have.length(1);
    // The crawler was stopped with it, cleanly, and its lines reached the terminal.
    expect(has(home.log('crawler.out.log'), 'crawler stopped', 'crawler')).to.equal(true);
    expect(has(out, 'crawler stopped', 'crawler')).to.equal(true);
  });
});
