// The feed renders in flight, bounded twice: by count (API_MAX_RENDERS) and by the memory they hold
// (API_RENDER_BYTES). A render holds its listed rows, the document it builds and that document's
// bytes at once; the queue is told an estimate of that before it starts (the feed's size as last
// seen), and starts a render only when both bounds have room, first come first served, so a
// burst of cache misses waits its turn instead of holding a copy of the feed each. A render larger
// than the whole budget runs alone. An estimate of 0 (a feed not seen yet) is bounded by count only.

export interface RenderQueueOptions {
  readonly concurrency: number;
  /** Bytes the renders in flight may hold together. */
  readonly bytes: number;
}

interface Waiting {
  readonly weight: number;
  readonly start: () => void;
}

export class RenderQueue {
  private running = 0;
  private held = 0;
  private readonly waiting: Waiting[] = [];

  constructor(private readonly o: RenderQueueOptions) {}

  /** Renders running and waiting, and the bytes the running ones hold (estimates). */
  get stats(): { running: number; waiting: number; heldBytes: number } {
    return { running: this.running, waiting: this.waiting.length, heldBytes: this.held };
  }

  /** Whether work of this weight would have to wait now. */
  wouldWait(weight: number): boolean {
    return this.waiting.length > 0 || !this.fits(weight);
  }

  async run<T>(weight: number, work: () => Promise<T>): Promise<T> {
    const w = Math.max(0, weight);
    if (this.wouldWait(w)) await new Promise<void>((resolve) => this.waiting.push({ weight: w, start: resolve }));
    else this.take(w);
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.held -= w;
      this.startWaiting();
    }
  }

  private fits(weight: number): boolean {
    return this.running < this.o.concurrency && (this.running === 0 || this.held + weight <= this.o.bytes);
  }

  private take(weight: number): void {
    this.running += 1;
    this.held += weight;
  }

  /** First come first served: the head waits until it fits, and nobody passes it. */
  private startWaiting(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.weight)) {
      const next = this.waiting.shift()!;
      this.take(next.weight);
      next.start();
    }
  }
}
