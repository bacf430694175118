// The body of POST /subscriptions as people send it: the file itself (`curl --data-binary @file`,
// any Content-Type), or a `multipart/form-data` form (`curl -F file=@file`, a browser's file input)
// whose first file part is the file (busboy; other parts are skipped). Either way the bytes go to
// an ImportFeed as they arrive, one chunk at a time, and reading stops as soon as the feed refuses
// the file: the rest of the body is then discarded unread (at most the size limit's worth), so the
// answer comes after what was read, not after the whole upload. A form-encoded body without a line
// break that cannot be read is what `curl -d @file` makes of a file (it strips line breaks): the
// answer says to send it with --data-binary.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { ApiError } from '../errors';
import { ImportFeed, MAX_IMPORT_BYTES } from './import-file';
import { ImportFileError, type ImportProblem, type ParsedImport } from './parsed-import';
import { field } from '../http/answer';

/** What a multipart form may add to the file: its boundaries, part headers and a few small fields. */
export const MULTIPART_OVERHEAD_BYTES = 256 * 1024;
const FORM_LIMITS = { files: 1, fields: 16, fieldSize: 8 * 1024, parts: 24, headerPairs: 32 } as const;

/** Whole-file refusals a line-break-less form body most likely owes to `curl -d`. */
const FLATTENED: ReadonlySet<ImportProblem> = new Set(['badCsv', 'badJson', 'badXml', 'jsonShape', 'notOpml']);

const mediaType = (req: IncomingMessage): string => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

export interface UploadOptions {
  /**
   * A form's check of the fields before its file (the web app's CSRF token): called once, when the
   * file part begins, with the fields that came before it; a throw refuses the upload before one
   * byte of the file is read. Given, only a multipart form is taken (ImportFormRequired otherwise).
   */
  beforeFile?: (fields: ReadonlyMap<string, string>) => void;
}

/** A body that is not a multipart form where only a form can say who sent it. */
export class ImportFormRequired extends Error {
  override readonly name = 'ImportFormRequired';
}

export const isMultipart = (req: IncomingMessage): boolean => mediaType(req) === 'multipart/form-data';

/** The file in the request's body, read; throws ImportFileError or ApiError. */
export async function readUpload(req: IncomingMessage, res: ServerResponse, opts: UploadOptions = {}): Promise<ParsedImport> {
  const type = mediaType(req);
  const multipart = type === 'multipart/form-data';
  if (opts.beforeFile !== undefined && !multipart) {
    refuseRest(req, res);
    throw new ImportFormRequired('not a multipart form');
  }
  const declared = Number(req.headers['content-length'] ?? NaN);
  const limit = MAX_IMPORT_BYTES + (multipart ? MULTIPART_OVERHEAD_BYTES : 0);
  if (declared > limit) {
    refuseRest(req, res);
    throw new ApiError('bodyTooLarge');
  }
  const feed = new ImportFeed();
  try {
    if (multipart) await readForm(req, feed, opts.beforeFile);
    else await feedFrom(req, feed);
    const parsed = await feed.end();
    if (type === 'application/x-www-form-urlencoded' && !feed.hadLineBreak && parsed.entries.length === 0 && parsed.rejected.length > 0) throw new ApiError('importFlattened');
    return parsed;
  } catch (err) {
    discardRest(req, res, limit);
    if (err instanceof ImportFileError && FLATTENED.has(err.problem) && type === 'application/x-www-form-urlencoded' && !feed.hadLineBreak) {
      throw new ApiError('importFlattened', {}, { cause: err });
    }
    throw err;
  }
}

/**
 * Hands a stream's chunks to the feed one at a time (the stream paused while one is read) until
 * it ends; a refusal rejects at once and leaves the stream to the caller. A paused stream whose
 * last chunk has come still says 'end' at once: the end waits for that chunk's reading.
 */
function feedFrom(stream: Readable, feed: ImportFeed): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed = false;
    let reading: Promise<void> = Promise.resolve();
    const fail = (err: unknown): void => {
      if (failed) return;
      failed = true;
      stream.off('data', onData);
      reject(err);
    };
    const onData = (chunk: Buffer): void => {
      stream.pause();
      reading = feed.push(chunk).then(() => {
        if (!failed) stream.resume();
      }, fail);
    };
    stream.on('data', onData);
    stream.once('end', () => {
      void reading.then(() => {
        if (!failed) resolve();
      });
    });
    stream.once('error', fail);
    stream.once('aborted', () => fail(new ApiError('badRequest')));
  });
}

/** The first file part of a multipart form, into the feed (once `beforeFile` passes the fields before it); other parts are skipped. */
function readForm(req: IncomingMessage, feed: ImportFeed, beforeFile?: UploadOptions['beforeFile']): Promise<void> {
  return new Promise((resolve, reject) => {
    let form: busboy.Busboy;
    try {
      form = busboy({ headers: req.headers, limits: { ...FORM_LIMITS, fileSize: MAX_IMPORT_BYTES + 1 } });
    } catch (err) {
      reject(new ApiError('importBadForm', {}, { cause: err }));
      return;
    }
    let reading: Promise<void> | null = null;
    let settled = false;
    const fields = new Map<string, string>();
    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      req.unpipe(form);
      reject(err);
    };
    form.on('field', (name, value) => {
      if (reading === null && !fields.has(name)) fields.set(name, value);
    });
    form.on('file', (_name, file) => {
      if (reading !== null || settled) {
        file.resume();
        return;
      }
      try {
        beforeFile?.(fields);
      } catch (err) {
        file.resume();
        fail(err);
        return;
      }
      reading = feedFrom(file, feed).catch((err: unknown) => {
        file.resume();
        fail(err);
      });
    });
    form.once('error', (err) => fail(new ApiError('importBadForm', {}, { cause: err })));
    form.once('close', () => {
      if (settled) return;
      if (reading === null) {
        // No file at all: a form without its token is still refused as such, not as an empty form.
        try {
          beforeFile?.(fields);
        } catch (err) {
          fail(err);
          return;
        }
        fail(new ApiError('importNoFile'));
        return;
      }
      void reading.then(() => {
        if (settled) return;
        settled = true;
        resolve();
      });
    });
    req.once('aborted', () => fail(new ApiError('badRequest')));
    req.pipe(form);
  });
}

/**
 * The body is not read further: what is still coming is discarded up to `limit` bytes in all (a
 * client may still be sending the file it was refused for), beyond which the connection is closed
 * after the answer.
 */
function discardRest(req: IncomingMessage, res: ServerResponse, limit: number): void {
  if (req.readableEnded) return;
  let seen = 0;
  const count = (chunk: Buffer): void => {
    seen += chunk.length;
    if (seen > limit) {
      req.off('data', count);
      refuseRest(req, res);
    }
  };
  req.on('data', count);
  req.resume();
}

/** No more of this body is read: the answer closes the connection. */
function refuseRest(req: IncomingMessage, res: ServerResponse): void {
  if (!res.headersSent) field(res, 'Connection', 'close');
  req.pause();
}
