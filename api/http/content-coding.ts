// Compressed feeds: which content coding an answer gets (negotiator, the Accept-Encoding parser
// Express's req.acceptsEncodings uses: q-values, `identity`, `*`), the ETag of each coding, and the
// compression itself (node:zlib, on its thread pool, never on the event loop).

import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import Negotiator from 'negotiator';
import { LRUCache } from 'lru-cache';

export type Coding = 'br' | 'gzip' | 'identity';

/** Offered in this order of preference when the client weighs them alike. */
const OFFERED: readonly Coding[] = ['br', 'gzip', 'identity'];

/** Each coding's ETag suffix: a strong ETag names one sequence of bytes. */
const SUFFIX: Readonly<Record<Coding, string>> = { br: '-br', gzip: '-gz', identity: '' };

/**
 * Brotli at quality 5: within a few per cent of gzip's time and clearly smaller; the higher
 * qualities cost tens of milliseconds per 150 KB feed for a few per cent more. Each cached body is
 * compressed once per coding, so this is paid once per stored change.
 */
const BROTLI_QUALITY = 5;

/** Readers send a handful of distinct Accept-Encoding lines: each is parsed once. */
const negotiated = new LRUCache<string, Coding>({ max: 256 });

type Negotiate = (available: readonly string[], options: { preferred: readonly string[] }) => string[];

/**
 * The coding of this answer. Identity when the client sends no Accept-Encoding, and also when it
 * refuses everything (`identity;q=0`, `*;q=0`): RFC 9110 §12.5.3 lets the server then answer
 * without a coding rather than 406, which no feed reader would understand.
 */
export function negotiateCoding(header: string | undefined): Coding {
  if (header === undefined || header === '' || header === 'identity') return 'identity';
  let coding = negotiated.get(header);
  if (coding === undefined) {
    const negotiator = new Negotiator({ headers: { 'accept-encoding': header } });
    // negotiator 1.x takes the server's preference for ties; its published types predate that option.
    const encodings = (negotiator.encodings as unknown as Negotiate).call(negotiator, OFFERED, { preferred: OFFERED });
    coding = (encodings[0] as Coding | undefined) ?? 'identity';
    negotiated.set(header, coding);
  }
  return coding;
}

/** The strong ETag of `etag`'s body in `coding` (identity: `etag` itself). */
export function encodedEtag(etag: string, coding: Coding): string {
  return coding === 'identity' ? etag : `${etag.slice(0, -1)}${SUFFIX[coding]}"`;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export function compress(coding: Exclude<Coding, 'identity'>, body: Buffer): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(body);
  return brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
}
