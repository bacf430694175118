// Player clients left out of this process (docs/crawler.md §3, "Client-level answers"). Some answers
// are about the client, not the video: a retired version is refused with HTTP 400
// FAILED_PRECONDITION whatever is asked, and the TV client's "The page needs to be reloaded." is
// its own fault (yt-dlp #17389). Judged per video, every video would ask that client again and
// fail it as transient; judged here once, the client is left out for LEAVE_OUT_MS, then asked once
// more (the platform may have changed its mind, or the operator's fix may be a version it now
// takes), and left out for the rest of the process when that answer is the same. One WARNING says
// which client and version and what to change; the heartbeat, the status page, the platform check
// and a metric show the list.

import type { Logger } from '../logger';
import type { ClientIdentity } from '../config/client-identities';

/** At least this long before a left-out client is asked once again. */
export const LEAVE_OUT_MS = 3_600_000;

/** Why a client is left out: its version is retired, or it answers with a fault of its own. */
export type LeftOutWhy = 'retired' | 'client_fault';

export interface LeftOutClient {
  /** The record's key (PLAYER_CLIENTS name). */
  readonly client: string;
  readonly version: string;
  readonly why: LeftOutWhy;
  /** The platform's answer, as classified. */
  readonly reason: string;
  readonly since: Date;
  /** When it is asked once again; null: left out for the rest of the process. */
  readonly retryAt: Date | null;
  /** What the operator can change. */
  readonly advice: string;
}

interface Entry {
  info: LeftOutClient;
  /** Its one retry is under way (asked by one video; the others still leave it out). */
  probing: boolean;
}

/** What to change, in the operator's words. */
export function adviceFor(identity: Pick<ClientIdentity, 'key' | 'version'>, why: LeftOutWhy): string {
  return why === 'retired'
    ? `set a newer ${identity.key} version in PLAYER_CLIENTS (e.g. ${identity.key}:<version the maintained clients send>), or drop it from PLAYER_CLIENTS; its other fields are PLAYER_CLIENT_IDENTITIES`
    : `drop ${identity.key} from PLAYER_CLIENTS, or change its record with PLAYER_CLIENT_IDENTITIES`;
}

export class ClientExclusions {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
    private readonly leaveOutMs = LEAVE_OUT_MS,
  ) {}

  /** Whether this client may be asked now; the first caller after the wait gets the one retry. */
  usable(identity: ClientIdentity): boolean {
    const e = this.entries.get(identity.key);
    if (e === undefined) return true;
    if (e.probing || e.info.retryAt === null || this.now() < e.info.retryAt.getTime()) return false;
    e.probing = true;
    this.log.info({ client: identity.key, version: identity.version, why: e.info.why }, `asking player client ${identity.key} ${identity.version} once again, ${Math.round(this.leaveOutMs / 60_000)} min after it was left out`);
    return true;
  }

  /** The client answered for itself, not for the video: left out (the WARNING is said once per client). */
  leaveOut(identity: ClientIdentity, why: LeftOutWhy, reason: string): void {
    const known = this.entries.get(identity.key);
    const base = { client: identity.key, version: identity.version, why, reason, since: new Date(this.now()), advice: adviceFor(identity, why) };
    if (known !== undefined) {
      if (!known.probing) return; // already left out: a concurrent video's answer
      known.info = { ...base, since: known.info.since, retryAt: null };
      known.probing = false;
      this.log.info({ client: identity.key, version: identity.version, why, reason }, `player client ${identity.key} ${identity.version} answered the same once again: left out for the rest of this process; ${base.advice}`);
      return;
    }
    this.entries.set(identity.key, { info: { ...base, retryAt: new Date(this.now() + this.leaveOutMs) }, probing: false });
    const what = why === 'retired'
      ? `player client ${identity.key} ${identity.version} is a retired version (${reason})`
      : `player client ${identity.key} ${identity.version} answers with a fault of its own, not of the video (${reason})`;
    this.log.warning(
      { client: identity.key, version: identity.version, why, reason, minutes: Math.round(this.leaveOutMs / 60_000) },
      `${what}: left out of this process, the next client is asked instead and no video is failed for it; ${base.advice}`,
    );
  }

  /** The client gave a usable answer: its retry succeeded, it is back. */
  served(identity: ClientIdentity): void {
    const e = this.entries.get(identity.key);
    if (e === undefined || !e.probing) return;
    this.entries.delete(identity.key);
    this.log.info({ client: identity.key, version: identity.version }, `player client ${identity.key} ${identity.version} answers again: asked as before`);
  }

  /** A retry that ended in neither (a transient failure, a block): it stays out until the next wait ends. */
  unsettled(identity: ClientIdentity): void {
    const e = this.entries.get(identity.key);
    if (e === undefined || !e.probing) return;
    e.probing = false;
    e.info = { ...e.info, retryAt: new Date(this.now() + this.leaveOutMs) };
  }

  /** Every client left out right now, oldest first. */
  list(): LeftOutClient[] {
    return [...this.entries.values()].map((e) => e.info);
  }
}
