// Rendered feed bodies by ETag, least recently used first out, bounded by total bytes. A strong
// ETag names one exact body, so a hit can be sent as is and cache-warm requests skip rendering.

export class RenderCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes: number = 32 * 1024 * 1024) {}

  get(etag: string): Buffer | undefined {
    const body = this.entries.get(etag);
    if (body) {
      // Re-insert to mark it most recently used (Map keeps insertion order).
      this.entries.delete(etag);
      this.entries.set(etag, body);
    }
    return body;
  }

  set(etag: string, body: Buffer): void {
    if (body.length > this.maxBytes) return;
    const old = this.entries.get(etag);
    if (old) {
      this.bytes -= old.length;
      this.entries.delete(etag);
    }
    this.entries.set(etag, body);
    this.bytes += body.length;
    for (const [key, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= value.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }
}
