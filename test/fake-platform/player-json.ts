// Player answers in the shapes of the captured ANDROID answers: OK with captions, OK without
// (transcripts disabled), age restricted, unavailable, the bot check, the "try again later" rate
// limit. The playabilityStatus objects are copied from the captures (player-android-*.json).

import type { FakeChannelSpec, FakeVideoSpec } from './types';
import type { CaptionTrack } from './catalog';
import { languageName } from './catalog';
import { lengthOf, generateCues } from './cues';
import { captionUrl, TRANSLATION_LANGUAGES, type CaptionUrlOptions } from './timedtext';
import { responseContext, trackingParams, viewCount } from './texts';

export interface PlayerClient {
  name: string;
  version: string;
  /** Make every caption URL of this answer token-bound with `exp=xpv` (the `xpv` client trouble). */
  tokenExp?: 'xpv';
}

/** Clients whose caption URLs need no proof-of-origin token (docs/crawler.md §3): the app and TV clients. */
export function captionUrlOptions(client: PlayerClient): CaptionUrlOptions {
  if (client.tokenExp) return { fmt: null, needsToken: true, exp: client.tokenExp };
  if (client.name === 'ANDROID') return { fmt: 'srv3', needsToken: false };
  if (client.name === 'VISIONOS' || client.name === 'TVHTML5' || client.name === 'WEB_EMBEDDED_PLAYER') return { fmt: null, needsToken: false };
  return { fmt: null, needsToken: true };
}

function videoDetails(video: FakeVideoSpec, channel: FakeChannelSpec, videoId = video.videoId): unknown {
  const seconds = lengthOf(video.cues ?? generateCues(video.videoId, video.language));
  return {
    videoId,
    title: video.title,
    lengthSeconds: String(seconds),
    keywords: [channel.title, 'tutorial'],
    channelId: channel.channelId,
    isOwnerViewing: false,
    shortDescription: video.description ?? `${video.title}\n\nMore videos: https://www.youtube.com/@${channel.handle}`,
    isCrawlable: true,
    thumbnail: {
      thumbnails: [
        { url: `https://i.ytimg.com/vi/${video.videoId}/default.jpg`, width: 120, height: 90 },
        { url: `https://i.ytimg.com/vi/${video.videoId}/mqdefault.jpg`, width: 320, height: 180 },
        { url: `https://i.ytimg.com/vi/${video.videoId}/hqdefault.jpg`, width: 480, height: 360 },
      ],
    },
    allowRatings: true,
    viewCount: String(viewCount(video.videoId)),
    author: channel.title,
    isPrivate: false,
    isUnpluggedCorpus: false,
    isLiveContent: video.live !== undefined,
    ...(video.live === 'upcoming' ? { isUpcoming: true } : {}),
  };
}

function captionTrack(origin: string, videoId: string, track: CaptionTrack, client: PlayerClient): unknown {
  const name = languageName(track.languageCode) + (track.kind === 'asr' ? ' (auto-generated)' : '');
  return {
    baseUrl: captionUrl(origin, videoId, track, captionUrlOptions(client)),
    name: { runs: [{ text: name }] },
    vssId: `${track.kind === 'asr' ? 'a' : ''}.${track.languageCode}`,
    languageCode: track.languageCode,
    ...(track.kind === 'asr' ? { kind: 'asr' } : {}),
    isTranslatable: true,
    trackName: '',
  };
}

export function captions(origin: string, videoId: string, tracks: CaptionTrack[], client: PlayerClient): unknown {
  const manualFirst = tracks.findIndex((t) => t.kind === 'manual');
  return {
    playerCaptionsTracklistRenderer: {
      captionTracks: tracks.map((t) => captionTrack(origin, videoId, t, client)),
      audioTracks: [
        {
          captionTrackIndices: tracks.map((_, i) => i),
          defaultCaptionTrackIndex: Math.max(0, manualFirst),
          hasDefaultTrack: true,
          captionsInitialState: 'CAPTIONS_INITIAL_STATE_OFF_RECOMMENDED',
        },
      ],
      // A language that has an automatic track names it as the translation source.
      translationLanguages: TRANSLATION_LANGUAGES.map((languageCode) => {
        const asrIndex = tracks.findIndex((t) => t.kind === 'asr' && t.languageCode === languageCode);
        return {
          languageCode,
          languageName: { runs: [{ text: languageName(languageCode) }] },
          ...(asrIndex >= 0 ? { translationSourceTrackIndices: [asrIndex] } : {}),
        };
      }),
      defaultAudioTrackIndex: 0,
      defaultTranslationSourceTrackIndices: [Math.max(0, manualFirst)],
    },
  };
}

