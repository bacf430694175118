// How the fake tells an app client from an impostor (docs/crawler.md §3): the visitor_id endpoint
// issues visitorData per client, and with strictIdentity on, an app client's player call must carry
// that app's User-Agent, a visitorData issued to that client (in the body and X-Goog-Visitor-Id),
// and none of a browser's headers. Also the `$fields` mask the platform applies to InnerTube answers.

import type { FakeContext } from './context';
import { preconditionJson } from './errors';
import { dig, json, jsonBody, type FakeRequest, type FakeResponse } from './http';
import { responseContext } from './texts';
import { APP_AGENTS } from './app-agents';

let issued = 0;

/** POST /youtubei/v1/visitor_id: a fresh visitorData for this client, in visitor_id-*-2026.json's shape. */
export function visitorIdRoute(ctx: FakeContext, req: FakeRequest): FakeResponse {
  const name = dig(jsonBody(req), 'context', 'client', 'clientName');
  const version = dig(jsonBody(req), 'context', 'client', 'clientVersion');
  if (typeof name !== 'string' || typeof version !== 'string') return preconditionJson();
  if (ctx.scenarios.withholdingVisitorData) {
    const { visitorData: _withheld, ...rest } = responseContext(name, version) as { visitorData: string };
    return json({ responseContext: rest });
  }
  issued += 1;
  const base = (responseContext(name, version) as { visitorData: string }).visitorData;
  // Unique per call, so a renewed session is a different one; the shape stays the captured one.
  const visitorData = `Cgt${Buffer.from(`v${issued}.${name}`).toString('base64url').padEnd(11, 'A').slice(0, 11)}${base.slice(14)}`;
  ctx.visitors.set(visitorData, name);
  const rc = { ...(responseContext(name, version) as object), visitorData };
  return json({ responseContext: rc });
}

/** Why a strict platform would take this app-client call for a bot; null when it passes. */
export function impostor(ctx: FakeContext, req: FakeRequest, client: string): string | null {
  const agent = APP_AGENTS[client];
  if (!agent) return null;
  if (!agent.test(req.userAgent)) return `User-Agent is not ${client}'s`;
  if (req.headers['sec-fetch-mode'] !== undefined || req.headers.origin !== undefined || req.headers['sec-ch-ua'] !== undefined) {
    return 'browser headers on an app call';
  }
  const visitor = dig(jsonBody(req), 'context', 'client', 'visitorData');
  if (typeof visitor !== 'string' || ctx.visitors.get(visitor) !== client) return 'no visitorData of this client';
  if (req.headers['x-goog-visitor-id'] !== visitor) return 'X-Goog-Visitor-Id does not match';
  return null;
}

/** Keeps only the paths a `$fields` mask names (`a,b.c,b.d`); everything else is cut. */
export function applyFieldMask(value: unknown, mask: string): unknown {
  const out: Record<string, unknown> = {};
  for (const path of mask.split(',').map((p) => p.trim()).filter(Boolean)) {
    const keys = path.split('.');
    const found = dig(value, ...keys);
    if (found === undefined) continue;
    let at = out;
    keys.slice(0, -1).forEach((k) => {
      at[k] = typeof at[k] === 'object' && at[k] !== null ? at[k] : {};
      at = at[k] as Record<string, unknown>;
    });
    at[keys[keys.length - 1]!] = found;
  }
  return out;
}
