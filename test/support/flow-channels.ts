// The fake channels the platform client's flows run against (test/platform/flows.test.ts): a small
// one with a video of every caption case, and larger ones for paging and shorts; and the text of
// rendered paragraphs, to compare with the cues that went in.

import { decodeHtml } from '../../shared/transcript/entities';
import { asrStyle, makeChannel, type FakeChannelSpec, type FakeCue, type FakeVideoSpec } from '../fake-platform';

export const CUES: FakeCue[] = [
  { start: 0.16, dur: 2.1, text: "It's simple & quick." },
  { start: 2.5, text: 'if x < 10, stop' },
  { start: 4.75, dur: 1, text: '' },
  { start: 6, dur: 2.25, text: 'Say "hello" <b>now</b> — done.' },
  { start: 12, dur: 2, text: 'After a pause.' },
];

const video = (videoId: string, captions: FakeVideoSpec['captions'], extra: Partial<FakeVideoSpec> = {}): FakeVideoSpec =>
  ({ videoId, title: `Video ${videoId} & "more"`, publishedAt: new Date('2026-07-04T18:30:05Z'), captions, cues: CUES, ...extra });

export const SMALL: FakeChannelSpec = {
  channelId: 'UCsmallchannel0000000001',
  handle: 'SmallChannel',
  title: 'Small & Co',
  videos: [
    video('manual00001', 'manual', { publishedAt: new Date('2026-07-10T10:00:00Z') }),
    video('automatic01', 'automatic', { cues: asrStyle(CUES), publishedAt: new Date('2026-07-09T10:00:00Z') }),
    video('bothkinds01', 'both', { publishedAt: new Date('2026-07-08T10:00:00Z') }),
    video('foreign0001', 'foreign', { publishedAt: new Date('2026-07-07T10:00:00Z') }),
    video('nocaptions1', 'none', { publishedAt: new Date('2026-07-06T10:00:00Z') }),
    video('agegated001', 'age_restricted', { publishedAt: new Date('2026-07-05T10:00:00Z') }),
    video('removed0001', 'unavailable', { publishedAt: new Date('2026-07-04T10:00:00Z') }),
    video('shortvideo1', 'manual', { short: true, publishedAt: new Date('2026-07-03T10:00:00Z') }),
  ],
};

export const BIG = makeChannel({ handle: 'bigchannel', count: 120, seed: 7, captionsMix: { manual: 1 } });
export const MIXED = makeChannel({ handle: 'withshorts', count: 60, seed: 11, shortsRatio: 0.3, captionsMix: { manual: 1 } });
export const MID = makeChannel({ handle: 'midchannel', count: 40, seed: 5, captionsMix: { manual: 1 } });

/**
 * Rendered paragraphs without the track note and the start-time links that open each paragraph,
 * still escaped: what is left must be the cues' text and `<p>` alone.
 */
export const spokenHtml = (html: string): string => html.replace(/^<p><small>[^<]*<\/small><\/p>\n?/, '').replace(/<a href="[^"]*">\d+(?::\d{2})+<\/a> /g, '');
/** Text content of rendered paragraphs, for comparing with the cues that went in. */
export const textOfHtml = (html: string): string => decodeHtml(spokenHtml(html).replace(/<\/?p>/g, ' ')).replace(/\s+/g, ' ').trim();
export const textOfCues = (cues: FakeCue[]): string => cues.map((c) => c.text.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim()).filter(Boolean).join(' ');
