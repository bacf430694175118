// InnerTube requests: the body's `context` and the headers that go with it, built from one client
// identity (client-identities.ts) so that the two can never disagree. An app client's call carries
// the app's own headers; a browser client's the browser set with X-YouTube-Client-Name/Version
// matching the body (docs/crawler.md §3, §6).

import type { ClientIdentity } from '../config/client-identities';
import type { HttpAnswer, PlatformHttp } from './http-client';

export { WEB_IDENTITY } from '../config/client-identities';

export interface InnertubeCall {
  /** `player`, `browse`, `navigation/resolve_url`, `visitor_id`. */
  readonly endpoint: string;
  readonly identity: ClientIdentity;
  /** Members beside `context` (videoId, browseId, continuation…). */
  readonly body: Readonly<Record<string, unknown>>;
  readonly what: string;
  /** Path of the page a browser client's call appears to come from. */
  readonly referer?: string;
  /** This client session's visitorData (visitor.ts), once known. */
  readonly visitorData?: string | null;
  /** A `$fields` mask: comma-separated paths the answer is cut down to (§3). */
  readonly fields?: string;
}

/** The `context` of a call, in the order and shape the recorded 2026 requests have. */
export function innertubeContext(identity: ClientIdentity, visitorData: string | null = null): Record<string, unknown> {
  const client: Record<string, unknown> = {
    clientName: identity.name,
    clientVersion: identity.version,
    ...identity.context,
    ...(identity.userAgent !== null ? { userAgent: identity.userAgent } : {}),
    ...(visitorData ? { visitorData } : {}),
    hl: 'en',
    gl: 'US',
    utcOffsetMinutes: 0,
  };
  return {
    client,
    ...(identity.thirdParty ? { thirdParty: identity.thirdParty } : {}),
    request: { internalExperimentFlags: [], useSsl: true },
    user: { lockedSafetyMode: false },
  };
}

/** POST {base}/youtubei/v1/<endpoint>?prettyPrint=false[&$fields=…] as the identity presents itself. */
export function innertubeRequest(http: PlatformHttp, call: InnertubeCall): Promise<HttpAnswer> {
  const { identity } = call;
  const visitorData = call.visitorData ?? null;
  const fields = call.fields ? `&$fields=${call.fields}` : '';
  const body = { context: innertubeContext(identity, visitorData), ...call.body };
  const target = `/youtubei/v1/${call.endpoint}?prettyPrint=false${fields}`;
  if (identity.presents === 'app' && identity.userAgent !== null) {
    return http.send({
      method: 'POST', target, kind: 'app', body, what: call.what, clientName: identity.name,
      app: { userAgent: identity.userAgent, visitorData },
    });
  }
  return http.send({
    method: 'POST', target, kind: 'innertube', body, what: call.what, clientName: identity.name,
    client: { id: identity.id, version: identity.version, visitorData },
    referer: call.referer,
  });
}
