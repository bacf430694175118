// One video's summary: one request when the transcript fits the context, else one per part and a
// combining request (in rounds, should the parts' points not fit one). Every answer's points are
// checked against the transcript; an answer with no valid point is asked again once.

import { complete, type ModelEndpoint } from './model-client';
import { checkedPoints, citableOnly, paragraphAt, type CitableSpans, type SummaryPoint } from './points';
import { answerReserve, combineMessages, messagesTokens, partMessages, splitParts, type ChatMessage, type VideoToSummarise } from './prompt';

export interface SummaryOutcome {
  /** Empty when no answer had a valid point (the video is then marked failed). */
  readonly points: readonly SummaryPoint[];
  readonly calls: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** The largest request's estimated tokens, for the context check. */
  readonly largestRequestTokens: number;
}

export type Ask = (messages: readonly ChatMessage[]) => ReturnType<typeof complete>;

export const askEndpoint = (endpoint: ModelEndpoint, stop?: AbortSignal): Ask => (messages) => complete(endpoint, messages, stop);

export async function summarise(ask: Ask, v: VideoToSummarise, spans: CitableSpans, contextTokens: number): Promise<SummaryOutcome> {
  const budget = contextTokens - answerReserve(contextTokens);
  let calls = 0;
  let promptTokens = 0;
  let completionTokens = 0;
  let largest = 0;
  /** `cite`: what this request's answer may cite (only the paragraphs it was shown). */
  const askChecked = async (messages: ChatMessage[], cite: CitableSpans = spans): Promise<SummaryPoint[]> => {
    largest = Math.max(largest, messagesTokens(messages));
    for (let attempt = 0; attempt < 2; attempt++) {
      calls += 1;
      const c = await ask(messages);
      promptTokens += c.promptTokens;
      completionTokens += c.completionTokens;
      const points = checkedPoints(c.text, cite);
      if (points.length > 0) return points;
    }
    return [];
  };
  const whole = partMessages(v, v.paragraphs, true);
  if (messagesTokens(whole) <= budget) return { points: await askChecked(whole), calls, promptTokens, completionTokens, largestRequestTokens: largest };
  let points: SummaryPoint[] = [];
  for (const part of splitParts(v, budget)) points.push(...(await askChecked(partMessages(v, part, false), partSpans(spans, part))));
  // Combine in rounds: each round's requests fit the budget, until one request holds them all.
  while (points.length > 8) {
    const rounds = batchesThatFit(v, points, budget);
    const next: SummaryPoint[] = [];
    for (const batch of rounds) next.push(...(await askChecked(combineMessages(v, batch), citableOnly(spans, batch.map((p) => paragraphAt(p.seconds * 1000, spans))))));
    if (rounds.length === 1 || next.length >= points.length) {
      points = next.slice(0, 8);
      break;
    }
    points = next;
  }
  return { points, calls, promptTokens, completionTokens, largestRequestTokens: largest };
}

/** A part's answer may cite its own paragraphs only: those whose starts lie within the part's. */
export function partSpans(spans: CitableSpans, part: readonly { readonly startMs: number }[]): CitableSpans {
  const first = part[0]?.startMs ?? Infinity;
  const last = part[part.length - 1]?.startMs ?? -Infinity;
  const indices: number[] = [];
  spans.startsMs.forEach((ms, i) => {
    if (ms >= first && ms <= last) indices.push(i);
  });
  return citableOnly(spans, indices);
}

function batchesThatFit(v: VideoToSummarise, points: readonly SummaryPoint[], budget: number): SummaryPoint[][] {
  const out: SummaryPoint[][] = [[]];
  for (const p of points) {
    const cur = out[out.length - 1]!;
    if (cur.length > 0 && messagesTokens(combineMessages(v, [...cur, p])) > budget) out.push([p]);
    else cur.push(p);
  }
  return out;
}

/** The spans a point may cite: every paragraph start, and the video's end when known. */
export const spansOf = (paragraphs: readonly { startMs: number }[], durationMs: number | null): CitableSpans => ({
  startsMs: paragraphs.map((p) => p.startMs),
  durationMs,
});

