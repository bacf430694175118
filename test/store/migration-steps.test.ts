// Each SQLite migration step beside the MongoDB schema step that does the same for the scale-out
// store (or why MongoDB needs none: a field a document simply gains, a collection keyed by _id).
// Appending a step to one store without saying where the other stands fails here, so the two
// schemas cannot drift apart unnoticed.

import { expect } from 'chai';
import { SCHEMA_STEPS } from '../../shared/store/mongo/schema';
import { MIGRATIONS } from '../../shared/store/sqlite/migrations';

const M = (n: number): string => SCHEMA_STEPS[n - 1]?.name ?? `(no MongoDB step ${n})`;

/** By SQLite step (1-based, in order): the MongoDB steps that build the same, or why there is none. */
const PAIRS: readonly { sqlite: number; does: string; mongo: readonly string[] | { none: string } }[] = [
  { sqlite: 1, does: 'channels, videos, handles, rate limits', mongo: [M(1)] },
  { sqlite: 2, does: 'covered_wanted; the videos due for a retry', mongo: [M(1)] },
  { sqlite: 3, does: 'unknown handles; the refresh index', mongo: [M(1), M(2)] },
  { sqlite: 4, does: 'video kind, duration, description', mongo: { none: 'fields video documents gain' } },
  { sqlite: 5, does: 'transcripts per language; languages per channel', mongo: [M(1)] },
  { sqlite: 6, does: 'when a language was backfilled', mongo: { none: 'a field language documents gain' } },
  { sqlite: 7, does: 'subscriptions; followed and asked-for channels; the combined feed index', mongo: [M(1)] },
  { sqlite: 8, does: 'the search index', mongo: [M(1)] },
  { sqlite: 9, does: 'playlists and the work item kind', mongo: { none: 'playlists are documents keyed by _id; kind is a field channel documents gain' } },
  { sqlite: 10, does: 'the combined feed version: newest feed write, subscription change counter', mongo: [M(1), M(4)] },
  { sqlite: 11, does: 'shared platform pacing and cool-down', mongo: [M(3)] },
  { sqlite: 12, does: 'the platform check', mongo: { none: 'one document keyed by _id' } },
  { sqlite: 13, does: 'runs, heartbeats, hourly counts, failing channels first', mongo: [M(4)] },
  { sqlite: 14, does: 'a playlist change in the combined feed version', mongo: [M(1), M(4)] },
  { sqlite: 15, does: 'awaited channels', mongo: [M(5)] },
  { sqlite: 16, does: 'push (WebSub) subscriptions and pushed videos', mongo: [M(5)] },
  { sqlite: 17, does: 'one copy of each transcript (HTML converted to paragraphs)', mongo: [M(6)] },
  { sqlite: 18, does: 'the search index rebuilt with folded text', mongo: { none: 'MongoDB\'s search documents held folded words from its first step (mongo/search.ts); step 6 rewrites those of converted videos' } },
  { sqlite: 19, does: 'awaited work by round and key; the key that created each channel', mongo: [M(7)] },
  { sqlite: 20, does: 'who asked for which language', mongo: [M(8)] },
  { sqlite: 21, does: 'the player clients a crawler left out, in its heartbeat', mongo: { none: 'a field heartbeat documents gain' } },
  { sqlite: 22, does: 'imports queued per key; handle asks per key', mongo: [M(9)] },
  { sqlite: 23, does: 'summaries and their queue; the daily summary caps', mongo: [M(10)] },
  { sqlite: 24, does: 'the web app\'s sessions', mongo: [M(11)] },
  { sqlite: 25, does: 'the languages a video\'s player answer offered', mongo: { none: 'a field video documents gain' } },
  { sqlite: 26, does: 'the summary queue\'s scan, every video newest published first', mongo: [M(12)] },
];

describe('SQLite migration steps and MongoDB schema steps', function () {
  it('names a MongoDB step (or why none is needed) for every SQLite step, in order', function () {
    expect(PAIRS.map((p) => p.sqlite), 'one row per SQLite step: add a row for a new step').to.deep.equal(MIGRATIONS.map((_, i) => i + 1));
  });

  it('names only MongoDB steps that exist, and every one of them', function () {
    const known = SCHEMA_STEPS.map((s) => s.name);
    const named = PAIRS.flatMap((p) => (Array.isArray(p.mongo) ? p.mongo : []));
    for (const name of named) expect(known, `a MongoDB step named in the pairs`).to.include(name);
    for (const name of known) expect(named, `MongoDB step "${name}" beside some SQLite step`).to.include(name);
  });

  it('gives a reason wherever MongoDB has no step', function () {
    for (const p of PAIRS) {
      if (!Array.isArray(p.mongo)) expect((p.mongo as { none: string }).none, `SQLite step ${p.sqlite}`).to.match(/\w{3,}/);
      else expect(p.mongo.length, `SQLite step ${p.sqlite}`).to.be.above(0);
    }
  });
});
