// Push (WebSub), the crawler's side: every followed channel is subscribed at the platform's hub
// with an unguessable callback token and hub.secret of its own, paced (one request every
// SUBSCRIBE_SPACING_MS: a 1,000-channel import is subscribed within a few minutes, never in one
// burst); a verified lease is renewed before 80 % of it has passed; a subscription the hub refuses
// (5xx, 503, timeout) is tried again after 2, 5, 15, 30, 60 minutes (a longer Retry-After wins), one
// not verified within 15 minutes likewise. While a channel's push is not on (not verified yet,
// denied, failed, lease lapsed) it is polled by its rhythm; when push goes off, it is listed soon.
// A channel nobody follows any more is unsubscribed (its record is made due when the last key lets it
// go): the hub would otherwise keep notifying, and each notification costs a fetch of the budget.
// The API's /websub/<token> records the hub's verifications and denials (api/routes/websub.ts).

import { randomBytes } from 'node:crypto';
import { categoryLogger, type Logger } from '../shared/logger';
import type { Store, WebSubRecord } from '../shared/store/types';
import { LEASE_ASKED_SECONDS, subscribeBackoffMs, VERIFY_WITHIN_MS } from '../shared/push-schedule';
import type { Timing } from './timing';
import { messageOf } from '../shared/error-text';

/** Between two subscribe requests: 1,000 channels in about 3.5 minutes. */
export const SUBSCRIBE_SPACING_MS = 200;
/** How often the subscriber looks for work (new followed channels, renewals, retries). */
export const SUBSCRIBER_POLL_MS = 10_000;
/** Followed channels read per page while looking for ones without a subscription. */
const PAGE = 500;

export const topicFor = (channelId: string): string => `https://www.youtube.com/xml/feeds/videos.xml?channel_id=${channelId}`;
/** 32 URL-safe characters from 24 random bytes: the callback token and hub.secret. */
const unguessable = (): string => randomBytes(24).toString('base64url');

/** Whether push is on for the channel: verified, with a lease that has not lapsed. */
export const pushActive = (r: WebSubRecord | null | undefined, now: Date): boolean =>
  r != null && r.status === 'verified' && r.leaseExpiresAt !== null && r.leaseExpiresAt.getTime() > now.getTime();

export interface SubscriberOptions {
  readonly store: Store;
  /** WEBSUB_HUB_URL. */
  readonly hubUrl: string;
  /** PUBLIC_BASE_URL: the callback is `<it>/websub/<token>`. */
  readonly publicBaseUrl: string;
  readonly timing: Timing;
  readonly logger: Logger;
  readonly timeoutMs: number;
  readonly spacingMs?: number;
  readonly pollMs?: number;
}

interface HubAnswer {
  ok: boolean;
  status: number | null;
  retryAfterMs: number | null;
  error: string | null;
}

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

export class WebSubSubscriber {
  private readonly log: Logger;
  private readonly stopController = new AbortController();
  private loopDone: Promise<void> | null = null;

  constructor(private readonly o: SubscriberOptions) {
    this.log = categoryLogger(o.logger, 'crawler.websub');
  }

