// Realistic transcripts for generated videos: sentences split into short cues, pauses between some
// sentences (clients group paragraphs by pauses), a few cues without `dur`, a few empty ones, and
// text with `'`, `&`, `<` and quotes so every client's escaping is exercised end to end.

import type { FakeCue } from './types';
import { between, makeRng, pick, type Rng } from '../support/random';

export const TOPICS = [
  'sourdough bread',
  'the Rust borrow checker',
  'solar panels',
  'the history of Rome',
  'budget travel in Japan',
  'home espresso',
  'bicycle maintenance',
  'mechanical keyboards',
  'climbing knots',
  'houseplant care',
] as const;

const ENGLISH = [
  'Hi everyone, and welcome back to the channel.',
  "Today we're going to look at {topic}.",
  "It's simpler than it sounds, I promise.",
  "Let's start with the basics & work our way up.",
  'If x < 10 the loop keeps going, otherwise it stops.',
  "Don't forget to check the notes below.",
  "That's the part most people get wrong.",
  "We'll compare {topic} with {other} in a minute.",
  'The rule of thumb: measure first, then optimise.',
  'You can see the result right here on the screen.',
  "Here's a quick recap of what we've covered so far.",
  'Research & development took about three months.',
  'Some people say "less is more" and here it\'s true.',
  "This one's a little tricky, so bear with me.",
  'Prices went from <$50 to well over a hundred.',
  "Thanks for watching, and I'll see you in the next one.",
] as const;

const GERMAN = [
  'Hallo zusammen und willkommen zurück.',
  'Heute schauen wir uns {topic} an.',
  'Das ist einfacher, als es klingt.',
  'Wir fangen mit den Grundlagen an & arbeiten uns hoch.',
  'Wenn x < 10 ist, läuft die Schleife weiter.',
  'Vergesst nicht, die Links unten anzuschauen.',
  'Das ist der Teil, den viele falsch machen.',
  "Gib's zu, das hast du nicht erwartet.",
  'Danke fürs Zuschauen und bis zum nächsten Mal.',
] as const;

const TURKISH = [
  'Herkese merhaba, kanala tekrar hoş geldiniz.',
  'Bugün {topic} konusuna bakacağız.',
  'Göründüğünden daha kolay, söz veriyorum.',
  'Temellerden başlayıp adım adım ilerleyeceğiz & sonra özetleyeceğiz.',
  'Eğer x < 10 ise döngü devam eder.',
  'Açıklamadaki notlara göz atmayı unutmayın.',
  'İşte çoğu kişinin yanlış yaptığı kısım bu.',
  "İstanbul'da ılık bir öğleden sonra çekildi.",
  'İzlediğiniz için teşekkürler, bir sonraki videoda görüşmek üzere.',
] as const;

const BANKS: Record<string, readonly string[]> = { de: GERMAN, tr: TURKISH };

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function sentence(rng: Rng, bank: readonly string[]): string {
  return pick(rng, bank).replace('{topic}', pick(rng, TOPICS)).replace('{other}', pick(rng, TOPICS));
}

/** A transcript of 12–40 sentences, deterministic for a seed. German for `de`, Turkish for `tr`, else English. */
export function generateCues(seed: string, language = 'en'): FakeCue[] {
  const rng = makeRng(`cues:${seed}`);
  const bank = BANKS[language] ?? ENGLISH;
  const cues: FakeCue[] = [];
  let t = between(rng, 0.1, 1);
  const sentences = Math.floor(between(rng, 12, 41));
  for (let s = 0; s < sentences; s++) {
    const words = sentence(rng, bank).split(' ');
    while (words.length > 0) {
      const chunk = words.splice(0, Math.floor(between(rng, 4, 10)));
      const dur = round(chunk.length * 0.36 + between(rng, 0.2, 0.8), 3);
      const cue: FakeCue = { start: round(t, 3), text: chunk.join(' ') };
      // Real tracks omit `dur` on some cues.
      if (rng() >= 0.06) cue.dur = dur;
      cues.push(cue);
      t += dur + between(rng, 0, 0.15);
      // Empty text elements occur in real tracks.
      if (rng() < 0.04) cues.push({ start: round(t, 3), dur: 0.5, text: '' });
    }
    // A pause: a speaker taking a breath or changing the subject.
    if (rng() < 0.25) t += between(rng, 1.5, 4);
  }
  return cues;
}

/** What speech recognition makes of the same words: lower case, no punctuation, `[Music]` first. */
export function asrStyle(cues: FakeCue[]): FakeCue[] {
  const spoken = cues.map((cue) => ({
    ...cue,
    text: cue.text
      .toLowerCase()
      .replace(/[.,!?;:"]/g, '')
      .replace(/ {2,}/g, ' ')
      .trim(),
  }));
  return [{ start: 0, dur: Math.min(0.1, spoken[0]?.start ?? 0.1), text: '[Music]' }, ...spoken];
}

/** Video length implied by a transcript (seconds, at least a minute). */
export function lengthOf(cues: FakeCue[]): number {
  const last = cues[cues.length - 1];
  const end = last ? last.start + (last.dur ?? 2) : 0;
  return Math.max(60, Math.ceil(end + 5));
}
