// The demo's channels (`npm run demo`) and the feed URLs it prints: what the README promises a
// newcomer sees, in one place for the demo and its test.

import { asrStyle, generateCues, makeChannel, type FakeChannelSpec, type FakeVideoSpec } from '../fake-platform';

const clock = (s: number): string => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

/** A description with three chapters over the video's cues, as creators write them; none for a short talk. */
function withChapters(video: FakeVideoSpec): FakeVideoSpec {
  const end = Math.floor(video.cues?.at(-1)?.start ?? 0);
  if (end < 45) return video;
  const marks: [number, string][] = [[0, 'Intro'], [Math.floor(end / 3), 'The main part'], [Math.floor((2 * end) / 3), 'Wrapping up']];
  return { ...video, description: `${video.title}\n\n${marks.map(([s, t]) => `${clock(s)} ${t}`).join('\n')}` };
}

const TURKISH_TITLES = ['Ekşi maya ekmeği', 'Bisiklet bakımı', 'Ev bitkileri', "Roma'nın tarihi", 'Güneş panelleri', 'Japonya gezisi'];

/** The channels the demo hosts, and what each shows. */
export function demoChannels(): { channel: FakeChannelSpec; shows: string }[] {
  const demo = makeChannel({ handle: 'demo', title: 'Demo Channel', count: 40, seed: 1, shortsRatio: 0.15, captionsMix: { manual: 0.6, automatic: 0.25, both: 0.1, none: 0.05 } });
  demo.videos = demo.videos.map((v) => (v.captions === 'manual' && !v.short ? withChapters(v) : v));
  // The newest upload is an aired live stream: listed only with include=live.
  const stream = demo.videos[0]!;
  demo.videos[0] = { ...stream, short: undefined, live: 'stream', title: 'Live: questions and answers', captions: 'automatic', cues: asrStyle(generateCues(stream.videoId)) };
  const turkish = makeChannel({ handle: 'turkce', title: 'Türkçe Kanal', count: TURKISH_TITLES.length, seed: 3, captionsMix: { manual: 1 } });
  turkish.videos = turkish.videos.map((v, i) => withChapters({ ...v, title: TURKISH_TITLES[i]!, language: 'tr', cues: generateCues(v.videoId, 'tr') }));
  const shorts = demo.videos.filter((v) => v.short).length;
  return [
    { channel: demo, shows: `${demo.videos.length} videos with English captions and chapters; ${shorts} Shorts and a live stream, listed with include=` },
    { channel: turkish, shows: `${turkish.videos.length} videos with Turkish captions and chapters` },
  ];
}

/** The feed URLs the demo prints, each with what it shows; the first of each channel registers its languages. */
export function demoFeeds(host: string, key: string, channels: FakeChannelSpec[]): { channel: FakeChannelSpec; label: string; url: string }[] {
  const [demo, turkish] = channels;
  const q = (query: string) => `${host}/?${query}&api_key=${key}`;
  return [
    // The fake platform does not translate: its "Turkish" is the English text marked [tr] (test/fake-platform/timedtext.ts).
    { channel: demo!, label: 'lang=tr (the fake\'s stand-in translation: English marked [tr])', url: q('channel=@demo&lang=tr') },
    { channel: demo!, label: 'Atom', url: q('channel=@demo') },
    { channel: demo!, label: 'with Shorts and live', url: q('channel=@demo&include=shorts,live&max_items=20') },
    { channel: demo!, label: 'RSS', url: q('channel=@demo&format=Rss&max_items=20') },
    { channel: turkish!, label: 'Atom', url: q('channel=@turkce') },
    { channel: turkish!, label: 'JSON Feed', url: q('channel=@turkce&format=Json') },
  ];
}
