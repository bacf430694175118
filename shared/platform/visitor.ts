// One visitorData per player client session (docs/crawler.md §3): a `visitor_id` call with that
// client's context before its first player call, then sent as `context.client.visitorData` and
// `X-Goog-Visitor-Id` with every later call of the client. The maintained clients learned that a
// player call without one gets bad answers ("We must always pass a valid visitorData", NewPipe).
// One call serves many videos; it is renewed after a block (the session may be what was flagged)
// and after VISITOR_DATA_MAX_AGE_MS. Concurrent callers share one pending call.

import type { ClientIdentity } from '../config/client-identities';
import { ENDPOINTS, readJson, valueOf } from './endpoint-rules';
import type { PlatformHttp } from './http-client';
import { innertubeRequest } from './innertube';
import { asString, dig } from './page-data';
import { PlatformError } from './types';

/** A session older than this is renewed before its next call. */
export const VISITOR_DATA_MAX_AGE_MS = 6 * 3_600_000;

/** The `responseContext.visitorData` of a visitor_id answer (100 to 1,000 base64url characters). */
export function visitorDataOf(json: unknown): string | null {
  const v = asString(dig(json, 'responseContext', 'visitorData'));
  return v !== null && /^[A-Za-z0-9_%=-]{8,4096}$/.test(v) ? v : null;
}

interface Held {
  readonly value: Promise<string>;
  readonly since: number;
}

export class VisitorSessions {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly http: PlatformHttp,
    private readonly now: () => number = Date.now,
    private readonly maxAgeMs = VISITOR_DATA_MAX_AGE_MS,
  ) {}

  /** This client's visitorData, asking visitor_id only when there is none or it is too old. */
  get(identity: ClientIdentity): Promise<string> {
    const key = identity.key;
    const h = this.held.get(key);
    if (h && this.now() - h.since < this.maxAgeMs) return h.value;
    const value = this.ask(identity);
    this.held.set(key, { value, since: this.now() });
    // A failed call is forgotten at once, so the next video asks again.
    value.catch(() => {
      if (this.held.get(key)?.value === value) this.held.delete(key);
    });
    return value;
  }

  /** Forget this client's session (after a block): the next call starts a new one. */
  renew(identity: ClientIdentity): void {
    this.held.delete(identity.key);
  }

  private async ask(identity: ClientIdentity): Promise<string> {
    const what = `visitor_id (${identity.key})`;
    const a = await innertubeRequest(this.http, { endpoint: 'visitor_id', identity, body: {}, what });
    const rule = { ...ENDPOINTS.visitorId, what };
    const v = visitorDataOf(valueOf(readJson(a, rule), rule));
    if (v === null) throw new PlatformError('transient', `${what}: no visitorData in the answer`);
    return v;
  }
}
