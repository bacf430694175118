// The profile's random wait between two platform requests (spec: 10–20 s in configuration B, none
// in A). A pause between batches already spaces requests, so it resets the pacer. A stop noticed
// before a request ends the run there: the request in flight finishes, no new one starts.

import type { MsRange } from '../shared/config/crawl-profile';
import { RunStoppedError } from './run-ending';
import { pickMs, type Timing } from './timing';

export class RequestPacer {
  private requested = false;

  constructor(
    private readonly range: MsRange,
    private readonly timing: Timing,
    private readonly signal: AbortSignal,
  ) {}

  async beforeRequest(): Promise<void> {
    if (this.signal.aborted) throw new RunStoppedError();
    if (this.requested) {
      const ms = pickMs(this.range, () => this.timing.random());
      if (ms > 0) await this.timing.sleep(ms, this.signal);
      if (this.signal.aborted) throw new RunStoppedError();
    }
    this.requested = true;
  }

  /** The next request follows a longer pause and needs no extra wait. */
  reset(): void {
    this.requested = false;
  }
}