  start(): void {
    if (this.loopDone) return;
    this.loopDone = (async () => {
      while (!this.stopController.signal.aborted) {
        try {
          await this.tick();
        } catch (err) {
          this.log.warning({ err }, 'push subscriber pass failed; trying again at the next');
        }
        await this.o.timing.sleep(this.o.pollMs ?? SUBSCRIBER_POLL_MS, this.stopController.signal);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopController.abort();
    await this.loopDone;
  }

  /** One pass: subscriptions due (deadline, renewal, retry), then followed channels never subscribed. Returns the requests sent. */
  async tick(): Promise<number> {
    let sent = 0;
    const now = (): Date => this.o.timing.now();
    for (const record of await this.o.store.webSubDue(now(), 200)) {
      if (this.stopController.signal.aborted) return sent;
      const followed = (await this.o.store.getChannel(record.channelId))?.followed === true;
      if (!followed || record.status === 'unsubscribing') {
        if (sent > 0) await this.o.timing.sleep(this.o.spacingMs ?? SUBSCRIBE_SPACING_MS, this.stopController.signal);
        if (await this.leave(record, followed, now())) sent += 1;
        continue;
      }
      if (await this.settle(record, now())) continue;
      if (sent > 0) await this.o.timing.sleep(this.o.spacingMs ?? SUBSCRIBE_SPACING_MS, this.stopController.signal);
      await this.subscribe(record.channelId, record);
      sent += 1;
    }
    let after: string | null = null;
    for (;;) {
      const page = await this.o.store.followedChannels(after, PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1]!.channelId;
      const known = new Set((await this.o.store.webSubStates(page.map((c) => c.channelId), PAGE)).map((r) => r.channelId));
      for (const channel of page) {
        if (known.has(channel.channelId)) continue;
        if (this.stopController.signal.aborted) return sent;
        if (sent > 0) await this.o.timing.sleep(this.o.spacingMs ?? SUBSCRIBE_SPACING_MS, this.stopController.signal);
        await this.subscribe(channel.channelId, null);
        sent += 1;
      }
      if (page.length < PAGE) break;
    }
    if (sent > 0) this.log.info({ requests: sent }, 'push subscribe requests sent');
    return sent;
  }

  /**
   * A subscription that should end (its channel is not followed), or whose ending the hub never
   * verified. Returns whether a request was sent. Only a subscription the hub may still hold
   * (verified, or asked for) is unsubscribed; any other record, or one whose unsubscribe went
   * unverified for 15 minutes, is forgotten (the hub's lease lapses on its own). A channel followed
   * again meanwhile loses its ending record and is subscribed afresh by the next pass.
   */
  private async leave(r: WebSubRecord, followed: boolean, now: Date): Promise<boolean> {
    const heldAtHub = r.status === 'verified' || r.status === 'requested';
    if (followed || r.status === 'unsubscribing' || !heldAtHub) {
      await this.o.store.deleteWebSub(r.channelId, r.token);
      this.log.info({ channelId: r.channelId, status: r.status, followed }, followed ? 'push subscription record renewed from scratch: the channel is followed again' : 'push subscription record forgotten: the channel is not followed');
      return false;
    }
    const answer = await this.ask(r, 'unsubscribe');
    if (answer.ok) {
      await this.o.store.putWebSub({ ...r, status: 'unsubscribing', nextActionAt: new Date(now.getTime() + VERIFY_WITHIN_MS), failures: 0, lastError: null, updatedAt: now });
      this.log.info({ channelId: r.channelId }, 'push unsubscribe request accepted: nobody follows the channel any more');
      return true;
    }
    const failures = r.failures + 1;
    const waitMs = subscribeBackoffMs(failures, answer.retryAfterMs);
    const reason = answer.status !== null ? `hub answered ${answer.status}` : `hub unreachable: ${answer.error ?? 'no answer'}`;
    await this.o.store.putWebSub({ ...r, failures, lastError: `unsubscribe: ${reason}`.slice(0, 300), nextActionAt: new Date(now.getTime() + waitMs), updatedAt: now });
    this.log.warning({ channelId: r.channelId, reason, failures, retryInMinutes: Math.round(waitMs / 60_000) }, 'push unsubscribe failed; tried again later');
    return true;
  }

  /**
   * A due record that needs no request now: a subscription still waiting for its verification
   * past the deadline is a failure (retried later, the channel polled meanwhile). True when handled.
   */
  private async settle(r: WebSubRecord, now: Date): Promise<boolean> {
    const waitingSince = r.requestedAt?.getTime() ?? 0;
    const unverified = r.requestedAt !== null && (r.verifiedAt === null || r.verifiedAt.getTime() < waitingSince);
    if (!unverified || r.failures > 0 || now.getTime() - waitingSince < VERIFY_WITHIN_MS) return false;
    await this.fail(r, now, 'the hub did not verify the subscription within 15 minutes', null);
    return true;
  }

  private async subscribe(channelId: string, existing: WebSubRecord | null): Promise<void> {
    const now = this.o.timing.now();
    const record: WebSubRecord = existing ?? {
      channelId, topic: topicFor(channelId), token: unguessable(), secret: unguessable(), status: 'requested',
      requestedAt: null, verifiedAt: null, leaseSeconds: null, leaseExpiresAt: null, nextActionAt: now, failures: 0, lastError: null, updatedAt: now,
    };
    const answer = await this.ask(record, 'subscribe');
    if (answer.ok) {
      const renewing = pushActive(record, now);
      await this.o.store.putWebSub({
        ...record, status: renewing ? 'verified' : 'requested', requestedAt: now, nextActionAt: new Date(now.getTime() + VERIFY_WITHIN_MS),
        failures: 0, lastError: null, updatedAt: now,
      });
      this.log.debug({ channelId, renewing }, 'push subscribe request accepted; waiting for the hub\'s verification');
      return;
    }
    const reason = answer.status !== null ? `hub answered ${answer.status}` : `hub unreachable: ${answer.error ?? 'no answer'}`;
    await this.fail({ ...record, requestedAt: record.requestedAt ?? now }, now, reason, answer.retryAfterMs);
  }

  /** Records a failure, backing off; push stays on while a lease still runs, else the channel is polled now. */
  private async fail(r: WebSubRecord, now: Date, reason: string, retryAfter: number | null): Promise<void> {
    const failures = r.failures + 1;
    const waitMs = subscribeBackoffMs(failures, retryAfter);
    const stillPushed = pushActive(r, now);
    await this.o.store.putWebSub({
      ...r, status: stillPushed ? 'verified' : 'failed', failures, lastError: reason.slice(0, 300), nextActionAt: new Date(now.getTime() + waitMs), updatedAt: now,
    });
    if (!stillPushed) await this.o.store.pollChannelNow(r.channelId, now);
    this.log.warning(
      { channelId: r.channelId, reason, failures, retryInMinutes: Math.round(waitMs / 60_000), pushed: stillPushed },
      stillPushed ? 'push subscription renewal failed; the current lease still runs' : 'push subscription failed; the channel is polled until the hub verifies it',
    );
  }

  private async ask(r: WebSubRecord, mode: 'subscribe' | 'unsubscribe'): Promise<HubAnswer> {
    const form = new URLSearchParams({ 'hub.mode': mode, 'hub.topic': r.topic, 'hub.callback': `${this.o.publicBaseUrl}/websub/${r.token}`, 'hub.verify': 'async' });
    if (mode === 'subscribe') {
      form.set('hub.lease_seconds', String(LEASE_ASKED_SECONDS));
      form.set('hub.secret', r.secret);
    }
    try {
      const res = await fetch(this.o.hubUrl, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString(),
        signal: AbortSignal.timeout(this.o.timeoutMs), redirect: 'manual',
      });
      await res.arrayBuffer().catch(() => undefined);
      return { ok: res.status >= 200 && res.status < 300, status: res.status, retryAfterMs: retryAfterMs(res.headers.get('retry-after'), Date.now()), error: null };
    } catch (err) {
      return { ok: false, status: null, retryAfterMs: null, error: messageOf(err) };
    }
  }
}
