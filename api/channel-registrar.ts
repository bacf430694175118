// Every feed request registers (or refreshes) the channel's work item. registerChannel only
// changes the record when the channel is new or `wanted` grows, so repeating it with a wanted
// already registered is a no-op: this process remembers what it registered for a few seconds and
// skips those no-op writes. Another process raising `wanted` meanwhile changes nothing here: a
// larger wanted always goes to the store, and the store keeps the maximum.

import type { ChannelRecord, RegisterChannelInput, Store } from '../shared/store/types';

/** How long a registration is trusted without asking the store; also bounds a stale channel title. */
export const REGISTRATION_TTL_MS = 5_000;
const MAX_REMEMBERED = 10_000;

export class ChannelRegistrar {
  private readonly recent = new Map<string, { record: ChannelRecord; wanted: number; at: number }>();

  constructor(private readonly store: Pick<Store, 'registerChannel'>) {}

  async register(input: RegisterChannelInput, now: Date): Promise<ChannelRecord> {
    const seen = this.recent.get(input.channelId);
    const t = now.getTime();
    if (seen && seen.wanted >= input.wanted && t - seen.at >= 0 && t - seen.at < REGISTRATION_TTL_MS && (input.handle == null || seen.record.handle !== null)) {
      return seen.record;
    }
    const record = await this.store.registerChannel(input, now);
    if (this.recent.size >= MAX_REMEMBERED) this.recent.clear();
    this.recent.set(input.channelId, { record, wanted: record.wanted, at: t });
    return record;
  }
}
