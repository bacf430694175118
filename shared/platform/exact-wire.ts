// The one wire every platform request goes out on, browser-like and app alike (docs/crawler.md §6).
// fetch() cannot send either faithfully: the fetch standard makes it set `Sec-Fetch-Mode` itself
// (undici writes `cors` over any value), so a page navigation would leave with `navigate` replaced
// by `cors` next to `Sec-Fetch-Dest: document` — a set no browser sends — and an app call would
// carry fetch metadata no app sends. undici's request() sends exactly the headers given (plus Host
// and Connection), directly or through a proxy hop's dispatcher; this module adds what fetch gave
// for free: decompression, a size cap, and no redirect following (the client follows same-host
// redirects itself, like `redirect: 'manual'`).

import { brotliDecompressSync, gunzipSync, inflateSync, type ZlibOptions } from 'node:zlib';
import { Agent, request, type Dispatcher } from 'undici';

/** Kept-alive connections for direct requests (no proxy configured). */
const direct = new Agent({ keepAliveTimeout: 10_000 });

export interface WireRequest {
  method: 'GET' | 'POST';
  /** Exactly the headers to send; nothing is added to or taken from them. */
  headers: Record<string, string>;
  body?: string;
  /** Aborts the whole exchange, body included (the client's timeout). */
  signal: AbortSignal;
  /** Largest body accepted, on the wire and again after decompression. */
  maxBytes: number;
  /** A proxy hop's dispatcher; the direct agent when absent. */
  dispatcher?: Dispatcher;
}

export interface WireAnswer {
  status: number;
  /** Response headers, without Content-Encoding and Content-Length (the body is decoded). */
  headers: Headers;
  /** The decoded body. */
  body: Buffer;
}

/** The answer was larger than `maxBytes`, encoded or decoded (a decompression bomb included). */
export class AnswerTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`answer larger than ${maxBytes} bytes`);
    this.name = 'AnswerTooLarge';
  }
}

function decodeOne(body: Buffer, coding: string, maxBytes: number): Buffer {
  // maxOutputLength stops a small compressed body from inflating past the cap in memory.
  const opts: ZlibOptions = { maxOutputLength: maxBytes };
  try {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(body, opts);
      case 'deflate':
        return inflateSync(body, opts);
      case 'br':
        return brotliDecompressSync(body, opts);
      default:
        return body; // identity, or a coding we never asked for: handed on as it came
    }
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw new AnswerTooLarge(maxBytes);
    throw err;
  }
}

/** Undoes every content coding, last applied first. */
function decode(body: Buffer, header: string | string[] | undefined, maxBytes: number): Buffer {
  const codings = (Array.isArray(header) ? header.join(',') : header ?? '')
    .split(',').map((c) => c.trim().toLowerCase()).filter(Boolean);
  return codings.reverse().reduce((b, coding) => decodeOne(b, coding, maxBytes), body);
}

/** One exchange with exactly `req.headers` on the wire; redirects are answered, not followed. */
export async function sendExact(url: URL, req: WireRequest): Promise<WireAnswer> {
  const res = await request(url, {
    method: req.method,
    headers: req.headers,
    body: req.body,
    signal: req.signal,
    dispatcher: req.dispatcher ?? direct,
  });
  const declared = Number(res.headers['content-length'] ?? NaN);
  if (declared > req.maxBytes) {
    res.body.destroy();
    throw new AnswerTooLarge(req.maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > req.maxBytes) {
      res.body.destroy();
      throw new AnswerTooLarge(req.maxBytes);
    }
    chunks.push(chunk);
  }
  const body = decode(Buffer.concat(chunks, size), res.headers['content-encoding'], req.maxBytes);
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined || name === 'content-encoding' || name === 'content-length') continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return { status: res.statusCode, headers, body };
}
