// The player's 2026 refusals (docs/crawler.md §3, §4) beyond the captured ones in player-json.ts:
// a retired client version (HTTP 400 FAILED_PRECONDITION), the made-for-kids refusal of VISIONOS
// (UNPLAYABLE, since July 2026 ERROR), the TV client's "The page needs to be reloaded.", the
// embedded player on a video that may not be embedded, and the age check in each spelling the
// maintained clients read (yt-dlp's `_is_agegated`).

import type { AgeSpelling, FakeChannelSpec, FakeVideoSpec } from './types';
import type { PlayerClient } from './player-json';
import { playerAgeRestricted } from './player-json';
import { responseContext, trackingParams } from './texts';

export const AGE_SPELLINGS: readonly AgeSpelling[] = ['inappropriate', 'AGE_VERIFICATION_REQUIRED', 'AGE_CHECK_REQUIRED', 'confirm_your_age', 'age_restricted_reason'];

function envelope(client: PlayerClient, seed: string): { responseContext: unknown; trackingParams: string } {
  return { responseContext: responseContext(client.name, client.version), trackingParams: trackingParams(`player:${seed}`) };
}

function errorScreen(reason: string, subreason?: string): unknown {
  return {
    playerErrorMessageRenderer: {
      ...(subreason ? { subreason: { runs: [{ text: subreason }] } } : {}),
      reason: { runs: [{ text: reason }] },
      icon: { iconType: 'ERROR_OUTLINE' },
    },
  };
}

const refusal = (client: PlayerClient, seed: string, status: string, reason: string, subreason?: string): unknown => ({
  ...envelope(client, seed),
  playabilityStatus: { status, reason, errorScreen: errorScreen(reason, subreason), contextParams: 'Q0FBU0FnZ0E=' },
});

/** VISIONOS on a made-for-kids video: UNPLAYABLE, or since July 2026 ERROR, with the made-for-kids reason. */
export const playerMadeForKids = (client: PlayerClient, seed: string, status: 'UNPLAYABLE' | 'ERROR'): unknown =>
  refusal(client, seed, status, "Made for kids videos aren't available on this app", 'Watch this video on YouTube Kids or in a web browser.');

/** The TV client's own fault (yt-dlp #17389, August 2026). */
export const playerReload = (client: PlayerClient, seed: string): unknown =>
  refusal(client, seed, 'UNPLAYABLE', 'The page needs to be reloaded.');

/** The embedded player on a video its owner keeps off other sites. */
export const playerNotEmbeddable = (client: PlayerClient, seed: string): unknown =>
  refusal(client, seed, 'UNPLAYABLE', 'Playback on other websites has been disabled by the video owner.', 'Watch on YouTube');

/** The age check, in the spelling the video's spec names (the captured one by default). */
export function playerAgeCheck(video: FakeVideoSpec, channel: FakeChannelSpec, client: PlayerClient): unknown {
  const seed = video.videoId;
  switch (video.ageCheck ?? 'inappropriate') {
    case 'inappropriate':
      return playerAgeRestricted(video, channel, client);
    case 'AGE_VERIFICATION_REQUIRED':
      return { ...envelope(client, seed), playabilityStatus: { status: 'AGE_VERIFICATION_REQUIRED', reason: 'Sign in to view this video', contextParams: 'Q0FFU0FnZ0I=' } };
    case 'AGE_CHECK_REQUIRED':
      return { ...envelope(client, seed), playabilityStatus: { status: 'AGE_CHECK_REQUIRED', errorScreen: errorScreen('Age check required'), contextParams: 'Q0FFU0FnZ0I=' } };
    case 'confirm_your_age':
      return refusal(client, seed, 'LOGIN_REQUIRED', 'Please confirm your age.', 'Sign in to confirm your age');
    case 'age_restricted_reason':
      return refusal(client, seed, 'UNPLAYABLE', 'This video is age-restricted and only available on YouTube.');
  }
}

/**
 * Which client versions the platform refuses outright (docs/crawler.md §3–§4: ANDROID 19.44.38
 * refused, 21.02.35 served; VISIONOS 0.1 refused; a stale WEB version). Below these, HTTP 400
 * FAILED_PRECONDITION; the `retireClient` switch retires any other version on top.
 */
const OLDEST_SERVED: Readonly<Record<string, string>> = {
  ANDROID: '20.10.38',
  VISIONOS: '1.0',
  WEB: '2.20250101.00.00',
  WEB_EMBEDDED_PLAYER: '1.20250101.00.00',
};

const parts = (v: string): number[] => v.split('.').map((p) => Number.parseInt(p, 10) || 0);

/** a < b, component by component. */
export function versionBelow(a: string, b: string): boolean {
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d < 0;
  }
  return false;
}

/** Whether the platform refuses this client at this version (its own table, or the switch). */
export function isRetired(client: PlayerClient, retiredBySwitch: ReadonlySet<string>): boolean {
  if (retiredBySwitch.has(`${client.name}:${client.version}`) || retiredBySwitch.has(`${client.name}:*`)) return true;
  const oldest = OLDEST_SERVED[client.name];
  return oldest !== undefined && versionBelow(client.version, oldest);
}
