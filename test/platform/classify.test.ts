import { expect } from 'chai';
import {
  classifyAnswer,
  classifyBrowse,
  classifyPlayer,
  classifyTimedText,
  isChallengePage,
  type RawAnswer,
} from '../../shared/platform/classify';
import { blockKind } from '../../crawler/metrics';
import { AllClientsRefusedError, PlatformError, type BlockKind } from '../../shared/platform/types';
import { capture, captureJson } from './support';

const answer = (over: Partial<RawAnswer>): RawAnswer => ({ status: 200, contentType: 'text/html; charset=utf-8', body: '', location: null, ...over });

describe('classification of platform answers (docs/crawler.md §4)', () => {
  describe('transport and page level', () => {
    const rows: [string, Partial<RawAnswer>, string, BlockKind | null][] = [
      ['HTTP 429 on any request', { status: 429, contentType: 'application/json', body: '{}' }, 'blocked', 'http_429'],
      ['captcha page with 429 (real capture)', { status: 429, body: capture('captcha-429.html') }, 'blocked', 'http_429'],
      ['captcha page with 200 (real capture)', { status: 200, body: capture('captcha-429.html') }, 'blocked', 'captcha'],
      ['a form to /das_captcha alone', { body: '<html><form action="/das_captcha?fw=1" method="POST"></form></html>' }, 'blocked', 'captcha'],
      ['consent form (real capture)', { body: capture('consent-page.html') }, 'consent', null],
      ['redirect to consent.youtube.com/m', { status: 302, location: 'https://consent.youtube.com/m?continue=https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3Dx' }, 'consent', null],
      ['redirect to a "sorry" captcha', { status: 302, location: 'https://www.google.com/sorry/index?continue=x' }, 'blocked', 'captcha'],
      ['a JavaScript challenge page', { status: 200, body: '<html><script>document.cookie="c=1; path=/";setTimeout(function(){location.reload()},250)</script></html>' }, 'blocked', 'js_challenge'],
      ['HTTP 500', { status: 500 }, 'transient', null],
      ['HTTP 503', { status: 503, body: 'x' }, 'transient', null],
      ['HTTP 403', { status: 403 }, 'blocked', null],
      ['resolve_url 404 (real capture)', { status: 404, contentType: 'application/json', body: capture('resolve_url-unknown-handle-404.json') }, 'not_found', null],
      ['browse 400 INVALID_ARGUMENT', { status: 400, contentType: 'application/json', body: '{"error":{"code":400,"status":"INVALID_ARGUMENT"}}' }, 'not_found', null],
      ['an ordinary page', { body: '<!DOCTYPE html><html><body>ytInitialData</body></html>' }, 'ok', null],
    ];
    for (const [name, over, outcome, block] of rows) {
      it(`${name} → ${outcome}${block ? ` (${block})` : ''}`, () => {
        const v = classifyAnswer(answer(over));
        expect(v.outcome).to.equal(outcome);
        if (v.outcome !== 'ok') expect(v.reason).to.be.a('string').and.not.equal('');
        expect(v.outcome === 'ok' || v.outcome === 'consent' ? null : v.block ?? null).to.equal(block);
      });
    }

    it('reads the hidden v of the consent form', () => {
      const v = classifyAnswer(answer({ body: capture('consent-page.html') }));
      expect(v).to.deep.include({ outcome: 'consent', consentValue: 'cb.20210328-17-p0.de+FX+119' });
    });

    it('a real watch page is not a challenge page just because it sets cookies', () => {
      const big = `<html>${'x'.repeat(100_000)}<script>document.cookie="a=b";location.reload()</script></html>`;
      expect(isChallengePage(big)).to.equal(false);
      expect(isChallengePage('<html><title>Just a moment...</title></html>')).to.equal(true);
    });
  });

  describe('player answers (real ANDROID captures)', () => {
    it('OK with captions → ok', () => {
      expect(classifyPlayer(captureJson('player-android-ok.json'), 'GJLlxj_dtq8')).to.deep.equal({ outcome: 'ok' });
    });
    it('OK without captions → no_captions', () => {
      expect(classifyPlayer(captureJson('player-android-transcripts_disabled.json'), 'dsMFmonKDD4').outcome).to.equal('no_captions');
    });
    it('LOGIN_REQUIRED bot check (U+2019) → blocked', () => {
      const v = classifyPlayer(captureJson('player-android-request_blocked.json'), 'abcdefghijk');
      expect(v.outcome).to.equal('blocked');
      expect(v).to.have.property('reason').that.includes('not a bot');
    });
    it('LOGIN_REQUIRED age restriction → unavailable', () => {
      const v = classifyPlayer(captureJson('player-android-age_restricted.json'), 'Njp5uhTorCo');
      expect(v.outcome).to.equal('unavailable');
      expect(v).to.have.property('reason').that.includes('age restricted');
    });
    it('ERROR "This video is unavailable" → unavailable', () => {
      const v = classifyPlayer(captureJson('player-android-video_unavailable.json'), 'abcdefghijk');
      expect(v.outcome).to.equal('unavailable');
      expect(v).to.have.property('reason').that.includes('This video is unavailable');
    });
    it('"This content isn\'t available, try again later" → blocked, signal session_rate_limited (every wording)', () => {
      const wordings = [
        "This content isn't available, try again later.",
        'This content isn’t available, try again later.',
        "This content isn't available, try again later",
      ];
      for (const reason of wordings) {
        for (const ps of [{ status: 'UNPLAYABLE', reason }, { status: 'ERROR', errorScreen: { playerErrorMessageRenderer: { reason: { simpleText: reason } } } }]) {
          const v = classifyPlayer({ playabilityStatus: ps }, 'x');
          expect(v, reason).to.deep.include({ outcome: 'blocked', signal: 'session_rate_limited' });
        }
      }
      // The bot check is an ordinary block: the blocked wait and the unblockers, no cool-down.
      const bot = classifyPlayer(captureJson('player-android-request_blocked.json'), 'abcdefghijk');
      expect(bot.outcome).to.equal('blocked');
      expect(bot).not.to.have.property('signal');
    });
    it('the bot check in either apostrophe → blocked without a signal', () => {
      for (const reason of ['Sign in to confirm you’re not a bot', "Sign in to confirm you're not a bot"]) {
        const v = classifyPlayer({ playabilityStatus: { status: 'LOGIN_REQUIRED', reason } }, 'x');
        expect(v, reason).to.deep.include({ outcome: 'blocked' });
        expect(v).not.to.have.property('signal');
      }
    });
    it('LIVE_STREAM_OFFLINE (a premiere or stream not aired) → no_captions, signal not_aired', () => {
      for (const reason of ['Premieres in 2 hours', 'This live event will begin in a few moments.', undefined]) {
        const v = classifyPlayer({ playabilityStatus: { status: 'LIVE_STREAM_OFFLINE', reason } }, 'x');
        expect(v, String(reason)).to.deep.include({ outcome: 'no_captions', signal: 'not_aired' });
      }
      // A video whose captions are off is not upcoming.
      expect(classifyPlayer(captureJson('player-android-transcripts_disabled.json'), 'dsMFmonKDD4')).not.to.have.property('signal');
    });
    it('one client\'s "try again later" among refusals makes the whole refusal session_rate_limited', () => {
      const tryLater = classifyPlayer({ playabilityStatus: { status: 'UNPLAYABLE', reason: "This content isn't available, try again later" } }, 'x');
      const bot = classifyPlayer(captureJson('player-android-request_blocked.json'), 'abcdefghijk');
      if (tryLater.outcome !== 'blocked' || bot.outcome !== 'blocked') throw new Error('both are blocks');
      expect(new AllClientsRefusedError('x', [{ client: 'VISIONOS', ...bot }, { client: 'ANDROID', ...tryLater }]).signal).to.equal('session_rate_limited');
      expect(new AllClientsRefusedError('x', [{ client: 'VISIONOS', ...bot }]).signal).to.equal(null);
    });
    it('videoDetails.videoId ≠ requested → blocked (poisoned)', () => {
      const v = classifyPlayer(captureJson('player-android-ok.json'), 'AAAAAAAAAAA');
      expect(v.outcome).to.equal('blocked');
      expect(v).to.have.property('reason').that.includes('poisoned');
      expect(v).to.have.property('signal', 'poisoned');
    });
    it('UNPLAYABLE → unavailable; unknown status → transient', () => {
      expect(classifyPlayer({ playabilityStatus: { status: 'UNPLAYABLE', reason: 'Private video' } }, 'x').outcome).to.equal('unavailable');
      expect(classifyPlayer({}, 'x').outcome).to.equal('transient');
    });
  });

  describe('the 2026 answers (docs/crawler.md §4)', () => {
    const ps = (playabilityStatus: Record<string, unknown>) => classifyPlayer({ playabilityStatus }, 'x');
    const screen = (reason: string, subreason?: string) => ({ playerErrorMessageRenderer: { reason: { runs: [{ text: reason }] }, ...(subreason ? { subreason: { simpleText: subreason } } : {}) } });

    it('HTTP 400 FAILED_PRECONDITION (or its message alone) → transient with signal client_retired; INVALID_ARGUMENT stays not_found, a bare 400 transient', () => {
      const precondition = '{"error":{"code":400,"message":"Precondition check failed.","status":"FAILED_PRECONDITION"}}';
      for (const body of [precondition, '{"error":{"message":"Precondition check failed."}}']) {
        expect(classifyAnswer(answer({ status: 400, contentType: 'application/json', body }))).to.deep.equal({
          outcome: 'transient', reason: 'HTTP 400 FAILED_PRECONDITION (this client version is retired)', signal: 'client_retired',
        });
      }
      expect(classifyAnswer(answer({ status: 400, contentType: 'application/json', body: '{"error":{"status":"INVALID_ARGUMENT"}}' })).outcome).to.equal('not_found');
      expect(classifyAnswer(answer({ status: 400, contentType: 'application/json', body: '{}' }))).to.deep.equal({ outcome: 'transient', reason: 'HTTP 400' });
    });

    it('an age check in every spelling → unavailable, signal age_restricted: never transient, never a block', () => {
      const spellings = [
        { status: 'AGE_VERIFICATION_REQUIRED' },
        { status: 'AGE_CHECK_REQUIRED', reason: 'Sign in to view this video' },
        { status: 'LOGIN_REQUIRED', reason: 'Please confirm your age.' },
        { status: 'LOGIN_REQUIRED', errorScreen: screen('Sign in to confirm your age') },
        { status: 'UNPLAYABLE', reason: 'This video is age-restricted and only available on YouTube.' },
        { status: 'ERROR', errorScreen: screen('Video unavailable', 'This video is age restricted') },
        { status: 'LOGIN_REQUIRED', reason: 'This video may be inappropriate for some users.' },
      ];
      for (const spelled of spellings) {
        const v = ps(spelled);
        expect(v, JSON.stringify(spelled)).to.deep.include({ outcome: 'unavailable', signal: 'age_restricted' });
        expect(v).to.have.property('reason').that.match(/^age restricted: /);
      }
      // The bot check's "confirm you're not a bot" is not an age check.
      expect(ps({ status: 'LOGIN_REQUIRED', reason: 'Sign in to confirm you’re not a bot' }).outcome).to.equal('blocked');
    });

    it('"The page needs to be reloaded." → transient with signal client_fault (the client\'s, not the video\'s)', () => {
      expect(ps({ status: 'UNPLAYABLE', reason: 'The page needs to be reloaded.' })).to.deep.include({ outcome: 'transient', signal: 'client_fault' });
      expect(ps({ status: 'UNPLAYABLE', errorScreen: screen('The page needs to be reloaded.') })).to.deep.include({ signal: 'client_fault' });
    });

    it('a made-for-kids refusal, UNPLAYABLE or ERROR, → unavailable with signal made_for_kids; "playback on other websites has been disabled" → not_embeddable', () => {
      for (const status of ['UNPLAYABLE', 'ERROR']) {
        expect(ps({ status, reason: "Made for kids videos aren't available on this app" }), status).to.deep.include({ outcome: 'unavailable', signal: 'made_for_kids' });
        expect(ps({ status, errorScreen: screen('Video unavailable', 'This video is made for kids') }), status).to.deep.include({ signal: 'made_for_kids' });
      }
      expect(ps({ status: 'UNPLAYABLE', reason: 'Playback on other websites has been disabled by the video owner.' })).to.deep.include({ outcome: 'unavailable', signal: 'not_embeddable' });
      expect(ps({ status: 'UNPLAYABLE', reason: 'This video is not available on this app' })).to.deep.equal({ outcome: 'unavailable', reason: 'UNPLAYABLE: This video is not available on this app' });
    });
  });

  describe('the kind of each block, for the operator\'s count (never read from the reason text)', () => {
    const blockOf = (v: ReturnType<typeof classifyPlayer>): BlockKind | null => (v.outcome === 'blocked' ? v.block ?? null : null);
    it('the player\'s own refusals, in the platform\'s words', () => {
      expect(blockOf(classifyPlayer(captureJson('player-android-request_blocked.json'), 'abcdefghijk'))).to.equal('bot_check');
      for (const reason of ["This content isn't available, try again later", 'This content isn’t available, try again later.']) {
        expect(blockOf(classifyPlayer({ playabilityStatus: { status: 'UNPLAYABLE', reason } }, 'x')), reason).to.equal('session_rate_limit');
      }
      expect(blockOf(classifyPlayer({ playabilityStatus: { status: 'LOGIN_REQUIRED', errorScreen: { playerCaptchaViewModel: {} } } }, 'x'))).to.equal('captcha');
      expect(blockOf(classifyPlayer(captureJson('player-android-ok.json'), 'AAAAAAAAAAA'))).to.equal('poisoned');
      expect(blockOf(classifyTimedText(answer({ body: '' })))).to.equal('empty_timed_text');
    });
    it('a refusal by every client counts as the gravest refusal among them, else as all_clients_refused', () => {
      const tryLater = classifyPlayer({ playabilityStatus: { status: 'UNPLAYABLE', reason: "This content isn't available, try again later" } }, 'x');
      const bot = classifyPlayer(captureJson('player-android-request_blocked.json'), 'abcdefghijk');
      const refused = classifyAnswer(answer({ status: 403 }));
      if (tryLater.outcome !== 'blocked' || bot.outcome !== 'blocked' || refused.outcome !== 'blocked') throw new Error('all are blocks');
      expect(new AllClientsRefusedError('x', [{ client: 'ANDROID', ...tryLater }, { client: 'VISIONOS', ...bot }]).block).to.equal('bot_check');
      expect(new AllClientsRefusedError('x', [{ client: 'ANDROID', ...tryLater }]).block).to.equal('session_rate_limit');
      expect(new AllClientsRefusedError('x', [{ client: 'ANDROID', ...refused }]).block).to.equal('all_clients_refused');
    });
    it('the counter\'s label is the classifier\'s kind, whatever the reason says', () => {
      expect(blockKind(new PlatformError('blocked', 'captcha wall, bot check, HTTP 429'))).to.equal('other');
      expect(blockKind(new PlatformError('blocked', 'anything at all', { block: 'js_challenge' }))).to.equal('js_challenge');
    });
  });

  describe('timed text and browse', () => {
    it('an empty 200 from timed text is a refusal (blocked)', () => {
      expect(classifyTimedText(answer({ body: '' })).outcome).to.equal('blocked');
      expect(classifyTimedText(answer({ body: '  \n' })).outcome).to.equal('blocked');
      expect(classifyTimedText(answer({ contentType: 'text/xml', body: '<transcript></transcript>' })).outcome).to.equal('ok');
    });
    it('browse alerts of a removed channel → not_found with the platform\'s words', () => {
      const v = classifyBrowse(captureJson('browse-channel-removed.json'));
      expect(v.outcome).to.equal('not_found');
      expect(v).to.have.property('reason').that.includes('removed');
      expect(classifyBrowse(captureJson('browse-videos-tab-first-page.json')).outcome).to.equal('ok');
    });
  });
});
