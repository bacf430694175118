// The platform check behind `npm run doctor` and POST /admin/platform-check: every known player client
// asked about one video as the crawler would ask, one row each and a verdict. Against the fake
// platform's scenarios (all clients fine; strict identity while visitor_id opens no session; every
// app client refused; every client refused), against the real captured answers, and the compiled
// `doctor` command's table and exit code.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { createPlatformClient } from '../../shared/platform';
import { KNOWN_CLIENTS } from '../../shared/config/client-identities';
import { overallVerdict, reportTable, type ClientCheck, type PlatformCheckReport } from '../../shared/platform/platform-check';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { REFUSED_PORT, ROOT, ensureBuilt, spawnLogged } from '../support/processes';
import { useRecordingServer } from './recording-server';
import { captureJson, platformConfig } from './support';

const APP_CLIENTS = ['VISIONOS', 'ANDROID', 'TVHTML5'];
const CONFIGURED = [{ name: 'VISIONOS', version: '1.02' }, { name: 'ANDROID', version: '21.03.36' }, { name: 'TVHTML5', version: '7.20260707.07.00' }];
const row = (r: PlatformCheckReport, client: string): ClientCheck => r.clients.find((c) => c.client === client)!;

describe('platform check (npm run doctor)', function () {
  this.timeout(60_000);

  describe('against the fake platform', () => {
    let fake: FakePlatform;
    let videoId: string;
    const check = (): Promise<PlatformCheckReport> =>
      createPlatformClient(platformConfig(fake.url, { playerClients: CONFIGURED }), silentLogger()).checkPlatform(videoId);

    beforeEach(async () => {
      fake = await startFakePlatform();
      videoId = fake.addChannel(makeChannel({ handle: 'doctorcheck', count: 2, seed: 5, captionsMix: { manual: 1 } })).videos[0]!.videoId;
    });
    afterEach(() => fake.close());

    it('all clients fine: every client the crawler knows is asked, configured ones first, and the app clients fetch the transcript', async () => {
      const r = await check();
      expect(r.clients.map((c) => c.client)).to.deep.equal([...APP_CLIENTS, ...KNOWN_CLIENTS.filter((c) => !APP_CLIENTS.includes(c))]);
      for (const c of APP_CLIENTS) {
        expect(row(r, c)).to.include({ configured: true, visitorData: true, playability: 'OK', captionTracks: 1, tokenBound: 0, works: true });
        expect(row(r, c).cues).to.be.greaterThan(0);
      }
      // WEB lists only token-bound tracks, as the real web client does: it cannot fetch, and says why.
      expect(row(r, 'WEB')).to.include({ configured: false, works: false, tokenBound: 1, cues: null });
      expect(row(r, 'WEB').verdict).to.match(/proof-of-origin token/);
      expect(r.ok).to.equal(true);
      expect(r.verdict).to.equal('VISIONOS, ANDROID, TVHTML5, WEB_EMBEDDED_PLAYER, TVHTML5_DOWNGRADED can fetch transcripts from this address');
      // One visitor_id per client (fresh sessions), one player and one timed-text call per working client.
      expect(fake.counters.visitorId).to.equal(KNOWN_CLIENTS.length);
      expect(fake.counters.player).to.equal(KNOWN_CLIENTS.length);
    });

    it('strict identity while visitor_id opens no session: the app clients are refused without a visitorData, and the verdict names the client that still works', async () => {
      fake.scenario.strictIdentity(true);
      fake.scenario.visitorDataWithheld(true);
      const r = await check();
      for (const c of APP_CLIENTS) {
        expect(row(r, c)).to.include({ visitorData: false, playability: 'LOGIN_REQUIRED', works: false });
        expect(row(r, c).verdict).to.match(/^blocked: bot check: .*asked without a visitorData: visitor_id \(\w+\): no visitorData in the answer/);
      }
      expect(row(r, 'WEB_EMBEDDED_PLAYER').works).to.equal(true);
      expect(r.ok).to.equal(true);
      expect(r.verdict).to.equal('the configured clients (VISIONOS, ANDROID, TVHTML5) cannot fetch transcripts, but WEB_EMBEDDED_PLAYER can: put WEB_EMBEDDED_PLAYER first in PLAYER_CLIENTS');
    });

    it('every app client refused: each row says blocked, the browser clients are still tried', async () => {
      for (const c of APP_CLIENTS) fake.scenario.clientTrouble(c, 'botCheck');
      const r = await check();
      for (const c of APP_CLIENTS) expect(row(r, c)).to.include({ visitorData: true, works: false, cues: null });
      expect(r.working).to.deep.equal(['WEB_EMBEDDED_PLAYER']);
      expect(r.verdict).to.match(/but WEB_EMBEDDED_PLAYER can/);
    });

    it('every client refused: not ok, and the verdict says what to change', async () => {
      fake.scenario.playersRefused(true);
      const r = await check();
      expect(r.ok).to.equal(false);
      expect(r.working).to.deep.equal([]);
      expect(r.verdict).to.match(/^no player client can fetch transcripts from this address: this address is refused: set PLATFORM_PROXY_URLS/);
      expect(fake.counters.timedtext).to.equal(0);
    });
  });

  describe('against the real captured answers', () => {
    const platform = useRecordingServer();
    const VIDEO = 'GJLlxj_dtq8'; // the captured ANDROID answers are for this video
    const byClient: Record<string, string> = {
      VISIONOS: 'player-android-request_blocked.json',
      ANDROID: 'player-android-po_token_required.json',
      TVHTML5: 'player-android-ok.json',
      WEB_EMBEDDED_PLAYER: 'player-android-video_unavailable.json',
      // The age-restricted capture is of another video: it stands for a poisoned answer here.
      WEB: 'player-android-age_restricted.json',
    };

    it('reads each captured answer as the crawler does: blocked, one token-bound track passed over, working, unavailable, poisoned', async () => {
      platform.on('POST', '/youtubei/v1/visitor_id', () => ({ body: captureJson('visitor_id-android-2026.json') }), KNOWN_CLIENTS.length);
      platform.on('POST', '/youtubei/v1/player', (req) => {
        const name = (JSON.parse(req.body) as { context: { client: { clientName: string } } }).context.client.clientName;
        return { body: captureJson(byClient[name]!, platform.base) };
      }, KNOWN_CLIENTS.length);
      // The embedded player is asked after its page (here without flags: the player is asked without them).
      const embedPage = platform.on('GET', `/embed/${VIDEO}`, { body: '<!DOCTYPE html><html><body></body></html>', headers: { 'content-type': 'text/html' } }, 1);
      // Two records speak as TVHTML5 (the TV app and its downgraded variant): both get the working answer.
      const timedText = platform.on('GET', '/api/timedtext', { body: '<?xml version="1.0" encoding="utf-8" ?><transcript><text start="0.5" dur="2">Hello there</text><text start="3" dur="2">and welcome</text></transcript>', headers: { 'content-type': 'text/xml' } }, 3);
      const r = await createPlatformClient(platformConfig(platform.base, { playerClients: CONFIGURED }), silentLogger()).checkPlatform(VIDEO);

      expect(row(r, 'VISIONOS')).to.include({ playability: 'LOGIN_REQUIRED', works: false });
      expect(row(r, 'VISIONOS').verdict).to.match(/^blocked: bot check/);
      // Its manual English track needs a token (exp=xpe): the automatic English one is taken instead.
      expect(row(r, 'ANDROID')).to.include({ playability: 'OK', captionTracks: 9, tokenBound: 1, cues: 2, works: true });
      expect(row(r, 'ANDROID').verdict).to.equal('fetches transcripts (en, automatic, 2 cues)');
      expect(row(r, 'TVHTML5')).to.include({ playability: 'OK', captionTracks: 9, tokenBound: 0, cues: 2, works: true });
      expect(row(r, 'WEB_EMBEDDED_PLAYER')).to.include({ playability: 'ERROR', works: false });
      expect(row(r, 'WEB_EMBEDDED_PLAYER').verdict).to.match(/^unavailable: /);
      expect(row(r, 'WEB')).to.include({ playability: 'LOGIN_REQUIRED', works: false });
      expect(row(r, 'WEB').verdict).to.match(/^blocked: player answered for another video \(Njp5uhTorCo\): poisoned answers/);
      expect(row(r, 'TVHTML5_DOWNGRADED')).to.include({ version: '5.20260707', configured: false, playability: 'OK', works: true });
      expect(timedText).to.have.length(3);
      expect(embedPage.map((e) => e.query.get('html5'))).to.deep.equal(['1']);
      for (const t of timedText) expect(t.query.get('v')).to.equal(VIDEO);
      expect(timedText.map((t) => t.query.get('exp'))).to.deep.equal([null, null, null]);
      expect(r.verdict).to.equal('ANDROID, TVHTML5 can fetch transcripts; VISIONOS, asked first, cannot: put ANDROID first in PLAYER_CLIENTS to save a request per video');
      expect(reportTable(r)).to.match(/^TVHTML5 +7\.20260707\.07\.00 +yes +yes +OK +9 +0 +2 cues +\d+ +fetches transcripts \(en, /m);
      expect(reportTable(r)).to.match(/^TVHTML5_DOWNGRADED +5\.20260707 +no +yes +OK +9 +0 +2 cues +\d+ +fetches transcripts \(en, /m);
    });
  });

  describe('the verdict when the network failed', () => {
    const failed = (client: string, verdict: string): ClientCheck => ({
      client, version: '1', configured: true, visitorData: false, playability: 'transient', captionTracks: 0, tokenBound: 0, cues: null, ms: 1, works: false, verdict,
    });
    it('names DNS with the exact error, each distinct error once', () => {
      const rows = ['A', 'B'].map((c) => failed(c, `transient: player (${c}): network error (ENOTFOUND) (asked without a visitorData: visitor_id (${c}): network error (ENOTFOUND))`));
      expect(overallVerdict(rows, ['A'], 'https://www.youtube.com')).to.equal(
        "the platform at https://www.youtube.com could not be reached: every client failed for a network reason, DNS: the host name could not be resolved (network error (ENOTFOUND)); check this machine's network connection, DNS, firewall or outbound proxy (PLATFORM_BASE_URL, PLATFORM_PROXY_URLS) before the player clients",
      );
    });
    it('is not about the network when one client was answered, even without a visitor session', () => {
      const rows = [
        failed('A', 'transient: player (A): network error (ECONNRESET)'),
        failed('B', 'blocked: LOGIN_REQUIRED (asked without a visitorData: visitor_id (B): network error (ECONNREFUSED))'),
      ];
      expect(overallVerdict(rows, ['A'])).to.match(/^no player client can fetch transcripts from this address: /);
    });
  });

  describe('the compiled doctor command', () => {
    let fake: FakePlatform;
    let dir: string;
    let videoId: string;
    before(() => ensureBuilt());
    beforeEach(async () => {
      fake = await startFakePlatform();
      videoId = fake.addChannel(makeChannel({ handle: 'doctorcli', count: 1, seed: 9, captionsMix: { manual: 1 } })).videos[0]!.videoId;
      dir = mkdtempSync(path.join(tmpdir(), 'tf-doctor-'));
      writeFileSync(path.join(dir, 'settings.yaml'), '');
    });
    afterEach(async () => {
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const doctor = async (env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> => {
      const p = spawnLogged([path.join(ROOT, 'dist/crawler/doctor.js')], {
        CONFIG_FILE: path.join(dir, 'settings.yaml'), PLATFORM_BASE_URL: fake.url, PLATFORM_CHECK_VIDEO: videoId, LOG_FORMAT: 'json', ...env,
      }, dir);
      const { code } = await p.exited;
      return { code, out: p.logs.map((l) => String(l.raw ?? JSON.stringify(l))).join('\n') };
    };

    it('prints one row per known client and a verdict, exit 0 while some client can fetch transcripts', async () => {
      const { code, out } = await doctor();
      expect(code).to.equal(0);
      expect(out).to.include(`platform check of video ${videoId}`);
      for (const c of KNOWN_CLIENTS) expect(out).to.match(new RegExp(`^${c} `, 'm'));
      // The default PLAYER_CLIENTS (August 2026) first and marked asked, the others after them.
      const rows = out.split('\n').filter((l) => /^[A-Z][A-Z0-9_]+ {2,}/.test(l) && !l.startsWith('client')).map((l) => l.split(/ {2,}/).slice(0, 3));
      // The default PLAYER_CLIENTS (late 2026) first and marked asked, the others after them.
      expect(rows).to.deep.equal([
        ['VISIONOS', '1.02', 'yes'], ['WEB', '2.20260708.00.00', 'yes'], ['ANDROID', '21.03.36', 'no'],
        ['WEB_EMBEDDED_PLAYER', '2.20260708.00.00', 'no'], ['TVHTML5', '7.20260707.07.00', 'no'], ['TVHTML5_DOWNGRADED', '5.20260707', 'no'],
      ]);
      expect(out).to.match(/^verdict: VISIONOS, ANDROID, WEB_EMBEDDED_PLAYER, TVHTML5, TVHTML5_DOWNGRADED can fetch transcripts from this address$/m);
    });

    it('names a retired configured client in its row and its verdict, with what to change', async () => {
      const { code, out } = await doctor({ PLAYER_CLIENTS: 'ANDROID:19.44.38,VISIONOS:1.02' });
      expect(code).to.equal(0);
      expect(out).to.match(/^ANDROID +19\.44\.38 +yes +yes +retired +0 +0 +no +\d+ +retired version: player \(ANDROID\): HTTP 400 FAILED_PRECONDITION \(this client version is retired\); set a newer ANDROID version in PLAYER_CLIENTS/m);
      expect(out).to.match(/^verdict: configured player clients the crawler leaves out: ANDROID 19\.44\.38 \(a retired version: set a newer one in PLAYER_CLIENTS or drop it\)\. VISIONOS/m);
    });

    it('exits 1 when no client can', async () => {
      fake.scenario.playersRefused(true);
      const { code, out } = await doctor();
      expect(code).to.equal(1);
      expect(out).to.match(/^verdict: no player client can fetch transcripts/m);
    });

    // Without network every row failed the same way and the verdict once sent the operator to
    // PLAYER_CLIENTS; it names the network and the exact error now.
    const networkVerdict = (base: string, errors: string) =>
      `verdict: the platform at ${base} could not be reached: every client failed for a network reason, ${errors}; check this machine's network connection, DNS, firewall or outbound proxy (PLATFORM_BASE_URL, PLATFORM_PROXY_URLS) before the player clients`;

    it('names the network when every client met a refused connection (nothing listens at the address)', async () => {
      const base = `http://127.0.0.1:${REFUSED_PORT}`;
      const { code, out } = await doctor({ PLATFORM_BASE_URL: base });
      expect(code).to.equal(1);
      expect(out.split('\n')).to.include(networkVerdict(base, 'the connection was refused (network error (ECONNREFUSED))'));
    });

    it('names the network when every client timed out, and when TLS failed', async () => {
      // A server that takes the connection and reads the request, but never answers: each request
      // times out. (Reading is what lets it see the doctor's connections end, so it can close.)
      const silent = net.createServer((socket) => socket.resume());
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const port = (silent.address() as net.AddressInfo).port;
      try {
        const base = `http://127.0.0.1:${port}`;
        const { code, out } = await doctor({ PLATFORM_BASE_URL: base, PLATFORM_TIMEOUT_MS: '300' });
        expect(code).to.equal(1);
        expect(out.split('\n')).to.include(networkVerdict(base, 'no answer in time (timed out after 300 ms)'));
      } finally {
        // The doctor has exited, so its connections are closed and the server can close.
        await new Promise((resolve) => silent.close(resolve));
      }
      // https:// to the fake platform, which speaks plain HTTP: the TLS handshake fails.
      const tls = fake.url.replace(/^http:/, 'https:');
      const { code, out } = await doctor({ PLATFORM_BASE_URL: tls });
      expect(code).to.equal(1);
      expect(out).to.match(new RegExp(`^verdict: the platform at ${tls.replace(/[.]/g, '\\.')} could not be reached: every client failed for a network reason, TLS: the secure connection failed \\(network error \\([A-Z_]+\\)\\); check`, 'm'));
    });
  });
});
