// GET /status: the operator's page (admin key as api_key, X-API-Key or the HTTP Basic password).
// Its own Content-Security-Policy: nothing but the one <style> with this response's nonce; no
// script, no image, no frame, no form, nothing from anywhere else.

import { randomBytes } from 'node:crypto';
import type { Store, SummaryKey } from '../../shared/store/types';
import { readStatus, type KeyLabels } from '../admin/status-data';
import { renderStatusPage } from '../admin/status-page';
import type { Handler } from '../http/keyed';
import { VERSION } from '../service-info';
import { text } from '../http/answer';

export const statusCsp = (nonce: string): string =>
  `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export function adminStatus(deps: { store: Store; clock: () => Date; labels?: KeyLabels; summaryKey?: SummaryKey }): Handler {
  return async (_req, res) => {
    const data = await readStatus(deps.store, deps.clock(), VERSION, deps.labels, deps.summaryKey);
    const nonce = randomBytes(16).toString('base64');
    const html = renderStatusPage(data, nonce);
    text(res, 200, 'text/html; charset=utf-8', html, ['Content-Security-Policy', statusCsp(nonce)]);
  };
}
