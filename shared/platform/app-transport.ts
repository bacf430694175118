// The wire for app clients' calls (docs/crawler.md §3). fetch() cannot send them: the fetch
// standard makes every fetch add `Sec-Fetch-Mode` (undici sets `cors`, overwriting any value), and
// an Android or visionOS app never sends fetch metadata. undici's request() sends exactly the
// headers given, through the same dispatcher a proxy hop uses; the answer is handed on as a standard
// Response (decompressed, like fetch's) so the HTTP client treats both paths alike.

import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import { Agent, request, type Dispatcher } from 'undici';

/** Kept-alive connections for direct app calls (no proxy configured). */
const direct = new Agent({ keepAliveTimeout: 10_000 });

/** Statuses whose Response may carry no body. */
const BODYLESS = new Set([101, 103, 204, 205, 304]);

function decode(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      return body;
  }
}

/**
 * One exchange with exactly `init.headers` on the wire. `maxBytes` caps the encoded body read from
 * the socket (the client caps the decoded one again). Redirects are not followed (like
 * `redirect: 'manual'`).
 */
export async function appFetch(url: URL, init: RequestInit, maxBytes: number, dispatcher?: Dispatcher): Promise<Response> {
  const res = await request(url, {
    method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
    headers: init.headers as Record<string, string>,
    body: typeof init.body === 'string' ? init.body : undefined,
    signal: init.signal ?? undefined,
    dispatcher: dispatcher ?? direct,
  });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      res.body.destroy();
      throw new Error(`answer larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  const raw = res.headers['content-encoding'];
  const body = decode(Buffer.concat(chunks, size), Array.isArray(raw) ? raw[0] : raw);
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined || name === 'content-encoding' || name === 'content-length') continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Response(BODYLESS.has(res.statusCode) ? null : body, { status: res.statusCode, headers });
}
