// The identity records and their configuration (PLAYER_CLIENTS, PLAYER_CLIENT_IDENTITIES), and the
// visitorData session of each client: one visitor_id call, shared, renewed after a strong block and
// after VISITOR_DATA_MAX_AGE_MS (an injected clock, no waiting).

import { expect } from 'chai';
import { loadConfig } from '../../shared/config/load';
import { ConfigError, SETTINGS } from '../../shared/config/settings';
import { silentLogger } from '../../shared/logger';
import { createPlatformClient, kidsFallbackIdentities, playerIdentities } from '../../shared/platform';
import { DEFAULT_PLAYER_CLIENTS, identityFor, KNOWN_CLIENTS, parseIdentityOverrides } from '../../shared/config/client-identities';
import { VISITOR_DATA_MAX_AGE_MS } from '../../shared/platform/visitor';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { platformConfig } from './support';

describe('client identities and sessions', () => {
  describe('configuration', () => {
    it('the default list (late 2026) is the maintained clients\' signed-out one: VISIONOS as its app, then WEB; the made-for-kids fallback is the embedded player hosted outside the platform, then the downgraded TV client', () => {
      const clients = SETTINGS.playerClients.parse(DEFAULT_PLAYER_CLIENTS);
      expect(clients).to.deep.equal([{ name: 'VISIONOS', version: '1.02' }, { name: 'WEB', version: '2.20260708.00.00' }]);
      const [visionos, web] = playerIdentities({ playerClients: clients });
      expect(visionos!.presents).to.equal('app');
      expect(visionos!.userAgent).to.be.a('string').and.not.match(/^Mozilla\/5\.0 \((Windows|Macintosh|X11)/);
      expect(web).to.include({ key: 'WEB', id: 1, presents: 'browser', userAgent: null });
      const [embedded, tv] = kidsFallbackIdentities({ playerClients: clients });
      expect(embedded).to.include({ key: 'WEB_EMBEDDED_PLAYER', name: 'WEB_EMBEDDED_PLAYER', id: 56, presents: 'browser', userAgent: null });
      expect(new URL(embedded!.thirdParty!.embedUrl!).hostname, 'a page outside the platform embeds the player').not.to.match(/(^|\.)youtube\.com$/);
      expect(tv).to.include({ key: 'TVHTML5_DOWNGRADED', name: 'TVHTML5', version: '5.20260707', presents: 'app' });
      // Named in PLAYER_CLIENTS, a fallback client goes at its configured version.
      expect(kidsFallbackIdentities({ playerClients: SETTINGS.playerClients.parse('VISIONOS,WEB_EMBEDDED_PLAYER:2.20260801.00.00') })[0]).to.include({ version: '2.20260801.00.00' });
    });

    it('the TV clients are records to name, not defaults: TVHTML5 at yt-dlp\'s August 2026 version, and the downgraded variant speaking as TVHTML5', () => {
      expect(KNOWN_CLIENTS).to.include.members(['TVHTML5', 'TVHTML5_DOWNGRADED']);
      expect(identityFor('TVHTML5', null)).to.include({ key: 'TVHTML5', name: 'TVHTML5', version: '7.20260707.07.00', id: 7, presents: 'app' });
      const downgraded = identityFor('TVHTML5_DOWNGRADED', null)!;
      expect(downgraded).to.include({ key: 'TVHTML5_DOWNGRADED', name: 'TVHTML5', version: '5.20260707', id: 7, presents: 'app' });
      expect(downgraded.userAgent).to.equal('Mozilla/5.0 (ChromiumStylePlatform) Cobalt/Version');
      expect(SETTINGS.playerClients.parse('VISIONOS,TVHTML5_DOWNGRADED')).to.deep.equal([{ name: 'VISIONOS', version: '1.02' }, { name: 'TVHTML5_DOWNGRADED', version: '5.20260707' }]);
    });

    it('NAME alone takes the built-in version; {version} in the user agent follows a configured one', () => {
      expect(SETTINGS.playerClients.parse('ANDROID')).to.deep.equal([{ name: 'ANDROID', version: '21.03.36' }]);
      const newer = identityFor('ANDROID', '21.26.364')!;
      expect(newer.userAgent).to.equal('com.google.android.youtube/21.26.364 (Linux; U; Android 15; GB) gzip');
      expect(identityFor('VISIONOS', '1.03')!.userAgent).to.match(/^com\.google\.visionos\.youtube\/1\.03\(/);
    });

    it('an unknown client or a malformed entry stops start-up with the setting named', () => {
      expect(() => SETTINGS.playerClients.parse('ANDROID,FOO_APP:1.0')).to.throw(ConfigError, /unknown client "FOO_APP"/);
      expect(() => SETTINGS.playerClients.parse('ANDROID:1.0:2')).to.throw(ConfigError, /NAME or NAME:VERSION/);
      expect(() => loadConfig({ PLAYER_CLIENTS: 'NOPE' }, '/nonexistent-dir')).to.throw(/PLAYER_CLIENTS/);
    });

    it('PLAYER_CLIENT_IDENTITIES replaces fields of a built-in record, and refuses what it cannot use', () => {
      const o = parseIdentityOverrides('{"ANDROID":{"userAgent":"com.google.android.youtube/{version} (Linux; U; Android 16) gzip","context":{"osVersion":"16"}}}');
      const id = identityFor('ANDROID', '21.03.36', o)!;
      expect(id.userAgent).to.equal('com.google.android.youtube/21.03.36 (Linux; U; Android 16) gzip');
      expect(id.context).to.include({ osVersion: '16', androidSdkVersion: 36, osName: 'Android' });
      expect(parseIdentityOverrides('')).to.deep.equal({});
      for (const bad of ['[1]', '{"FOO":{}}', '{"ANDROID":{"ua":"x"}}', '{"ANDROID":{"userAgent":"a\\r\\nX-Evil: 1"}}', '{"ANDROID":{"context":{"a":{}}}}', 'not json']) {
        expect(() => parseIdentityOverrides(bad), bad).to.throw(Error);
      }
      expect(() => SETTINGS.playerClientIdentities.parse('{"FOO":{}}')).to.throw(ConfigError, new RegExp(`known: ${KNOWN_CLIENTS.join(', ')}`));
    });
  });

  describe('visitorData sessions over HTTP', () => {
    let fake: FakePlatform;
    const channel = makeChannel({ handle: 'visitors', count: 6, seed: 41, captionsMix: { manual: 1 } });
    before(async () => {
      fake = await startFakePlatform({ channels: [channel] });
      fake.scenario.strictIdentity(true);
    });
    after(() => fake.close());
    beforeEach(() => {
      fake.clearScenarios();
      fake.scenario.strictIdentity(true);
      fake.resetCounters();
    });

    it('one visitor_id per client session, also for concurrent first calls; renewed after its maximum age', async () => {
      let now = 1_000_000;
      const c = createPlatformClient(platformConfig(fake.url, { playerClients: [{ name: 'ANDROID', version: '21.03.36' }] }), silentLogger(), { now: () => now });
      await Promise.all(channel.videos.slice(0, 3).map((v) => c.fetchTranscript(v.videoId)));
      expect(fake.counters).to.include({ visitorId: 1, player: 3 });
      now += VISITOR_DATA_MAX_AGE_MS - 1;
      await c.fetchTranscript(channel.videos[3]!.videoId);
      expect(fake.counters.visitorId).to.equal(1);
      now += 2;
      await c.fetchTranscript(channel.videos[4]!.videoId);
      expect(fake.counters.visitorId).to.equal(2);
    });

    it('a bot check retires the session: the next call starts a new one, and it passes strict identity', async () => {
      const c = createPlatformClient(platformConfig(fake.url, { playerClients: [{ name: 'VISIONOS', version: '1.02' }] }), silentLogger());
      await c.fetchTranscript(channel.videos[0]!.videoId);
      fake.scenario.botCheck(1);
      const err = await c.fetchTranscript(channel.videos[1]!.videoId).catch((e: unknown) => e);
      expect(err).to.have.property('outcome', 'blocked');
      expect((await c.fetchTranscript(channel.videos[1]!.videoId)).language).to.equal('en');
      expect(fake.counters.visitorId).to.equal(2);
    });

    it('a visitor_id that fails passes the client over; the next video asks again', async () => {
      const c = createPlatformClient(platformConfig(fake.url), silentLogger());
      fake.scenario.serverError(1, 503);
      // VISIONOS's visitor_id fails: ANDROID serves.
      expect((await c.fetchTranscript(channel.videos[0]!.videoId)).language).to.equal('en');
      expect(fake.counters).to.include({ visitorId: 2, player: 1 });
      // VISIONOS is asked first again, with a new visitor_id.
      await c.fetchTranscript(channel.videos[1]!.videoId);
      expect(fake.counters).to.include({ visitorId: 3, player: 2 });
    });
  });
});
