// The app's sessions: a random id in the cookie, its SHA-256 in the store (never the id itself),
// bound to the key's digest, with a per-session CSRF token; 30 days idle expiry. The store holds
// them, not this process, so every API process serves every session and a restart signs nobody
// out. The key itself is never kept: only its digest, which the key check matches against the live
// keys at every request, so a disabled or removed key ends its sessions at the next request.

import { createHash, randomBytes } from 'node:crypto';
import type { WebSessionStore } from '../../shared/store/types';

export const SESSION_IDLE_MS = 30 * 24 * 3_600_000;
/** How often one process sweeps sessions idle past the expiry (each is also ended when next seen). */
const SWEEP_EVERY_MS = 3_600_000;

export interface Session {
  readonly keyId: string;
  readonly csrf: string;
}

const hashOf = (id: string): string => createHash('sha256').update(id).digest('hex');

export class SessionTable {
  private lastSweepAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: WebSessionStore,
    private readonly onSweepError: (err: unknown) => void,
  ) {}

  /** A new session for `keyId`, stored before it is answered (a failed write throws); the cookie's id. */
  async open(keyId: string, now: Date): Promise<{ id: string; session: Session }> {
    const id = randomBytes(32).toString('base64url');
    const session: Session = { keyId, csrf: randomBytes(24).toString('base64url') };
    await this.store.putWebSession({ idHash: hashOf(id), ...session, createdAt: now, lastSeenAt: now });
    this.sweepNowAndThen(now);
    return { id, session };
  }

  /** The live session of a cookie's id, its last-seen time moved to now; null when none or idle too long. */
  async find(id: string, now: Date): Promise<Session | null> {
    const record = await this.store.touchWebSession(hashOf(id), SESSION_IDLE_MS, now);
    return record === null ? null : { keyId: record.keyId, csrf: record.csrf };
  }

  async close(id: string): Promise<void> {
    await this.store.deleteWebSession(hashOf(id));
  }

  /** Sessions nobody comes back to would otherwise stay; a failed sweep is tried at the next interval. */
  private sweepNowAndThen(now: Date): void {
    if (now.getTime() - this.lastSweepAt < SWEEP_EVERY_MS) return;
    this.lastSweepAt = now.getTime();
    this.store.deleteIdleWebSessions(SESSION_IDLE_MS, now).catch(this.onSweepError);
  }
}
