// Failed sign-ins per client address: 10 a minute, then a wait until the minute is over, so
// guessing keys through the form costs what guessing through the feeds does. Counted in the store's
// per-minute windows (the ones the per-key rate limit uses), so every API process on one store
// shares one count: two processes allow 10 a minute in all, not 10 each. An attempt reads the
// count first (counting nothing) and is refused before its key is looked at when the address is
// over; only a failure is counted, so readers signing in successfully are never limited.

import { createHash } from 'node:crypto';
import type { RateLimitStore } from '../../shared/store/types';

export const MAX_FAILURES = 10;

/** The counter of an address: its own domain, never a key's id, and the address only as a digest. */
const counterOf = (address: string): string => `sign-in-failures:${createHash('sha256').update(address).digest('hex')}`;

export class SignInLimiter {
  constructor(private readonly store: Pick<RateLimitStore, 'hitRateLimit' | 'peekRateLimit'>) {}

  /** Seconds `address` must wait before its next try; 0 when it may try now. */
  async waitSeconds(address: string, now: Date): Promise<number> {
    const seen = await this.store.peekRateLimit(counterOf(address), MAX_FAILURES, now);
    return seen.allowed ? 0 : Math.max(1, Math.ceil((seen.resetAt.getTime() - now.getTime()) / 1000));
  }

  async failed(address: string, now: Date): Promise<void> {
    await this.store.hitRateLimit(counterOf(address), MAX_FAILURES, now);
  }
}
