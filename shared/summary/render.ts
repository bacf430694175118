// A stored summary as feeds will show it (issue 31 "Where it shows"): HTML opening an entry's
// content, a heading then a list whose items each open with a time link like the transcript's
// paragraphs (the `m:ss` text and the link's `t=` the same second); and the plain text for Atom
// `summary`, RSS `description` and JSON Feed `summary`. Every text is escaped here, by construction.

import { escapeHtml } from '../transcript/entities';
import { deepLink, formatTimestamp } from '../transcript/timestamps';

export interface SummaryToShow {
  readonly videoId: string;
  readonly points: readonly { readonly seconds: number; readonly text: string }[];
}

export const SUMMARY_HEADING = 'Summary';

export function renderSummaryHtml(s: SummaryToShow): string {
  const items = s.points.map((p) => `<li><a href="${escapeHtml(deepLink(s.videoId, p.seconds))}">${formatTimestamp(p.seconds)}</a> ${escapeHtml(p.text)}</li>`);
  return [`<h3>${SUMMARY_HEADING}</h3>`, '<ul>', ...items, '</ul>'].join('\n');
}

/** One line per point, `m:ss text`: what plain-text fields carry (the feed writer escapes it for XML). */
export const summaryPlainText = (s: SummaryToShow): string => s.points.map((p) => `${formatTimestamp(p.seconds)} ${p.text}`).join('\n');
