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
  /** `http://127.0.0.1:<port>`, known once the server listens. */
  origin: string;
}
