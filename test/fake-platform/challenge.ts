// The JavaScript challenge, for the browser-fallback test: a wall only a client that runs JS gets
// past, like the interstitials real sites put in front of suspicious traffic.
//
// Protocol (while `jsChallenge(true)`):
// 1. Any request without a valid `fake_clearance` cookie gets HTTP 429 and an HTML page whose inline
//    script holds a fresh nonce. The fake remembers which User-Agent asked for that nonce.
// 2. The script computes proof = h over the nonce (h = 7; 1000 rounds of h = h*31 + charCode,
//    32-bit unsigned), sets `document.cookie = "fake_clearance=<nonce>.<proof hex>; path=/"` and
//    reloads the page after 250 ms.
// 3. A request carrying a cookie whose proof is right AND whose User-Agent is the one that fetched
//    the nonce passes; the cookie stays good until the challenge is switched off or cleared.
// So a plain client that does not run JS stays blocked, and a plain client that borrows the
// browser's cookie must also borrow its User-Agent.

import { randomBytes } from 'node:crypto';
import { html, type FakeRequest, type FakeResponse } from './http';
import { isAppAgent } from './app-agents';

export const CLEARANCE_COOKIE = 'fake_clearance';

/** The proof the page's script computes; the same arithmetic as the inline script below. */
export function solveChallenge(nonce: string): string {
  let h = 7;
  for (let round = 0; round < 1000; round++) {
    for (let i = 0; i < nonce.length; i++) h = (Math.imul(h, 31) + nonce.charCodeAt(i)) >>> 0;
  }
  return h.toString(16);
}

export class JsChallenge {
  /** nonce → the User-Agent it was issued to. */
  private readonly issued = new Map<string, string>();

  forget(): void {
    this.issued.clear();
  }

  passes(req: FakeRequest): boolean {
    const [nonce, proof] = (req.cookies.get(CLEARANCE_COOKIE) ?? '').split('.');
    if (!nonce || !proof) return false;
    // A clearance counts for the IP: an app's API call carrying one passes under its own agent.
    const agent = this.issued.get(nonce);
    if (agent === undefined || proof !== solveChallenge(nonce)) return false;
    return agent === req.userAgent || isAppAgent(req.userAgent);
  }

  challenge(req: FakeRequest): FakeResponse {
    const nonce = randomBytes(8).toString('hex');
    // Bounded: a client hammering the wall must not grow the fake without limit.
    if (this.issued.size > 10_000) this.issued.clear();
    this.issued.set(nonce, req.userAgent);
    return html(
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Just a moment...</title></head>` +
        `<body><div id="challenge"><h1>Checking your browser before accessing the site.</h1>` +
        `<noscript><p>Enable JavaScript and cookies to continue.</p></noscript></div>` +
        `<script>(function () {\n` +
        `  var n = "${nonce}", h = 7;\n` +
        `  for (var r = 0; r < 1000; r++) for (var i = 0; i < n.length; i++) h = (Math.imul(h, 31) + n.charCodeAt(i)) >>> 0;\n` +
        `  document.cookie = "${CLEARANCE_COOKIE}=" + n + "." + h.toString(16) + "; path=/";\n` +
        `  setTimeout(function () { location.reload(); }, 250);\n` +
        `})();</script></body></html>`,
      429,
    );
  }
}
