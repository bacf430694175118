// The subscriptions page's body: the upload form (multipart, its CSRF token before the file so
// the token is checked before the file is read), an import's answer as a table, what the key
// follows with a Remove form each (posted to /app/unfollow), the OPML download and the combined
// feed's URLs. Those URL fields are the one place a page shows the key.

import { h, type ComponentChildren } from 'preact';
import type { ImportOutcome, ListedSubscription } from '../subscriptions/key-list';
import { refKey } from '../subscriptions/key-list';
import type { ParsedImport, RejectedEntry } from '../subscriptions/parsed-import';
import { REASONS } from '../subscriptions/parsed-import';
import type { Words } from './i18n';

export const SUBSCRIPTIONS_PATH = '/app/subscriptions';
export const OPML_PATH = '/app/subscriptions.opml';

/** The combined feed's URLs by format, or null when the key's text is not known (a key made by hand). */
export type FeedUrls = readonly { readonly format: string; readonly url: string }[] | null;

const csrfField = (token: string): ComponentChildren => h('input', { type: 'hidden', name: 'csrf', value: token });

export function uploadForm(w: Words, csrf: string, error: string | null): ComponentChildren {
  return h('section', { 'aria-labelledby': 'upload' },
    h('h2', { id: 'upload' }, w.uploadHeading),
    // The token comes first: the server checks it before it reads a byte of the file.
    h('form', { method: 'post', action: SUBSCRIPTIONS_PATH, enctype: 'multipart/form-data' },
      csrfField(csrf),
      error === null ? null : h('p', { class: 'error', role: 'alert' }, error),
      h('label', { for: 'subscription-file' }, w.subscriptionFile),
      h('p', { id: 'subscription-file-hint', class: 'muted' }, w.uploadHint),
      h('input', { id: 'subscription-file', name: 'file', type: 'file', required: true, 'aria-describedby': 'subscription-file-hint', accept: '.csv,.json,.opml,.xml,.txt,.db,text/csv,application/json,text/x-opml,text/xml,text/plain' }),
      h('div', null, h('button', { type: 'submit' }, w.importButton))));
}

/** A rejected entry's reason in the page's language (the JSON API gives it in Turkish). */
function reasonOf(w: Words, r: RejectedEntry): string {
  const name = Object.entries(REASONS).find(([, text]) => text === r.reason)?.[0];
  return (name === undefined ? undefined : w.reasons[name]) ?? r.reason;
}

const entryName = (e: ImportOutcome['unique'][number]): string => (e.title === null ? refKey(e.ref) : `${e.title} (${refKey(e.ref)})`);

export function importTable(w: Words, parsed: ParsedImport, outcome: ImportOutcome): ComponentChildren {
  const already = outcome.unique.length - outcome.imported;
  const rows = [
    ...outcome.unique.map((e, i) => ({ line: e.line, entry: entryName(e), result: outcome.added[i] === true ? w.outcome.imported : w.outcome.already, reason: '' })),
    ...parsed.rejected.map((r) => ({ line: r.line, entry: r.text, result: w.outcome.rejected, reason: reasonOf(w, r) })),
  ].sort((a, b) => a.line - b.line);
  return h('section', { 'aria-labelledby': 'import-result' },
    h('h2', { id: 'import-result' }, w.importResult),
    h('p', { role: 'status' }, w.importSummary(outcome.imported, already, parsed.rejected.length),
      outcome.queued > 0 ? [' ', w.importQueued(outcome.queued, outcome.perKeyHour)] : null),
    h('table', null,
      h('thead', null, h('tr', null, [w.colLine, w.colEntry, w.colResult, w.colReason].map((c) => h('th', { scope: 'col', key: c }, c)))),
      h('tbody', null, rows.map((r, i) => h('tr', { key: i },
        h('td', null, String(r.line)), h('td', null, r.entry), h('td', null, r.result), h('td', null, r.reason))))));
}

export function followedList(w: Words, csrf: string, list: readonly ListedSubscription[]): ComponentChildren {
  return h('section', { 'aria-labelledby': 'following' },
    h('h2', { id: 'following' }, w.removeHeading),
    list.length === 0 ? h('p', null, w.nothingFollowed) : h('table', null,
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, w.colEntry), h('th', { scope: 'col' }, w.remove))),
      h('tbody', null, list.map((l, i) => h('tr', { key: l.key },
        h('td', { id: `followed-${i}` }, l.title, ' ', h('span', { class: 'muted' }, `(${l.record.kind === 'playlist' ? w.playlist : w.channel})`)),
        h('td', null, h('form', { method: 'post', action: '/app/unfollow' },
          csrfField(csrf),
          h('input', { type: 'hidden', name: 'ref', value: l.key }),
          h('input', { type: 'hidden', name: 'back', value: SUBSCRIPTIONS_PATH }),
          h('button', { type: 'submit', 'aria-describedby': `followed-${i}` }, w.remove))))))),
    h('p', null, h('a', { href: OPML_PATH, download: 'subscriptions.opml' }, w.opmlDownload)));
}

export function combinedFeedUrls(w: Words, urls: FeedUrls): ComponentChildren {
  if (urls === null) return null;
  return h('section', { 'aria-labelledby': 'combined-feed' },
    h('h2', { id: 'combined-feed' }, w.combinedFeed),
    h('p', { class: 'muted' }, w.feedUrlHint),
    urls.map(({ format, url }) => h('div', { key: format },
      h('label', { for: `feed-${format}` }, w.feedFormat(format)),
      h('input', { id: `feed-${format}`, type: 'text', readOnly: true, value: url, autocomplete: 'off' }))));
}
