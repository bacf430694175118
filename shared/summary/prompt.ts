// What the model is asked (docs/summaries.md "What leaves the machine"): the title, the chapters
// and the paragraphs each opened by its start time; and, for a transcript longer than the
// context, the parts to sum up (by chapters, else by windows of paragraphs) and then the combining.

import type { Chapter } from '../transcript/chapters';
import type { TimedParagraph } from '../transcript/paragraphs';
import { formatTimestamp } from '../transcript/timestamps';
import type { SummaryPoint } from './points';

/** Bumped when the instructions change: a summary is made once per video, language and version. */
export const PROMPT_VERSION = 1;

export interface ChatMessage {
  readonly role: 'system' | 'user';
  readonly content: string;
}

export interface VideoToSummarise {
  readonly title: string;
  readonly chapters: readonly Chapter[];
  readonly paragraphs: readonly TimedParagraph[];
  /** The summary's language name, e.g. "English". */
  readonly languageName: string;
}

/** At least one token per 4 characters, as the issue asks: never under-counted for Latin text. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** The answer's share of the context: 3–8 short points fit in it. */
export const answerReserve = (contextTokens: number): number => Math.min(1024, Math.floor(contextTokens / 4));

const system = (languageName: string, what: string): string =>
  `You summarise ${what} of a video for a reader who has not watched it. Answer in ${languageName} with 3 to 8 points, ` +
  'one per line, each line starting with a time in brackets copied exactly from the input, like "[12:34] what is said there". ' +
  'Use only times that appear in the input. No introduction, no conclusion, nothing else.';

const paragraphLine = (p: TimedParagraph): string => `[${formatTimestamp(p.startMs / 1000)}] ${p.text.replace(/\s+/g, ' ')}`;

function userText(title: string, chapters: readonly Chapter[], paragraphs: readonly TimedParagraph[]): string {
  const head = [`Title: ${title}`];
  if (chapters.length > 0) head.push('Chapters:', ...chapters.map((c) => `[${formatTimestamp(c.startSeconds)}] ${c.title}`));
  return [...head, 'Transcript:', ...paragraphs.map(paragraphLine)].join('\n');
}

/** One request's messages over some paragraphs. */
export function partMessages(v: VideoToSummarise, paragraphs: readonly TimedParagraph[], whole: boolean): ChatMessage[] {
  return [
    { role: 'system', content: system(v.languageName, whole ? 'the transcript' : 'one part of the transcript') },
    { role: 'user', content: userText(v.title, whole ? v.chapters : [], paragraphs) },
  ];
}

/** The combining request: the parts' points, times kept, to be merged into 3–8. */
export function combineMessages(v: VideoToSummarise, points: readonly SummaryPoint[]): ChatMessage[] {
  return [
    { role: 'system', content: system(v.languageName, 'the points made from the parts') },
    { role: 'user', content: [`Title: ${v.title}`, 'Points:', ...points.map((p) => `[${formatTimestamp(p.seconds)}] ${p.text}`)].join('\n') },
  ];
}

export const messagesTokens = (messages: readonly ChatMessage[]): number => messages.reduce((n, m) => n + estimateTokens(m.content) + 4, 0);

/**
 * The paragraphs cut into parts whose request fits `budget` tokens: whole chapters where they fit,
 * else windows of consecutive paragraphs. A single paragraph larger than the budget is cut short.
 */
export function splitParts(v: VideoToSummarise, budget: number): TimedParagraph[][] {
  const overhead = messagesTokens(partMessages(v, [], false));
  const room = Math.max(64, budget - overhead);
  const groups: TimedParagraph[][] = [];
  const starts = [...v.chapters].map((c) => c.startSeconds * 1000).sort((a, b) => a - b);
  let chapter = 0;
  let current: TimedParagraph[] = [];
  let used = 0;
  const flush = (): void => {
    if (current.length > 0) groups.push(current);
    current = [];
    used = 0;
  };
  for (const p of v.paragraphs) {
    // A new chapter opens a new part, so that parts follow the creator's own divisions.
    let opensChapter = false;
    while (chapter < starts.length && starts[chapter]! <= p.startMs) {
      chapter += 1;
      opensChapter = true;
    }
    if (opensChapter && chapter > 1) flush();
    const maxChars = room * 4 - 16;
    const q = p.text.length > maxChars ? { startMs: p.startMs, text: p.text.slice(0, maxChars) } : p;
    const cost = estimateTokens(paragraphLine(q)) + 1;
    if (used + cost > room) flush();
    current.push(q);
    used += cost;
  }
  flush();
  return groups;
}
