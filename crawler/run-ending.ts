// The two errors that end a channel's run early (the platform keeps blocking us; shutdown or a lost
// lease). Everything that waits or requests on a run's behalf throws them; the run's owner catches
// them and ends the run with what it has stored so far.

/** The run must end: the platform keeps blocking us. */
export class RunBlockedError extends Error {
  override readonly name = 'RunBlockedError';
  constructor(readonly reason: string) {
    super(`blocked: ${reason}`);
  }
}

/** The run must end: shutdown or a lost lease, noticed while waiting. */
export class RunStoppedError extends Error {
  override readonly name = 'RunStoppedError';
  constructor() {
    super('run stopped');
  }
}
