// The control endpoint under /__fake/, for tests that run the fake in another process (end-to-end
// runs, `npm run fake-platform`). It is never counted and never affected by scenarios.
//
//   GET  /__fake/counters              → FakeCounters
//   POST /__fake/counters/reset        → FakeCounters (all zero)
//   GET  /__fake/scenario              → ScenarioState
//   POST /__fake/scenario              {"botCheck":2, "serverError":[3,503], "consentWall":"redirect",
//                                       "block429":{"requests":5}, "clearScenarios":true, …}
//                                       keys are ScenarioControls method names, applied in order;
//                                       an array value is the argument list → ScenarioState
//   GET  /__fake/channels              → [{channelId, handle, title, videos:[{videoId,title,publishedAt,captions,language,short}]}]
//   POST /__fake/channels              {"make":{handle,count,…}} (makeChannel options) or a FakeChannelSpec
//                                       with ISO dates → the channel summary
//   POST /__fake/upload                {"channelId":"UC…","video":{…partial FakeVideoSpec, ISO publishedAt}} → the video

import type { FakeChannelSpec, FakeCounters, FakeVideoSpec } from './types';
import type { Catalog } from './catalog';
import type { ScenarioControls, Scenarios } from './scenarios';
import { makeChannel, type MakeChannelOptions } from './data';
import { json, jsonBody, type FakeRequest, type FakeResponse } from './http';

export interface ControlDeps {
  catalog: Catalog;
  scenarios: Scenarios;
  counters: () => FakeCounters;
  resetCounters: () => void;
}

const SCENARIO_NAMES: (keyof ScenarioControls)[] = [
  'block429',
  'captcha',
  'botCheck',
  'rateLimitedPlayer',
  'tryAgainLaterWindow',
  'playersRefused',
  'poison',
  'emptyTimedText',
  'slow',
  'timedTextStall',
  'malformed',
  'serverError',
  'consentWall',
  'jsChallenge',
  'feedOutage',
  'strictIdentity',
  'clientTrouble',
  'retireClient',
  'kidsRefusal',
  'clearScenarios',
];

function bad(message: string): FakeResponse {
  return json({ error: message }, 400);
}

/** JSON has no dates: turn `publishedAt` strings back into Date objects. */
function videoFromJson(value: unknown): Partial<FakeVideoSpec> {
  const video = { ...(value as Record<string, unknown>) };
  if (typeof video.publishedAt === 'string') video.publishedAt = new Date(video.publishedAt);
  return video as Partial<FakeVideoSpec>;
}

function videoSummary(v: FakeVideoSpec): unknown {
  return {
    videoId: v.videoId,
    title: v.title,
    publishedAt: v.publishedAt.toISOString(),
    captions: v.captions,
    language: v.language ?? null,
    short: v.short === true,
  };
}

function summary(channel: FakeChannelSpec): unknown {
  return { channelId: channel.channelId, handle: channel.handle, title: channel.title, videos: channel.videos.map(videoSummary) };
}

function applyScenarios(scenarios: Scenarios, body: Record<string, unknown>): FakeResponse {
  const unknown = Object.keys(body).filter((k) => !SCENARIO_NAMES.includes(k as keyof ScenarioControls));
  if (unknown.length > 0) return bad(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIO_NAMES.join(', ')}`);
  for (const [name, value] of Object.entries(body)) {
    const args = Array.isArray(value) ? (value as unknown[]) : name === 'clearScenarios' ? [] : [value];
    const setter = scenarios[name as keyof ScenarioControls] as (...a: unknown[]) => void;
    setter.apply(scenarios, args);
  }
  return json(scenarios.state());
}

/** The answer to a /__fake/ request; errors in the request body come back as 400 with a message. */
export function controlRoute(deps: ControlDeps, req: FakeRequest): FakeResponse {
  const route = `${req.method} ${req.path}`;
  const body = req.method === 'POST' ? jsonBody(req) : null;
  if (req.method === 'POST' && body === null) return bad('the body must be a JSON object');
  try {
    switch (route) {
      case 'GET /__fake/counters':
        return json(deps.counters());
      case 'POST /__fake/counters/reset':
        deps.resetCounters();
        return json(deps.counters());
      case 'GET /__fake/scenario':
        return json(deps.scenarios.state());
      case 'POST /__fake/scenario':
        return applyScenarios(deps.scenarios, body ?? {});
      case 'GET /__fake/channels':
        return json(deps.catalog.channels().map(summary));
      case 'POST /__fake/channels': {
        const make = body?.make;
        const spec = make ? makeChannel(make as MakeChannelOptions) : (body as unknown as FakeChannelSpec);
        if (!Array.isArray(spec.videos)) return bad('a channel needs videos[] (or send {"make":{…}})');
        return json(summary(deps.catalog.addChannel({ ...spec, videos: spec.videos.map(videoFromJson) as FakeVideoSpec[] })));
      }
      case 'POST /__fake/upload': {
        if (typeof body?.channelId !== 'string') return bad('channelId is required');
        return json(videoSummary(deps.catalog.addUpload(body.channelId, videoFromJson(body.video ?? {}))));
      }
      default:
        return json({ error: `no control route ${route}` }, 404);
    }
  } catch (error) {
    return bad(error instanceof Error ? error.message : String(error));
  }
}
