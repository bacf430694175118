// The requests the client builds, held to the shape of the real 2026 requests that got real answers
// (requests-2026.json, NewPipe's recorded traffic): per app client its headers, its context fields,
// the visitor_id call first and its visitorData in every later call; the WEB date call with the
// browser set. Values that are ours to choose (hl/gl, Accept-Language wording) are not compared.

import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { createPlatformClient } from '../../shared/platform';
import { identityFor } from '../../shared/config/client-identities';
import { RecordingServer, useRecordingServer } from './recording-server';
import { capture, captureJson, platformConfig } from './support';

type Headers = Record<string, string | string[] | undefined>;

interface Recorded {
  answer_file: string;
  url: string;
  headers: Record<string, string>;
  body: { context: { client: Record<string, unknown>; request: unknown; user: unknown }; videoId?: string };
}
const RECORDED = captureJson('requests-2026.json') as Recorded[];
const recorded = (file: string): Recorded => RECORDED.find((r) => r.answer_file === file)!;

/** Header names a client sends in any request that do not describe it (transport, our choices). */
const TRANSPORT = new Set(['host', 'connection', 'content-length', 'accept-encoding', 'accept', 'x-goog-visitor-id']);
const names = (h: Headers | Record<string, string>): string[] =>
  Object.keys(h).map((k) => k.toLowerCase()).filter((k) => !TRANSPORT.has(k)).sort();

interface Seen {
  path: string;
  headers: Headers;
  body: Recorded['body'];
}

/** The scripted platform, recording every request exactly as it arrived on a real loopback socket. */
const server = new RecordingServer();

/** Answers the next POST to /youtubei/v1/<endpoint> with a recorded answer. */
function record(endpoint: string, reply: () => string): void {
  server.on('POST', `/youtubei/v1/${endpoint}`, () => ({ body: reply(), headers: { 'content-type': 'application/json' } }));
}

/** The POSTs answered so far, in order: request target, headers, parsed body. */
const posts = (): Seen[] => server.answered.filter((r) => r.method === 'POST').map((r) => ({
  path: r.url, headers: r.headers, body: JSON.parse(r.body) as Recorded['body'],
}));

describe('client requests match the recorded 2026 requests', () => {
  useRecordingServer(server);
  // The transcript's own request; what it carries is tested elsewhere.
  beforeEach(() => void server.on('GET', '/api/timedtext', { headers: { 'content-type': 'text/xml' }, body: '<transcript><text start="0" dur="1">hi</text></transcript>' }, 10));

  const apps = [
    // ANDROID's recorded player answer came through reel_item_watch, wrapped in `playerResponse`.
    { name: 'ANDROID', version: '21.03.36', visitor: 'visitor_id-android-2026.json', player: 'reel_item_watch-android-2026.json',
      answer: () => JSON.stringify((captureJson('reel_item_watch-android-2026.json') as { playerResponse: unknown }).playerResponse) },
    { name: 'VISIONOS', version: '1.02', visitor: 'visitor_id-visionos-2026.json', player: 'player-visionos-ok-2026.json',
      answer: () => capture('player-visionos-ok-2026.json') },
  ];
  for (const app of apps) {
    it(`${app.name}: visitor_id first, then the player with its visitorData, presented as the app`, async () => {
      record('visitor_id', () => capture(app.visitor));
      record('player', app.answer);
      const platform = createPlatformClient(platformConfig(server.base, { playerClients: [{ name: app.name, version: app.version }] }), silentLogger());
      expect((await platform.fetchTranscript('M4gD1WSo5mA')).language).to.equal('en');
      const seen = posts();
      expect(seen.map((s) => s.path.split('?')[0])).to.deep.equal(['/youtubei/v1/visitor_id', '/youtubei/v1/player']);
      const [visitor, player] = seen as [Seen, Seen];
      const wantVisitor = recorded(app.visitor);
      const wantPlayer = recorded(app.player);
      const identity = identityFor(app.name, app.version)!;

      // Headers: exactly the recorded set (User-Agent, X-Goog-Api-Format-Version, Content-Type,
      // Accept-Language), the app's own User-Agent, and nothing a browser sends.
      for (const s of seen) {
        expect(names(s.headers), s.path).to.deep.equal(names(wantVisitor.headers));
        expect(s.headers['user-agent']).to.equal(wantVisitor.headers['User-Agent']);
        expect(s.headers['x-goog-api-format-version']).to.equal('2');
        for (const browserOnly of ['origin', 'referer', 'cookie', 'sec-fetch-mode', 'sec-fetch-site', 'sec-fetch-dest', 'sec-ch-ua', 'x-youtube-client-name']) {
          expect(s.headers, `${s.path} ${browserOnly}`).not.to.have.property(browserOnly);
        }
      }
      // Context: every recorded client field with the recorded value (hl, gl excepted), plus the
      // user agent repeated as yt-dlp does; request and user members as recorded.
      for (const [s, want] of [[visitor, wantVisitor], [player, wantPlayer]] as const) {
        const client = s.body.context.client;
        for (const [k, v] of Object.entries(want.body.context.client)) {
          if (k === 'hl' || k === 'gl' || k === 'visitorData') expect(client, k).to.have.property(k);
          else expect(client[k], `${s.path} context.client.${k}`).to.deep.equal(v);
        }
        expect(client.userAgent).to.equal(identity.userAgent);
        expect(s.body.context.request).to.deep.equal(want.body.context.request);
        expect(s.body.context.user).to.deep.equal(want.body.context.user);
      }
      // visitorData: none on visitor_id itself; the answer's value in the player body and header.
      const issued = (captureJson(app.visitor) as { responseContext: { visitorData: string } }).responseContext.visitorData;
      expect(visitor.body.context.client).not.to.have.property('visitorData');
      expect(visitor.headers).not.to.have.property('x-goog-visitor-id');
      expect(player.body.context.client.visitorData).to.equal(issued);
      expect(player.headers['x-goog-visitor-id']).to.equal(issued);
      expect(player.body).to.deep.include({ videoId: 'M4gD1WSo5mA', contentCheckOk: true, racyCheckOk: true });
      expect(player.path).to.match(/[?&]\$fields=playabilityStatus,captions,videoDetails\.videoId/);
    });
  }

  it('WEB date call: the browser set as recorded (Origin, Referer, Cookie, X-YouTube-Client-*), field-masked', async () => {
    record('player', () => capture('player-web-fields-microformat-2026.json'));
    const platform = createPlatformClient(platformConfig(server.base), silentLogger());
    const date = await platform.fetchPublishedAt('M4gD1WSo5mA');
    const seen = posts();
    expect(date!.toISOString()).to.equal('2015-01-28T05:14:36.000Z');
    const want = recorded('player-web-fields-microformat-2026.json');
    const h = seen[0]!.headers;
    for (const name of names(want.headers)) expect(h, name).to.have.property(name);
    expect(h['x-youtube-client-name']).to.equal('1');
    expect(seen[0]!.body.context.client).to.include({ clientName: 'WEB', clientVersion: h['x-youtube-client-version'] });
    expect(seen[0]!.path).to.match(/[?&]\$fields=playabilityStatus,microformat\.playerMicroformatRenderer\.publishDate,videoDetails\.videoId$/);
  });
});
