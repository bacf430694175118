// The shapes of the API's errors: the JSON body an error answer carries, what a thrower may add
// to it (ErrorContext), and one catalogue entry (api/errors.ts holds the catalogue itself). Kept
// apart so the catalogue file is the list of conditions and nothing else.

import type { CrawlView } from './feed/crawl-view';
import type { Usage } from './service-info';

export interface ErrorBody {
  error: string;
  message?: string;
  channel_id?: string;
  playlist_id?: string;
  usage?: Usage;
  retry_after?: number;
  /** Which line of an uploaded file was wrong, where there is one. */
  line?: number;
}

/** What a thrower may add: the channel in question, the key's limit, a safe detail for 500s. */
export interface ErrorContext {
  channelId?: string;
  playlistId?: string;
  limit?: number;
  /** For `server`: a short, safe description (no stack, no SQL, no key). */
  detail?: string;
  /** For `badParameter`-like entries: which query parameter. */
  param?: string;
  /** For the import entries: the file's faulty line, where there is one. */
  line?: number;
  /** For `methodNotAllowed`: the Allow header, the methods the path is served with. */
  allow?: string;
  /** For `methodNotAllowed`: other methods served on paths beneath it (`DELETE /subscriptions/<ref>`). */
  beneath?: string;
  /** For `unknownHandle`: the handle as the request gave it (validated: letters, digits, `_`, `-`). */
  handle?: string;
  /** For `noVideosYet`: what the crawler knows of the channel; left out = not looked at yet. */
  crawl?: CrawlView;
  /** For `pathNotFound`: the paths the app serves (its route table; filled in by the error sender). */
  paths?: string;
  /** Seconds until the request can succeed, where it is known: replaces the entry's own retry_after. */
  retryAfter?: number;
}

export interface Entry {
  readonly status: 400 | 401 | 403 | 404 | 405 | 413 | 415 | 429 | 500;
  readonly error: (ctx: ErrorContext) => string;
  readonly message?: (ctx: ErrorContext) => string;
  readonly usage?: true;
  readonly channelId?: true;
  readonly playlistId?: true;
  readonly retryAfter?: number;
  readonly line?: true;
  /** Sends `WWW-Authenticate: Basic`, so that a browser asks for the key. */
  readonly basicChallenge?: true;
}
