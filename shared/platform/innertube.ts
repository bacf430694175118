// InnerTube request bodies and their matching client headers. The body's client and the
// X-YouTube-Client-Name/Version headers must agree, or the answer is a bot signal.

import type { PlatformHttp } from './http-client';
import type { InnertubeClientHeaders } from './headers';

export interface InnertubeClient {
  readonly name: string;
  readonly version: string;
}

/** The web app's own client, used for resolve_url and browse (platform.md §1, §2). */
export const WEB_CLIENT: InnertubeClient = { name: 'WEB', version: '2.20260708.00.00' };

/** X-YouTube-Client-Name numbers of the clients worth configuring. */
const CLIENT_IDS: Readonly<Record<string, number>> = {
  WEB: 1, MWEB: 2, ANDROID: 3, IOS: 5, TVHTML5: 7, ANDROID_VR: 28, WEB_EMBEDDED_PLAYER: 56,
  WEB_CREATOR: 62, TVHTML5_SIMPLY_EMBEDDED_PLAYER: 85, VISIONOS: 101,
};

/** Extra context fields some clients are expected to send with their name. */
const CLIENT_EXTRAS: Readonly<Record<string, Record<string, unknown>>> = {
  ANDROID: { androidSdkVersion: 30, osName: 'Android', osVersion: '11' },
  VISIONOS: { deviceMake: 'Apple', deviceModel: 'RealityDevice14,1', osName: 'visionOS', osVersion: '1.3.21O771' },
};

export function clientHeaders(client: InnertubeClient): InnertubeClientHeaders | undefined {
  const id = CLIENT_IDS[client.name];
  return id === undefined ? undefined : { id, version: client.version };
}

export function innertubeContext(client: InnertubeClient): { client: Record<string, unknown> } {
  return {
    client: { clientName: client.name, clientVersion: client.version, hl: 'en', gl: 'US', ...CLIENT_EXTRAS[client.name] },
  };
}

/** POST {base}/youtubei/v1/<endpoint>?prettyPrint=false with the client's context added to `body`. */
export function innertubeRequest(
  http: PlatformHttp,
  endpoint: string,
  client: InnertubeClient,
  body: Record<string, unknown>,
  what: string,
  referer?: string,
): ReturnType<PlatformHttp['send']> {
  return http.send({
    method: 'POST',
    target: `/youtubei/v1/${endpoint}?prettyPrint=false`,
    kind: 'innertube',
    body: { context: innertubeContext(client), ...body },
    client: clientHeaders(client),
    referer,
    what,
  });
}
