// The web app's sessions (api/webapp/): kept in the store so that every API process serves every
// session and a restart signs nobody out. The cookie's random id is never stored, only its SHA-256;
// the key itself is never stored either, only its digest (keyId), checked against the live keys.

export interface WebSessionRecord {
  /** SHA-256 (hex) of the cookie's random id. */
  idHash: string;
  /** The signed-in key's digest. */
  keyId: string;
  /** The per-session CSRF token the app's forms carry. */
  csrf: string;
  createdAt: Date;
  lastSeenAt: Date;
}

export interface WebSessionStore {
  /** Store a new session (an id hash already stored is replaced). */
  putWebSession(record: WebSessionRecord): Promise<void>;
  /**
   * The session of this id hash, its lastSeenAt moved to `now`; null when none, or idle longer than
   * `idleMs` (such a session is deleted).
   */
  touchWebSession(idHash: string, idleMs: number, now: Date): Promise<WebSessionRecord | null>;
  /** End a session; harmless when none. */
  deleteWebSession(idHash: string): Promise<void>;
  /** Delete every session idle longer than `idleMs`; returns how many. */
  deleteIdleWebSessions(idleMs: number, now: Date): Promise<number>;
}