const OK_STATUS = {
  status: 'OK',
  playableInEmbed: true,
  miniplayer: { miniplayerRenderer: { playbackMode: 'PLAYBACK_MODE_ALLOW' } },
  contextParams: 'Q0FFU0FnZ0M=',
};

function envelope(client: PlayerClient, seed: string): { responseContext: unknown; trackingParams: string } {
  return { responseContext: responseContext(client.name, client.version), trackingParams: trackingParams(`player:${seed}`) };
}

/** Status OK; `captions` only when the video has tracks. `poisonedId` replaces videoDetails.videoId. */
export function playerOk(
  origin: string,
  video: FakeVideoSpec,
  channel: FakeChannelSpec,
  tracks: CaptionTrack[],
  client: PlayerClient,
  poisonedId?: string,
): unknown {
  const { responseContext: rc, trackingParams: tp } = envelope(client, video.videoId);
  return {
    responseContext: rc,
    playabilityStatus: OK_STATUS,
    streamingData: { expiresInSeconds: '21540', formats: [], adaptiveFormats: [] },
    playbackTracking: {},
    ...(tracks.length > 0 ? { captions: captions(origin, video.videoId, tracks, client) } : {}),
    videoDetails: videoDetails(video, channel, poisonedId),
    playerConfig: {},
    storyboards: {},
    trackingParams: tp,
  };
}

function errorScreen(reason: string, subreason?: string): unknown {
  return {
    playerErrorMessageRenderer: {
      ...(subreason ? { subreason: { runs: [{ text: subreason }] } } : {}),
      reason: { runs: [{ text: reason }] },
      thumbnail: { thumbnails: [{ url: '//s.ytimg.com/yts/img/meh7-vflGevej7.png', width: 140, height: 100 }] },
      icon: { iconType: 'ERROR_OUTLINE' },
    },
  };
}

/**
 * A premiere or stream that has not aired: LIVE_STREAM_OFFLINE with the countdown as reason, no
 * captions, videoDetails marked isUpcoming (the shape yt-dlp reads for `is_upcoming`).
 */
export function playerUpcoming(video: FakeVideoSpec, channel: FakeChannelSpec, client: PlayerClient): unknown {
  return {
    ...envelope(client, video.videoId),
    playabilityStatus: {
      status: 'LIVE_STREAM_OFFLINE',
      reason: 'Premieres in 2 hours',
      playableInEmbed: true,
      liveStreamability: { liveStreamabilityRenderer: { videoId: video.videoId, pollDelayMs: '15000' } },
      contextParams: 'Q0FFU0FnZ0I=',
    },
    videoDetails: videoDetails(video, channel),
  };
}

/** player-android-video_unavailable.json: gone, private, or never existed. */
export function playerUnavailable(client: PlayerClient, seed: string): unknown {
  return {
    ...envelope(client, seed),
    playabilityStatus: {
      status: 'ERROR',
      reason: 'This video is unavailable',
      errorScreen: errorScreen('This video is unavailable'),
      contextParams: 'Q0FBU0FnZ0E=',
    },
  };
}

/** player-android-age_restricted.json: LOGIN_REQUIRED with the age reason; videoDetails present. */
export function playerAgeRestricted(video: FakeVideoSpec, channel: FakeChannelSpec, client: PlayerClient): unknown {
  const reason = 'This video may be inappropriate for some users.';
  const button = (text: string) => ({
    buttonRenderer: { style: 'STYLE_BLUE_TEXT', size: 'SIZE_DEFAULT', isDisabled: false, text: { runs: [{ text }] }, trackingParams: trackingParams(text) },
  });
  return {
    ...envelope(client, video.videoId),
    playabilityStatus: {
      status: 'LOGIN_REQUIRED',
      reason,
      errorScreen: {
        confirmDialogRenderer: {
          title: { runs: [{ text: 'You must sign in to view this video' }] },
          trackingParams: trackingParams('age'),
          dialogMessages: [{ runs: [{ text: reason }] }],
          confirmButton: button('Sign in'),
          cancelButton: button('Go back'),
        },
      },
      desktopLegacyAgeGateReason: 1,
      reasonTitle: 'You must sign in to view this video',
      contextParams: 'Q0FFU0FnZ0I=',
    },
    videoDetails: videoDetails(video, channel),
  };
}

