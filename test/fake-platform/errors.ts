// Error answers in the platform's own shapes: Google API JSON errors for InnerTube, Google's plain
// HTML error pages for everything else.

import { html, json, type FakeResponse } from './http';

function googleError(code: number, message: string, status: string, reason: string): FakeResponse {
  return json({ error: { code, message, errors: [{ message, domain: 'global', reason }], status } }, code);
}

/** resolve_url of an unknown handle (resolve_url-unknown-handle-404.json, byte for byte in shape). */
export const notFoundJson = (): FakeResponse =>
  googleError(404, 'Requested entity was not found.', 'NOT_FOUND', 'notFound');

/** A malformed browse id or video id, an unreadable continuation token. */
export const invalidArgumentJson = (): FakeResponse =>
  googleError(400, 'Request contains an invalid argument.', 'INVALID_ARGUMENT', 'badRequest');

/** An InnerTube POST without a usable `context.client`. */
export const preconditionJson = (): FakeResponse =>
  googleError(400, 'Precondition check failed.', 'FAILED_PRECONDITION', 'failedPrecondition');

export const internalJson = (status: number): FakeResponse =>
  googleError(status, 'Internal error encountered.', status === 503 ? 'UNAVAILABLE' : 'INTERNAL', 'backendError');

const TITLES: Record<number, string> = {
  404: 'Not Found',
  500: 'Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** Google's error page ("Error 404 (Not Found)!!1"), as the feed and unknown pages answer. */
export function errorPage(status: number): FakeResponse {
  const title = TITLES[status] ?? 'Error';
  const text =
    status === 404
      ? 'The requested URL was not found on this server.'
      : 'The server encountered an error and could not complete your request.';
  return html(
    `<!DOCTYPE html><html lang=en><meta charset=utf-8><title>Error ${status} (${title})!!1</title>` +
      `<a href=//www.google.com/><span id=logo aria-label=Google></span></a>` +
      `<p><b>${status}.</b> <ins>That’s an error.</ins><p>${text}  <ins>That’s all we know.</ins>`,
    status,
  );
}
