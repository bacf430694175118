// One chat completion from the operator's OpenAI-compatible endpoint: `POST <url>/chat/completions`
// with model, messages, temperature 0 and no streaming, the one wire format Ollama, llama.cpp and
// hosted APIs share. Every fault becomes a ModelFault with what the queue needs to back off; the
// API key is only ever in the Authorization header, never in a message or log line.

import type { ChatMessage } from './prompt';

export interface ModelEndpoint {
  readonly url: string;
  readonly apiKey: string | null;
  readonly model: string;
  readonly timeoutMs: number;
}

export interface Completion {
  readonly text: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
}

export type FaultKind = 'refused' | 'timeout' | 'rate-limited' | 'server' | 'garbage';

export class ModelFault extends Error {
  override readonly name = 'ModelFault';
  constructor(
    readonly kind: FaultKind,
    message: string,
    /** From Retry-After, when the server said how long to wait. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

const MAX_ANSWER_BYTES = 1_000_000;

/** Retry-After as seconds or an HTTP date → milliseconds from now; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const v = header.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

interface AnswerShape {
  choices?: { message?: { content?: unknown } }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

const count = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback);

/** `stop` ends the request early when the crawler stops (it then fails as a timeout, which is harmless). */
export async function complete(endpoint: ModelEndpoint, messages: readonly ChatMessage[], stop?: AbortSignal): Promise<Completion> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (endpoint.apiKey !== null) headers.authorization = `Bearer ${endpoint.apiKey}`;
  const body = JSON.stringify({ model: endpoint.model, messages, temperature: 0, stream: false });
  // The whole request, answer included: a server that stalls mid-answer is as down as one that never answers.
  const signal = stop ? AbortSignal.any([AbortSignal.timeout(endpoint.timeoutMs), stop]) : AbortSignal.timeout(endpoint.timeoutMs);
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${endpoint.url}/chat/completions`, { method: 'POST', headers, body, signal, redirect: 'error' });
    text = await res.text();
  } catch (err) {
    if (signal.aborted) throw new ModelFault('timeout', `no whole answer within ${endpoint.timeoutMs} ms`);
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    throw new ModelFault('refused', `cannot reach the model server (${cause})`);
  }
  if (res.status === 429) throw new ModelFault('rate-limited', 'the model server answered 429', retryAfterMs(res.headers.get('retry-after')));
  if (res.status >= 500) throw new ModelFault('server', `the model server answered ${res.status}`, retryAfterMs(res.headers.get('retry-after')));
  if (res.status !== 200) throw new ModelFault('server', `the model server answered ${res.status}`);
  if (text.length > MAX_ANSWER_BYTES) throw new ModelFault('garbage', 'the answer is larger than any summary');
  let answer: AnswerShape;
  try {
    answer = JSON.parse(text) as AnswerShape;
  } catch {
    throw new ModelFault('garbage', 'the answer is not JSON');
  }
  const content = answer?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new ModelFault('garbage', 'the answer has no choices[0].message.content');
  const promptChars = messages.reduce((n, m) => n + m.content.length, 0);
  return {
    text: content,
    promptTokens: count(answer.usage?.prompt_tokens, Math.ceil(promptChars / 4)),
    completionTokens: count(answer.usage?.completion_tokens, Math.ceil(content.length / 4)),
  };
}
