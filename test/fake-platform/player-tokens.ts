// The proof-of-origin tokens of the embedded player (embed.ts): issued with each embed page, checked
// by the timed-text endpoint on an `exp=xpe` caption URL.

import { randomBytes } from 'node:crypto';
import { solveChallenge } from './challenge';

/** Tokens the embed pages handed out (as nonces) and the check of what a player sends back. */
export class PlayerTokens {
  private readonly issued = new Set<string>();

  issue(): string {
    // Bounded, like the JS challenge: a client hammering the page must not grow the fake forever.
    if (this.issued.size > 10_000) this.issued.clear();
    const nonce = randomBytes(8).toString('hex');
    this.issued.add(nonce);
    return nonce;
  }

  /** A `pot` is `<nonce>.<proof>`: a nonce this fake issued and the proof the page's script computes. */
  valid(pot: string | null): boolean {
    const [nonce, proof] = (pot ?? '').split('.');
    return !!nonce && !!proof && this.issued.has(nonce) && proof === solveChallenge(nonce);
  }
}
