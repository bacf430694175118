// The subscriptions page (/app/subscriptions): a subscription file uploaded through a form is read
// by the same code as POST /subscriptions (upload.ts: the same formats, limits and streaming) and
// followed by the same code (key-list.ts: the same batched write and hourly allowance), its answer
// shown as a table in the page's words; the key's list with its Remove forms; the OPML download
// (/app/subscriptions.opml, by the session, never by a key in the URL); the combined feed's URLs.
//
// The form is multipart, so kit.posting's urlencoded parser cannot read it: another site's post is
// refused first (kit.sameOrigin), then the session is looked up, then the CSRF field, which the
// form sends before the file, is checked when the file part begins, before a byte of it is read.

import type { Request, RequestHandler, Response } from 'express';
import type { ComponentChildren } from 'preact';
import { keyTextOf } from '../../shared/config/security';
import { ApiError } from '../errors';
import { field, text } from '../http/answer';
import { applyImport, listed, opmlOf } from '../subscriptions/key-list';
import { linksAt } from '../subscriptions/links';
import { OPML_CONTENT_TYPE } from '../subscriptions/opml-export';
import { ImportFileError, type ParsedImport } from '../subscriptions/parsed-import';
import { ImportFormRequired, readUpload } from '../subscriptions/upload';
import type { AppKit, SignedIn } from './kit';
import { renderPage } from './pages';
import { sameToken } from './security';
import { combinedFeedUrls, followedList, importTable, uploadForm, type FeedUrls } from './subscriptions-page';
import type { Words } from './i18n';

export interface SubscriptionsRoutes {
  subscriptions: RequestHandler;
  subscriptionsUpload: RequestHandler[];
  subscriptionsOpml: RequestHandler;
}

/** The combined feed's formats, as GET /subscriptions/feed's `format` names them. */
const FORMATS = [{ name: 'Atom', param: 'Atom' }, { name: 'RSS', param: 'Rss' }, { name: 'JSON Feed', param: 'Json' }] as const;

class TokenRefused extends Error {
  override readonly name = 'TokenRefused';
}

/** A refused file's status and words, or null for an error that is not the file's (a 500's). */
function refusalOf(err: unknown, w: Words): { status: number; text: string } | null {
  if (err instanceof ImportFileError) {
    const text = w.importProblems[err.problem] ?? w.importProblems.badForm!;
    return { status: err.problem === 'tooMany' ? 413 : 400, text: err.line === undefined ? text : `${text} (${w.colLine} ${err.line})` };
  }
  if (!(err instanceof ApiError)) return null;
  if (err.code === 'bodyTooLarge') return { status: 413, text: w.importProblems.tooLarge! };
  if (err.code === 'importNoFile') return { status: 400, text: w.importProblems.noFile! };
  if (err.code === 'importBadForm') return { status: 400, text: w.importProblems.badForm! };
  return null;
}

export function subscriptionsRoutes(kit: AppKit): SubscriptionsRoutes {
  const { deps, log } = kit;

  async function page(req: Request, res: Response, signed: SignedIn, status: number, result: ComponentChildren, error: string | null): Promise<void> {
    const ctx = kit.context(req, signed);
    const origin = deps.originOf(req);
    const key = keyTextOf(signed.key);
    const list = listed(await deps.store.listSubscriptions(signed.key.keyId), linksAt(origin, key));
    const feedUrls: FeedUrls = key === null ? null : FORMATS.map((f) => ({ format: f.name, url: `${origin}/subscriptions/feed?format=${f.param}&api_key=${encodeURIComponent(key)}` }));
    const w = ctx.words;
    kit.send(res, status, renderPage(ctx, w.subscriptions, [uploadForm(w, signed.session.csrf, error), result, followedList(w, signed.session.csrf, list), combinedFeedUrls(w, feedUrls)]));
  }

  const subscriptions = kit.reading((req, res, signed) => page(req, res, signed, 200, null, null));

  const upload: RequestHandler = async (req, res) => {
    const signed = await kit.signedIn(req);
    if (signed === null) {
      // The file is not read for nobody: the connection closes after the answer.
      field(res, 'Connection', 'close');
      return kit.signInPage(req, res, 401, null);
    }
    const w = kit.context(req, signed).words;
    let parsed: ParsedImport;
    try {
      parsed = await readUpload(req, res, {
        beforeFile: (fields) => {
          if (!sameToken(fields.get('csrf'), signed.session.csrf)) throw new TokenRefused('no session token before the file');
        },
      });
    } catch (err) {
      if (err instanceof TokenRefused || err instanceof ImportFormRequired) {
        log.warning({ event: 'webapp_csrf_refused', path: req.path }, 'app form without its session token refused');
        const ctx = kit.context(req, signed);
        return kit.send(res, 403, renderPage(ctx, w.subscriptions, w.refused));
      }
      const refusal = refusalOf(err, w);
      if (refusal === null) throw err;
      return page(req, res, signed, refusal.status, null, refusal.text);
    }
    const outcome = await applyImport({ store: deps.store, importChannelsPerKeyHour: deps.importChannelsPerKeyHour }, signed.key.keyId, parsed, deps.clock());
    log.info({ event: 'webapp_import', key: signed.key.name, format: parsed.format, imported: outcome.imported, rejected: parsed.rejected.length }, 'app subscription import');
    await page(req, res, signed, 200, importTable(w, parsed, outcome), null);
  };

  const subscriptionsOpml: RequestHandler = async (req, res) => {
    const signed = await kit.signedIn(req);
    if (signed === null) return kit.signInPage(req, res, 401, null);
    // The file is for a feed reader, so its feed URLs carry the key, as GET /subscriptions's do.
    const list = listed(await deps.store.listSubscriptions(signed.key.keyId), linksAt(deps.originOf(req), keyTextOf(signed.key)));
    const body = opmlOf(list, deps.clock());
    // Never cached (text's no-store): its URLs carry the key.
    text(res, 200, OPML_CONTENT_TYPE, body, ['Content-Disposition', 'attachment; filename="subscriptions.opml"']);
  };

  return { subscriptions, subscriptionsUpload: [kit.sameOrigin, upload], subscriptionsOpml };
}
