// Slow readers pinned rendered bodies in memory: one key, many connections, each with its own
// `lang` (so each its own render of a ~10 MB feed), none reading. Now a key has at most
// API_MAX_CONNECTIONS_PER_KEY answers in progress (429 beyond, before any render), and an answer
// not taken within API_SEND_TIMEOUT_MS is cut, which frees what it held. Against a real API
// process; its memory is read from /proc.

import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import { startApiProcess, type ApiProcess } from '../support/api-process';
import { videoFactory, withTranscripts } from '../support/factories';
import { waitFor } from '../support/poll';

const CHANNEL = 'UCuAXFkgsw1L7xaCfnd5JJOw';
const KEY = 'slow-reader-attacker-key-01';
const OTHER = 'slow-reader-bystander-key-2';
const MB = 1024 * 1024;
/** Ten more keys, four stalled readers each: the per-key bound does not stop these forty. */
const READERS = Array.from({ length: 10 }, (_, i) => `slow-reader-shared-key-${String(i).padStart(2, '0')}`);

/** Sends one request and never reads: resolves with the status line once the head arrives. */
function stalledReader(base: string, target: string, key: string, sockets: Socket[]): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = connect({ port: Number(url.port), host: url.hostname });
    sockets.push(socket);
    socket.on('error', () => resolve('closed'));
    // A socket the server ends before its head (an answer cut at the send timeout) resolves too,
    // so the assertions below say what happened instead of the test waiting out mocha's timeout.
    socket.on('close', () => resolve('closed'));
    socket.once('data', (c: Buffer) => {
      resolve(c.toString('latin1').split('\r\n')[0]!);
      socket.pause(); // from here on, nothing is read
    });
    socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n\r\n`);
  });
}

describe('slow readers and the memory they hold', function () {
  this.timeout(180_000);
  let api: ApiProcess;
  const sockets: Socket[] = [];
  before(async () => {
    const video = videoFactory({ channelId: CHANNEL });
    // About 12 MB of feed: more than loopback's socket buffers take off the process's hands.
    const transcript = 'spoken words '.repeat(10_000);
    api = await startApiProcess({
      keys: { [KEY]: { name: 'attacker', rate_limit: 1000 }, [OTHER]: { name: 'bystander', rate_limit: 1000 }, ...Object.fromEntries(READERS.map((k, i) => [k, { name: `reader ${i}`, rate_limit: 1000 }])) },
      // The send timer starts at a request's arrival and four ~12 MB renders at once took longer
      // than 8 s on a loaded machine, cutting answers before their head: 30 s is in proportion to
      // that work; the wait for the cuts below is longer still.
      env: { API_SEND_TIMEOUT_MS: '30000', API_MAX_CONNECTIONS_PER_KEY: '4' },
      seed: (store) => store.upsertVideos(...withTranscripts(Array.from({ length: 100 }, (_, i) => video(i + 1)), () => transcript)),
    });
  });
  after(async () => {
    for (const s of sockets) s.destroy();
    await api?.stop();
  });

  it('40 stalled readers of one key: 4 answered, the rest 429 at once; memory stays bounded and is released at the send timeout', async () => {
    // Warm the process (first render, caches) so growth is what the readers hold.
    expect((await fetch(`${api.base}/?channel_id=${CHANNEL}&max_items=100`, { headers: { 'X-API-Key': OTHER } })).status).to.equal(200);
    const base = api.rss();
    // All forty at once, as an attacker sends them. One after another, each waiting for its head,
    // they spread over the renders of the four admitted answers: on a loaded machine those took
    // longer than the send timeout, the first answers were cut and freed the key's slots, and later
    // readers were admitted (9 answered instead of 4, issue 26).
    const heads = await Promise.all(Array.from({ length: 40 }, (_, i) =>
      stalledReader(api.base, `/?channel_id=${CHANNEL}&max_items=100&lang=x${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`, KEY, sockets)));
    // Every request arrived before the first cut: the bound, not the send timeout, decided them.
    expect(api.proc.logs.filter((l) => l.msg === 'cut'), 'answers cut while the forty were sent').to.have.length(0);
    const held = api.rss() - base;
    expect(heads.filter((h) => h.includes(' 200 ')), heads.join('\n')).to.have.length(4);
    expect(heads.filter((h) => h.includes(' 429 '))).to.have.length(36);
    // Four ~12 MB answers and the garbage of four renders, not forty answers (~480 MB).
    expect(held / MB, 'MB the stalled readers hold').to.be.below(160);
    // Another key is not affected by this one's limit.
    expect((await fetch(`${api.base}/?channel_id=${CHANNEL}&max_items=99`, { headers: { 'X-API-Key': OTHER } })).status).to.equal(200);
    // At the send timeout the four are cut; the key may open answers again.
    await waitFor('the stalled answers cut', () => (api.proc.logs.filter((l) => l.msg === 'cut').length >= 4 ? true : undefined), 90_000, 100);
    const again = await fetch(`${api.base}/?channel_id=${CHANNEL}&max_items=100&lang=en`, { headers: { 'X-API-Key': KEY } });
    expect(again.status).to.equal(200);
    await again.arrayBuffer();
  });

  it('40 stalled readers of the same feed (ten keys): all answered from the one cached body, never a copy each', async () => {
    const feed = `/?channel_id=${CHANNEL}&max_items=100&lang=en`;
    const warm = await fetch(feed.replace(/^/, api.base), { headers: { 'X-API-Key': OTHER, 'Accept-Encoding': 'identity' } });
    expect(warm.status).to.equal(200);
    const bytes = (await warm.arrayBuffer()).byteLength;
    expect(bytes / MB).to.be.above(10);
    const base = api.rss();
    const heads: string[] = [];
    for (let i = 0; i < 40; i++) heads.push(await stalledReader(api.base, feed, READERS[i % READERS.length]!, sockets));
    expect(heads.filter((h) => h.includes(' 200 ')), heads.join('\n')).to.have.length(40);
    // Forty private copies would hold forty times the body (~480 MB); the shared one is already
    // counted before the readers came, so what they add is bookkeeping and the collector's slack
    // (tens of MB on a busy machine): well under a third of the copies.
    const held = api.rss() - base;
    expect(held / MB, 'MB forty stalled readers of one body hold').to.be.below((40 * bytes) / MB / 3);
  });
});
