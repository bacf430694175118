// The parsers against the 2026 real captures (NewPipe's recorded June 2026 traffic) and the 2026
// signals: visitor_id answers, the VISIONOS and ANDROID 21.x player answers, the token-bound
// tracks (exp=xpe / xpv), the captcha view model, continuationItemViewModel tokens and resolve_url
// answers that are not a plain channel.

import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { createPlatformClient } from '../../shared/platform';
import { continuationToken, parseBrowsePage } from '../../shared/platform/browse';
import { classifyPlayer } from '../../shared/platform/classify';
import { readResolveAnswer } from '../../shared/platform/resolve';
import { captionTracks, chooseTrack, needsToken } from '../../shared/platform/tracks';
import { visitorDataOf } from '../../shared/platform/visitor';
import { useRecordingServer } from './recording-server';
import { capture, captureJson, platformConfig } from './support';

const dig = (v: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((at, k) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[k] : undefined), v);

describe('2026 captures and signals', () => {
  describe('visitor_id answers', () => {
    for (const file of ['visitor_id-android-2026.json', 'visitor_id-visionos-2026.json']) {
      it(`${file}: responseContext.visitorData`, () => {
        const v = visitorDataOf(captureJson(file));
        expect(v).to.be.a('string');
        expect(v!.length).to.be.within(100, 1000);
        expect(v).to.equal(dig(captureJson(file), 'responseContext', 'visitorData'));
      });
    }
    it('no visitorData, or one with characters a header cannot carry, is none', () => {
      expect(visitorDataOf({ responseContext: {} })).to.equal(null);
      expect(visitorDataOf({ responseContext: { visitorData: 'abc\r\nX-Injected: 1abcdefgh' } })).to.equal(null);
    });
  });

  describe('player answers of 2026', () => {
    it('VISIONOS 1.02: OK, tracks with name.runs and no fmt, manual chosen, 156 translation languages', () => {
      const json = captureJson('player-visionos-ok-2026.json');
      expect(classifyPlayer(json, 'M4gD1WSo5mA')).to.deep.equal({ outcome: 'ok' });
      const tracks = captionTracks(json);
      expect(tracks.map((t) => [t.languageCode, t.kind, t.name, t.needsToken])).to.deep.equal([
        ['en', 'manual', 'English', false],
        ['en', 'automatic', 'English (auto-generated)', false],
      ]);
      expect(tracks.every((t) => !/[?&]fmt=/.test(t.baseUrl))).to.equal(true);
      expect(chooseTrack(tracks, ['en'])!.kind).to.equal('manual');
      expect(dig(json, 'captions', 'playerCaptionsTracklistRenderer', 'translationLanguages')).to.have.length(156);
    });

    it('ANDROID 21.03.36 (reel_item_watch playerResponse): OK, .en and a.en tracks', () => {
      const json = dig(captureJson('reel_item_watch-android-2026.json'), 'playerResponse');
      expect(classifyPlayer(json, 'M4gD1WSo5mA')).to.deep.equal({ outcome: 'ok' });
      expect(captionTracks(json).map((t) => [t.languageCode, t.kind])).to.deep.equal([['en', 'manual'], ['en', 'automatic']]);
      // Another video's answer to this request would be poisoned.
      expect(classifyPlayer(json, 'AAAAAAAAAAA').outcome).to.equal('blocked');
    });

    it('exp=xpe tracks (real capture) are never chosen; exp=xpv counts the same', () => {
      const tracks = captionTracks(captureJson('player-android-po_token_required.json'));
      const bound = tracks.filter((t) => t.needsToken);
      expect(bound.length).to.be.greaterThan(0);
      expect(bound.every((t) => /[?&]exp=xpe/.test(t.baseUrl))).to.equal(true);
      const chosen = chooseTrack(tracks, ['en']);
      expect(chosen === null || !chosen.needsToken).to.equal(true);
      expect(needsToken('https://www.youtube.com/api/timedtext?v=x&exp=xpv&lang=en')).to.equal(true);
      expect(needsToken('https://www.youtube.com/api/timedtext?v=x&exp=xpe,xpv&lang=en')).to.equal(true);
      expect(needsToken('https://www.youtube.com/api/timedtext?v=x&exp=xpx&lang=en')).to.equal(false);
      const onlyXpv = tracks.map((t) => ({ ...t, needsToken: true }));
      expect(chooseTrack(onlyXpv, ['en'])).to.equal(null);
    });

    it('errorScreen.playerCaptchaViewModel is blocked, whatever the status says', () => {
      const base = captureJson('player-android-ok.json') as Record<string, unknown>;
      for (const status of ['LOGIN_REQUIRED', 'OK', 'ERROR']) {
        const json = { ...base, playabilityStatus: { status, errorScreen: { playerCaptchaViewModel: { captchaViewModel: {} } } } };
        const v = classifyPlayer(json, 'GJLlxj_dtq8');
        expect(v.outcome, status).to.equal('blocked');
        expect((v as { reason: string }).reason).to.include('captcha');
      }
    });

    it('UNPLAYABLE on one client is unavailable for that client', () => {
      const v = classifyPlayer({ playabilityStatus: { status: 'UNPLAYABLE', reason: 'This video is not available on this app' } }, 'abcdefghijk');
      expect(v.outcome).to.equal('unavailable');
    });
  });

  describe('continuationItemViewModel (both wrappings)', () => {
    const command = { continuationCommand: { token: 'TOKEN-123', request: 'CONTINUATION_REQUEST_TYPE_BROWSE' } };
    const shapes: [string, unknown][] = [
      ['continuationItemRenderer', { continuationItemRenderer: { continuationEndpoint: command } }],
      ['continuationItemViewModel', { continuationItemViewModel: { continuationCommand: { innertubeCommand: command } } }],
      ['continuationItemViewModel in a commandExecutorCommand', {
        continuationItemViewModel: { continuationCommand: { innertubeCommand: { commandExecutorCommand: { commands: [{ logGwsClickCommand: {} }, command] } } } },
      }],
    ];
    for (const [name, item] of shapes) {
      it(`${name} → the token`, () => {
        expect(continuationToken(item)).to.equal('TOKEN-123');
        const page = parseBrowsePage({ onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: [item] } }] });
        expect(page.continuation).to.equal('TOKEN-123');
      });
    }
    it('the grid capture with its renderer swapped for the view model gives the same token', () => {
      const json = captureJson('browse-videos-tab-first-page.json');
      const before = parseBrowsePage(json).continuation!;
      const grid = (dig(json, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs') as unknown[])
        .map((t) => dig(t, 'tabRenderer', 'content', 'richGridRenderer', 'contents'))
        .find(Array.isArray) as unknown[];
      const last = grid.length - 1;
      expect(continuationToken(grid[last])).to.equal(before);
      grid[last] = { continuationItemViewModel: { continuationCommand: { innertubeCommand: { commandExecutorCommand: { commands: [command] } } } } };
      expect(parseBrowsePage(json).videos).to.have.length(30);
      expect(parseBrowsePage(json).continuation).to.equal('TOKEN-123');
    });
  });

  describe('resolve_url answers', () => {
    const channel = captureJson('resolve_url-handle.json');
    it('the real WEB_PAGE_TYPE_CHANNEL answer, and the same as WEB_PAGE_TYPE_BROWSE', () => {
      expect(readResolveAnswer(channel)).to.deep.equal({ channelId: 'UCYJ61XIK64sp6ZFFS8sctxw' });
      const browse = JSON.parse(JSON.stringify(channel).replace('WEB_PAGE_TYPE_CHANNEL', 'WEB_PAGE_TYPE_BROWSE')) as unknown;
      expect(readResolveAnswer(browse)).to.deep.equal({ channelId: 'UCYJ61XIK64sp6ZFFS8sctxw' });
    });
    it('WEB_PAGE_TYPE_UNKNOWN with a urlEndpoint on the platform host → follow; any other host → nothing', () => {
      const unknown = (url: string): unknown => ({
        endpoint: { commandMetadata: { webCommandMetadata: { webPageType: 'WEB_PAGE_TYPE_UNKNOWN' } }, urlEndpoint: { url } },
      });
      expect(readResolveAnswer(unknown('https://www.youtube.com/@gronkh'))).to.deep.equal({ follow: 'https://www.youtube.com/@gronkh' });
      expect(readResolveAnswer(unknown('/channel/UCYJ61XIK64sp6ZFFS8sctxw'))).to.deep.equal({ follow: 'https://www.youtube.com/channel/UCYJ61XIK64sp6ZFFS8sctxw' });
      expect(readResolveAnswer(unknown('https://evil.example/@gronkh'))).to.equal(null);
      expect(readResolveAnswer(unknown('javascript:alert(1)'))).to.equal(null);
    });

    describe('followed over HTTP', () => {
      // The scripted platform over real loopback HTTP; a request no route expected fails the test.
      const platform = useRecordingServer();
      const redirectTo = (url: string): string => JSON.stringify({
        endpoint: { commandMetadata: { webCommandMetadata: { webPageType: 'WEB_PAGE_TYPE_UNKNOWN' } }, urlEndpoint: { url } },
      });

      it('follows up to 3 redirects, each passed back to resolve_url as its url', async () => {
        const asked: string[] = [];
        const answers = [redirectTo('https://www.youtube.com/@a'), redirectTo('https://www.youtube.com/@b'), redirectTo('https://www.youtube.com/@c'), capture('resolve_url-handle.json')];
        platform.on('POST', '/youtubei/v1/navigation/resolve_url', (req) => {
          asked.push(String((JSON.parse(req.body) as { url: string }).url));
          return { body: answers.shift()!, headers: { 'content-type': 'application/json' } };
        }, 4);
        const client = createPlatformClient(platformConfig(platform.base), silentLogger());
        expect(await client.resolveHandle('old')).to.equal('UCYJ61XIK64sp6ZFFS8sctxw');
        expect(asked).to.deep.equal(['https://www.youtube.com/@old', 'https://www.youtube.com/@a', 'https://www.youtube.com/@b', 'https://www.youtube.com/@c']);
      });

      it('a fourth redirect (or a loop) gives up on resolve_url and asks the handle page', async () => {
        platform.on('POST', '/youtubei/v1/navigation/resolve_url', { body: redirectTo('https://www.youtube.com/@loop'), headers: { 'content-type': 'application/json' } }, 4);
        const page = platform.on('GET', '/@old', { body: '<link rel="canonical" href="https://www.youtube.com/channel/UCYJ61XIK64sp6ZFFS8sctxw">', headers: { 'content-type': 'text/html' } });
        const client = createPlatformClient(platformConfig(platform.base), silentLogger());
        expect(await client.resolveHandle('old')).to.equal('UCYJ61XIK64sp6ZFFS8sctxw');
        expect(page[0]!.query.toString(), 'the handle page is asked without a query').to.equal('');
      });
    });
  });
});
