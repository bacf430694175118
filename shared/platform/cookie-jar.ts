// The plain client's session with the platform: cookies for the one platform host, and the user
// agent a harvested clearance was issued to. Clearance cookies (from the challenge proxy or the
// browser) are often bound to the user agent that earned them, so while they are fresh every request
// uses that agent instead of rotating. Cookie values never leave this object except in the Cookie
// header; nothing here logs them.

export interface AdoptedCookie {
  name: string;
  value: string;
  /** Cookie domain as the harvester reports it (`.youtube.com`, `127.0.0.1`); absent = host-only. */
  domain?: string;
  /** Expiry in seconds since the epoch; absent or negative = session cookie. */
  expires?: number;
}

export interface SessionInput {
  cookies: readonly AdoptedCookie[];
  /** The user agent the cookies were obtained with; null keeps rotating. */
  userAgent: string | null;
}

/** Where an unblocker hands the session it harvested (the platform client). */
export interface SessionSink {
  adoptSession(session: SessionInput): void;
}

interface Stored {
  value: string;
  /** ms since epoch; null = until the process ends. */
  expiresAt: number | null;
}

/** How long a harvested user agent overrides rotation when its cookies state no expiry. */
export const DEFAULT_PIN_MS = 30 * 60_000;

export class CookieJar {
  private readonly cookies = new Map<string, Stored>();
  private pinned: { userAgent: string; until: number } | null = null;

  constructor(
    /** The platform host, e.g. www.youtube.com; adopted cookies for other domains are dropped. */
    private readonly host: string,
    private readonly now: () => number = Date.now,
  ) {}

  set(name: string, value: string, expiresAt: number | null = null): void {
    this.cookies.set(name, { value, expiresAt });
  }

  get(name: string): string | undefined {
    const c = this.cookies.get(name);
    if (!c) return undefined;
    if (c.expiresAt !== null && c.expiresAt <= this.now()) {
      this.cookies.delete(name);
      return undefined;
    }
    return c.value;
  }

  names(): string[] {
    return [...this.cookies.keys()].filter((n) => this.get(n) !== undefined);
  }

  /** The Cookie header value, or '' when the jar is empty. */
  header(): string {
    return this.names().map((n) => `${n}=${this.cookies.get(n)!.value}`).join('; ');
  }

  /** Takes the cookies of one answer's Set-Cookie headers. */
  takeSetCookie(lines: readonly string[]): void {
    for (const line of lines) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (!pair || eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let expiresAt: number | null = null;
      for (const attr of attrs) {
        const [k, v = ''] = attr.split('=').map((s) => s.trim());
        if (/^max-age$/i.test(k ?? '')) expiresAt = this.now() + Number(v) * 1000;
        else if (/^expires$/i.test(k ?? '') && expiresAt === null) {
          const t = Date.parse(attr.slice(attr.indexOf('=') + 1).trim());
          if (!Number.isNaN(t)) expiresAt = t;
        }
      }
      if (expiresAt !== null && expiresAt <= this.now()) this.cookies.delete(name);
      else this.set(name, value, expiresAt);
    }
  }

  /**
   * Takes a harvested session: its cookies for our host, and its user agent pinned until the
   * earliest of the cookies' expiries (or DEFAULT_PIN_MS when none states one).
   */
  adopt(session: SessionInput, pinMs: number = DEFAULT_PIN_MS): void {
    let until = this.now() + pinMs;
    for (const c of session.cookies) {
      if (!this.domainMatches(c.domain)) continue;
      const expiresAt = c.expires !== undefined && c.expires > 0 ? Math.round(c.expires * 1000) : null;
      if (expiresAt !== null && expiresAt <= this.now()) continue;
      this.set(c.name, c.value, expiresAt);
      if (expiresAt !== null && expiresAt < until) until = expiresAt;
    }
    if (session.userAgent) this.pinned = { userAgent: session.userAgent, until };
  }

  /** The user agent every request must use for now, or null to rotate. */
  pinnedUserAgent(): string | null {
    if (this.pinned && this.pinned.until <= this.now()) this.pinned = null;
    return this.pinned?.userAgent ?? null;
  }

  private domainMatches(domain: string | undefined): boolean {
    if (!domain) return true;
    const d = domain.replace(/^\./, '').toLowerCase();
    const h = this.host.toLowerCase().replace(/:\d+$/, ''); // a host:port is fine too
    return h === d || h.endsWith(`.${d}`);
  }
}
