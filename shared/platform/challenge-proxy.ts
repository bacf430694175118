// The optional challenge-solving proxy (FlareSolverr's API, docs/crawler.md §5) as an Unblocker. It can
// only GET pages, so it is used to open the blocked page like a real browser and hand its cookies
// and user agent to the plain client. Its answer always says status 200, so the returned HTML is
// judged by the classifier. An unreachable proxy is reported once (WARNING) and skipped: plain
// requests go on without it (spec point 6).

import type { Logger } from '../logger';
import { classifyAnswer } from './classify';
import type { AdoptedCookie, SessionSink } from './cookie-jar';
import type { Unblocker } from './types';

export interface ChallengeProxyOptions {
  /** CHALLENGE_PROXY_URL, e.g. http://localhost:8191/v1. */
  proxyUrl: string;
  /** PLATFORM_BASE_URL; the page opened is this plus the blocked path. */
  baseUrl: string;
  sink: SessionSink;
  logger: Logger;
  /** How long the proxy may work on one page. */
  maxTimeoutMs?: number;
  /** How long a reachability answer is trusted. */
  recheckMs?: number;
  now?: () => number;
}

interface SolverAnswer {
  status?: string;
  message?: string;
  solution?: { url?: string; status?: number; response?: string; cookies?: AdoptedCookie[]; userAgent?: string };
}

const PROBE_TIMEOUT_MS = 5000;

export class ChallengeProxy implements Unblocker {
  readonly name = 'challenge-proxy';
  private reachable: { value: boolean; at: number } | null = null;
  private warned = false;
  private readonly now: () => number;

  constructor(private readonly opts: ChallengeProxyOptions) {
    this.now = opts.now ?? Date.now;
  }

  async available(): Promise<boolean> {
    const recheck = this.opts.recheckMs ?? 5 * 60_000;
    if (this.reachable && this.now() - this.reachable.at < recheck) return this.reachable.value;
    try {
      // Any HTTP answer means something listens; only the transport can say "unreachable".
      await this.post({ cmd: 'sessions.list' }, PROBE_TIMEOUT_MS);
      this.reachable = { value: true, at: this.now() };
    } catch (err) {
      this.markUnreachable(err);
    }
    return this.reachable!.value;
  }

  async unblock(path: string): Promise<boolean> {
    if (!(await this.available())) return false;
    const url = new URL(path, this.opts.baseUrl).href;
    const maxTimeout = this.opts.maxTimeoutMs ?? 60_000;
    let answer: SolverAnswer;
    try {
      const res = await this.post(
        { cmd: 'request.get', url, maxTimeout, cookies: [{ name: 'SOCS', value: 'CAI' }] },
        maxTimeout + 10_000,
      );
      answer = (await res.json()) as SolverAnswer;
    } catch (err) {
      if (err instanceof SyntaxError) {
        this.opts.logger.warning({ unblocker: this.name }, 'challenge proxy answered something that is not JSON');
        return false;
      }
      this.markUnreachable(err);
      return false;
    }
    if (answer.status !== 'ok' || !answer.solution) {
      this.opts.logger.warning({ unblocker: this.name, path, message: answer.message ?? 'no message' }, 'challenge proxy could not open the page');
      return false;
    }
    const html = answer.solution.response ?? '';
    const verdict = classifyAnswer({ status: 200, contentType: 'text/html', body: html, location: null });
    if (verdict.outcome !== 'ok') {
      this.opts.logger.info({ unblocker: this.name, path, outcome: verdict.outcome, reason: verdict.reason }, 'page through the challenge proxy is still walled');
      return false;
    }
    const cookies = answer.solution.cookies ?? [];
    this.opts.sink.adoptSession({ cookies, userAgent: answer.solution.userAgent ?? null });
    this.opts.logger.info({ unblocker: this.name, path, cookies: cookies.length }, 'took the session of the challenge proxy');
    return true;
  }

  async close(): Promise<void> {
    // Stateless: no proxy session is created.
  }

  private async post(body: unknown, timeoutMs: number): Promise<Response> {
    return fetch(this.opts.proxyUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  }

  private markUnreachable(err: unknown): void {
    this.reachable = { value: false, at: this.now() };
    if (this.warned) return;
    this.warned = true;
    const reason = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    this.opts.logger.warning({ unblocker: this.name, reason }, 'challenge proxy unreachable; making plain requests');
  }
}