/** player-android-request_blocked.json: the bot check (note the U+2019 apostrophe). */
export function playerBotCheck(client: PlayerClient, seed: string): unknown {
  const reason = 'Sign in to confirm you’re not a bot';
  return {
    ...envelope(client, seed),
    playabilityStatus: {
      status: 'LOGIN_REQUIRED',
      reason,
      errorScreen: {
        playerErrorMessageRenderer: {
          subreason: {
            runs: [
              { text: 'This helps protect our community. ' },
              {
                text: 'Learn more',
                navigationEndpoint: {
                  clickTrackingParams: trackingParams('learn'),
                  urlEndpoint: { url: 'https://support.google.com/youtube/answer/3037019#zippy=%2Ccheck-that-youre-signed-into-youtube' },
                },
              },
            ],
          },
          reason: { runs: [{ text: reason }] },
          proceedButton: {
            buttonRenderer: {
              style: 'STYLE_PRIMARY',
              size: 'SIZE_DEFAULT',
              isDisabled: false,
              text: { simpleText: 'Sign in' },
              navigationEndpoint: {
                clickTrackingParams: trackingParams('signin'),
                signInEndpoint: { nextEndpoint: { clickTrackingParams: trackingParams('signin'), urlEndpoint: { url: '' } } },
              },
              trackingParams: trackingParams('signin'),
            },
          },
          thumbnail: { thumbnails: [{ url: '//s.ytimg.com/yts/img/meh7-vflGevej7.png', width: 140, height: 100 }] },
          icon: { iconType: 'ERROR_OUTLINE' },
        },
      },
      skip: { playabilityErrorSkipConfig: { skipOnPlayabilityError: false } },
      contextParams: 'Q0FFU0FnZ0M=',
    },
  };
}

/**
 * The session rate limit. The top-level reason is docs/crawler.md §4's wording; the error screen says
 * "Video unavailable" with the sentence as subreason, which is how yt-dlp reports it.
 */
export function playerRateLimited(client: PlayerClient, seed: string): unknown {
  return {
    ...envelope(client, seed),
    playabilityStatus: {
      status: 'ERROR',
      reason: "This content isn't available, try again later",
      errorScreen: errorScreen('Video unavailable', "This content isn't available, try again later."),
      contextParams: 'Q0FBU0FnZ0E=',
    },
  };
}

/**
 * The 2026 captcha before playback: `errorScreen.playerCaptchaViewModel` (yt-dlp reports it with
 * status LOGIN_REQUIRED and no reason a parser keyed on the bot-check sentence would catch).
 */
export function playerCaptchaViewModel(client: PlayerClient, seed: string): unknown {
  return {
    ...envelope(client, seed),
    playabilityStatus: {
      status: 'LOGIN_REQUIRED',
      errorScreen: {
        playerCaptchaViewModel: {
          captchaViewModel: { siteKey: '6Lc-fake-site-key', captchaType: 'CAPTCHA_TYPE_RECAPTCHA_V2' },
          title: { content: 'Confirm you are human' },
        },
      },
      contextParams: 'Q0FFU0FnZ0M=',
    },
  };
}

/** Unplayable on this client only (made-for-kids videos on VISIONOS and ANDROID_VR). */
export function playerUnplayable(client: PlayerClient, seed: string): unknown {
  return {
    ...envelope(client, seed),
    playabilityStatus: {
      status: 'UNPLAYABLE',
      reason: 'This video is not available on this app',
      errorScreen: errorScreen('This video is not available on this app'),
      contextParams: 'Q0FBU0FnZ0E=',
    },
  };
}
