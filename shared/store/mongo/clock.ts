// Whose clock a MongoDB write reads. Several hosts share one replica set, and their clocks drift:
// a crawler whose clock runs ahead would take leases that are still live, one running behind would
// keep a released channel from everyone, and two API hosts would count one minute's requests in two
// windows. So the times that coordinate hosts (lease expiry, due times, the rate-limit window) are
// taken from the server's clock, `$$NOW` in an update pipeline or a query's `$expr`, one value for
// the whole operation. A time a caller computed from its own `now` (the next due time) is kept as a
// delay from that `now` and added to the server's.
//
// The `caller` clock reads the `now` each Store method is given instead: the store contract uses it
// to fix time without sleeping, as it does on SQLite (one machine, one clock).

import type { Document } from 'mongodb';

export type ClockSource = 'server' | 'caller';

/** A value that is an aggregation expression, never read as a field path or an operator. */
export const lit = (value: unknown): Document => ({ $literal: value });

export interface StoreClock {
  /** The present, as an expression. */
  now(callerNow: Date): unknown;
  /** `ms` after the present. */
  after(callerNow: Date, ms: number): unknown;
  /** A time the caller computed from its `callerNow`, on this clock: present + (at - callerNow). */
  shift(at: Date, callerNow: Date): unknown;
}

const SERVER: StoreClock = {
  now: () => '$$NOW',
  after: (_callerNow, ms) => ({ $add: ['$$NOW', ms] }),
  shift: (at, callerNow) => ({ $add: ['$$NOW', at.getTime() - callerNow.getTime()] }),
};

const CALLER: StoreClock = {
  now: (callerNow) => lit(callerNow),
  after: (callerNow, ms) => lit(new Date(callerNow.getTime() + ms)),
  shift: (at) => lit(at),
};

export const storeClock = (source: ClockSource): StoreClock => (source === 'server' ? SERVER : CALLER);
