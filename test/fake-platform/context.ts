// What every route handler may consult: the hosted data, the scenario switches, and the fake's
// own origin (caption URLs are absolute and must point back at the fake).

import type { Catalog } from './catalog';
import type { JsChallenge } from './challenge';
import type { PlayerTokens } from './player-tokens';
import type { Scenarios } from './scenarios';

export interface FakeContext {
  catalog: Catalog;
  scenarios: Scenarios;
  challenge: JsChallenge;
  /** Tokens the embed pages' players carry to timed text (embed.ts). */
  tokens: PlayerTokens;
  /** visitorData the visitor_id endpoint issued → the client name it was issued to (identity.ts). */
  visitors: Map<string, string>;
  /** encryptedHostFlags the embed pages handed out → the video they were issued for (embed.ts). */
  hostFlags: Map<string, string>;
  /** Every player call as the fake received it, in order (what a test checks of each client's session). */
  playerCalls: PlayerCall[];
  /** `http://127.0.0.1:<port>`, known once the server listens. */
  origin: string;
}

/** One player call: who asked, with which session, and what the fake made of it. */
export interface PlayerCall {
  client: string;
  version: string;
  videoId: string;
  /** `context.client.visitorData`, and the X-Goog-Visitor-Id header. */
  visitorData: string | null;
  visitorHeader: string | null;
  /** The client `visitor_id` issued that visitorData to; null for one it never issued. */
  visitorIssuedTo: string | null;
  encryptedHostFlags: string | null;
  /** HTTP status of the answer and its playabilityStatus.status, when it has one. */
  status: number;
  playability: string | null;
}
