// Sockets: after the 400 at the header timeout the server only half-closed, so silent connections
// kept their slots (and /health refused) until the client closed; a reader taking 2 KB every few
// moments never tripped the idle timeout, kept its answer in memory, and was logged as a 200.
// Over the real API on real sockets; waits are for events, bounded by deadlines.

import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import { CHANNEL, KEY, startApi, video, type TestApi } from '../api/support';
import { withTranscripts } from '../support/factories';
import { waitFor } from '../support/poll';

const connections = (api: TestApi): Promise<number> => new Promise((resolve, reject) => api.server.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

describe('sockets that time out, and answers read too slowly', function () {
  this.timeout(60_000);

  it('a connection timed out on its headers is destroyed after its 400: its slot frees at once', async () => {
    const api = await startApi({ server: { maxConnections: 5, headersTimeoutMs: 400, requestTimeoutMs: 400 } });
    const sockets: Socket[] = [];
    try {
      const port = Number(new URL(api.base).port);
      const answered: Promise<string>[] = [];
      for (let i = 0; i < 5; i++) {
        // allowHalfOpen: receiving the server's FIN does not make this client close its own side.
        const s = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
        sockets.push(s);
        s.on('error', () => undefined);
        let got = '';
        // A silent client: it reads what it is sent but never closes its side.
        answered.push(new Promise((resolve) => s.on('data', (c: Buffer) => ((got += c.toString()), got.includes('\r\n\r\n') && resolve(got)))));
        s.write('GET /health HTTP/1.1\r\nHost: x\r\n'); // headers never finished
      }
      for (const a of await Promise.all(answered)) expect(a).to.match(/^HTTP\/1\.1 400 /);
      // No client closed anything: only the server can have freed the slots.
      await waitFor('every timed-out connection freed', async () => ((await connections(api)) === 0 ? true : undefined), 10_000, 20);
      expect((await fetch(`${api.base}/health`)).status).to.equal(200);
    } finally {
      for (const s of sockets) s.destroy();
      await api.close();
    }
  });

  it('a reader taking 2 KB at a time is cut at API_SEND_TIMEOUT_MS for the whole answer, and logged as cut', async () => {
    const api = await startApi({ server: { sendTimeoutMs: 1500 } });
    try {
      // Long words: the search index the batch write keeps in step costs per word, not per byte.
      const big = `${'w'.repeat(999)} `.repeat(2_000);
      await api.store.upsertVideos(...withTranscripts(Array.from({ length: 10 }, (_, i) => video(i + 1)), () => big));
      const socket = connect({ port: Number(new URL(api.base).port), host: '127.0.0.1' });
      socket.on('error', () => undefined);
      let received = 0;
      // Never idle: a read every 50 ms, so an idle timeout never fires; 2 KB at a time.
      socket.pause();
      const reader = setInterval(() => {
        const chunk = socket.read(2048) as Buffer | null;
        if (chunk) received += chunk.length;
      }, 50);
      const from = api.logLines.length;
      socket.write(`GET /?channel_id=${CHANNEL}&max_items=10 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${KEY}\r\n\r\n`);
      let access;
      try {
        // The client cannot see the cut until it has read what the kernel already holds; the
        // server's own line says it.
        access = await waitFor('the access line of the slow reader', () => api.logLines.slice(from).find((l) => l.category === 'api.http' && l.path !== undefined), 20_000, 20);
      } finally {
        clearInterval(reader);
        socket.destroy();
      }
      const lines = api.logLines.slice(from).filter((l) => l.category === 'api.http');
      expect(access).to.include({ msg: 'cut', cut: true, status: 200 });
      expect(lines.some((l) => l.msg === 'request' && l.path === access.path), 'never also logged as a plain 200').to.equal(false);
      expect(api.logLines.some((l) => l.level === 'WARNING' && String(l.msg).includes('cut answers'))).to.equal(true);
      expect(received).to.be.below(20_000_000);
      expect((await fetch(`${api.base}/health`)).status).to.equal(200);
    } finally {
      await api.close();
    }
  });
});
