// Work that requests arriving together would otherwise each do: the first call for a key starts
// it, every call for the same key while it is under way gets the same promise, and the key is free
// again once it settles (a failure is not remembered, so the next request tries afresh).

export class SingleFlight<K, V> {
  private readonly running = new Map<K, Promise<V>>();

  /** The work under way for `key`, or `start()`'s, begun now. */
  run(key: K, start: () => Promise<V>): Promise<V> {
    let job = this.running.get(key);
    if (job === undefined) {
      job = start().finally(() => this.running.delete(key));
      this.running.set(key, job);
    }
    return job;
  }

  /** Whether work for `key` is under way. */
  has(key: K): boolean {
    return this.running.has(key);
  }
}
