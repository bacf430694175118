// Listening and stopping, and what Node's HTTP server decides before Express sees a request:
// the connection bound, the header/request/send timeouts, requests Node cannot parse, `Expect`
// headers and CONNECT. Every answer given here is the same JSON error body with the same security
// headers as the app's. Shutdown gets a close that also ends idle keep-alives.

import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { categoryLogger, silentLogger, type Logger } from '../shared/logger';
import { ApiError, errorBody, type ErrorName } from './errors';
import { ALLOWED_METHODS, errorSender } from './http/error-answer';
import { door } from './http/request-entry';
import { field, rawAnswer } from './http/answer';
import { whenTaken } from './http/answer-delivered';
import { markCut } from './http/request-state';

export interface Listening {
  server: Server;
  port: number;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Root logger; the server logs under category `api.http`. */
  logger?: Logger;
  /** Open connections accepted at once (API_MAX_CONNECTIONS); null/undefined = from the fd limit. */
  maxConnections?: number | null;
  /** API_HEADERS_TIMEOUT_MS */
  headersTimeoutMs?: number;
  /** API_REQUEST_TIMEOUT_MS */
  requestTimeoutMs?: number;
  /** API_SEND_TIMEOUT_MS: an answer not wholly handed to its client this long after its request arrived is cut. */
  sendTimeoutMs?: number;
}

export const DEFAULTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, sendTimeoutMs: 30_000 } as const;

/** PM2 waits 10 s (kill_timeout) before SIGKILL; stay inside it. */
const CLOSE_GRACE_MS = 8000;
/** Descriptors kept free for the store, log files, the key-file watcher and platform requests. */
const FD_RESERVE = 100;
/** At most one WARNING line per kind in this interval; it carries how many events it stands for. */
const WARN_INTERVAL_MS = 10_000;

/** The soft open-file limit of this process (Linux /proc), or null where it cannot be read. */
export function openFileLimit(): number | null {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m && m[1] !== 'unlimited' ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** The default connection bound: 80% of the fd limit minus a reserve (1024 assumed when unknown). */
export function connectionBound(fdLimit: number | null = openFileLimit()): number {
  return Math.max(16, Math.floor((fdLimit ?? 1024) * 0.8) - FD_RESERVE);
}

/** Logs the first event at once, then at most one line per interval with the count since. */
function rateLimitedWarning(log: Logger, message: string, fields: Record<string, unknown>): () => void {
  let last = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  return () => {
    const now = Date.now();
    if (now - last < WARN_INTERVAL_MS) {
      suppressed++;
      return;
    }
    log.warning({ ...fields, events: suppressed + 1 }, message);
    last = now;
    suppressed = 0;
  };
}

/** Marks a socket on which a response has started: a later parse error must not get another. */
const RESPONDED = Symbol('responded');
type Marked = Socket & { [RESPONDED]?: true };

const rawResponse = (status: number, reason: string, name: ErrorName, extra: readonly string[] = []): string => rawAnswer(status, reason, JSON.stringify(errorBody(name)), extra);

/** Sends a last answer and frees the connection as soon as it is written, whatever the client does. */
function answerAndDestroy(socket: Socket, answer: string): void {
  socket.end(answer, () => socket.destroy());
}

/**
 * Cuts `res` (destroys its socket) unless its client has taken the whole answer within `ms` of the
 * request: the response finished and the socket's own buffer drained to the kernel. The access log
 * then logs it as `cut` (request-entry.ts).
 */
function limitSendTime(res: ServerResponse, ms: number, onCut: () => void): void {
  const socket = res.socket;
  if (socket === null) return;
  const timer = setTimeout(() => {
    markCut(res);
    onCut();
    socket.destroy();
  }, ms);
  whenTaken(res, () => clearTimeout(timer));
}

export function listen(app: RequestListener, port: number, host: string, opts: ServerOptions = {}): Promise<Listening> {
  const log = categoryLogger(opts.logger ?? silentLogger(), 'api.http');
  const headersTimeout = opts.headersTimeoutMs ?? DEFAULTS.headersTimeoutMs;
  // Node checks header/request timeouts on this interval (30 s by default, which would stretch a
  // 10 s header timeout to 40 s).
  const server = createServer(
    {
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 2))),
      headersTimeout,
      // Node requires the request timeout to be larger than the header timeout.
      requestTimeout: Math.max(opts.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs, headersTimeout + 1),
    },
    app,
  );
  const sendTimeout = opts.sendTimeoutMs ?? DEFAULTS.sendTimeoutMs;
  // The whole-answer timer below replaces Node's idle timeout: a reader taking 2 KB every few
  // seconds never leaves a connection idle, yet pins its answer in memory for as long as it likes.
  server.timeout = 0;
  server.maxConnections = opts.maxConnections ?? connectionBound();

  const dropped = rateLimitedWarning(log, `connection limit reached (${server.maxConnections} open): new connections are refused; put a reverse proxy in front or raise API_MAX_CONNECTIONS`, { maxConnections: server.maxConnections });
  server.on('drop', dropped);

  const cut = rateLimitedWarning(log, `cut answers not taken whole within ${sendTimeout} ms of their request (a client reading too slowly, or not at all)`, { sendTimeoutMs: sendTimeout });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    (req.socket as Marked)[RESPONDED] = true;
    limitSendTime(res, sendTimeout, cut);
  });

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Marked) => {
    // After a response on this connection, the bytes that follow cannot be answered in order:
    // close, never append a second answer the client would take for the next request's.
    if (err.code === 'ECONNRESET' || !socket.writable || socket[RESPONDED]) {
      socket.destroy();
      return;
    }
    // Written, then destroyed: a half-closed socket would keep its connection slot until the
    // client chose to close its side (the HTTP server allows half-open sockets).
    answerAndDestroy(socket, rawResponse(400, 'Bad Request', 'badRequest'));
  });

  // `Expect` other than 100-continue: Node would answer a bare 417 without our headers. The app's
  // own door and error sender give it the same headers and body as any other JSON error.
  const enter = door(opts.logger ?? silentLogger());
  const sendError = errorSender(opts.logger ?? silentLogger());
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    enter(req, res);
    field(res, 'Connection', 'close');
    sendError(new ApiError('unsupportedExpect'), req, res);
  });

  // CONNECT never reaches Express; without a listener Node just drops the connection.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    answerAndDestroy(socket, rawResponse(405, 'Method Not Allowed', 'methodNotAllowed', ['Allow', ALLOWED_METHODS]));
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve({
        server,
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            // In-flight requests may finish; a client holding a connection open past that is cut.
            const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
            server.close(() => {
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
