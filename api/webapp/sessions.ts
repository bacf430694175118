// The app's sessions: a random id in the cookie, its SHA-256 here, bound to the key's digest, with a
// per-session CSRF token; 30 days idle expiry. Held in this process for now (the store-backed
// table in both stores is the next step), so a restart signs everyone out. The key itself is never
// kept: only its digest, which the key check matches against the live keys at every request, so a
// disabled or removed key ends its sessions at the next request.

import { createHash, randomBytes } from 'node:crypto';

export const SESSION_IDLE_MS = 30 * 24 * 3_600_000;
/** Bound on sessions held, so a sign-in flood cannot grow the process without end. */
const MAX_SESSIONS = 10_000;

export interface Session {
  readonly keyId: string;
  readonly csrf: string;
  readonly createdAt: Date;
  lastSeenAt: Date;
}

const hashOf = (id: string): string => createHash('sha256').update(id).digest('hex');

export class SessionTable {
  private readonly byHash = new Map<string, Session>();

  /** A new session for `keyId`; answers the cookie's id (never stored as such). */
  open(keyId: string, now: Date): { id: string; session: Session } {
    if (this.byHash.size >= MAX_SESSIONS) this.sweep(now);
    if (this.byHash.size >= MAX_SESSIONS) {
      const oldest = this.byHash.keys().next().value;
      if (oldest !== undefined) this.byHash.delete(oldest);
    }
    const id = randomBytes(32).toString('base64url');
    const session: Session = { keyId, csrf: randomBytes(24).toString('base64url'), createdAt: now, lastSeenAt: now };
    this.byHash.set(hashOf(id), session);
    return { id, session };
  }

  /** The live session of a cookie's id, its last-seen time moved to now; null when none or idle too long. */
  find(id: string, now: Date): Session | null {
    const hash = hashOf(id);
    const session = this.byHash.get(hash);
    if (session === undefined) return null;
    if (now.getTime() - session.lastSeenAt.getTime() > SESSION_IDLE_MS) {
      this.byHash.delete(hash);
      return null;
    }
    session.lastSeenAt = now;
    return session;
  }

  close(id: string): void {
    this.byHash.delete(hashOf(id));
  }

  private sweep(now: Date): void {
    for (const [hash, s] of this.byHash) if (now.getTime() - s.lastSeenAt.getTime() > SESSION_IDLE_MS) this.byHash.delete(hash);
  }
}
