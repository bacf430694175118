// Listening and stopping. Node answers requests it cannot parse before Express sees them; this
// makes that answer a JSON 400 too, and gives shutdown a close that also ends idle keep-alives.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { errorBody } from './errors';

export interface Listening {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** PM2 waits 10 s (kill_timeout) before SIGKILL; stay inside it. */
const CLOSE_GRACE_MS = 8000;

const BAD_REQUEST = JSON.stringify(errorBody('badRequest'));

export function listen(app: Express, port: number, host: string): Promise<Listening> {
  const server = createServer(app);
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(BAD_REQUEST)}\r\nConnection: close\r\n\r\n${BAD_REQUEST}`,
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve({
        server,
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            // In-flight requests may finish; a client holding a connection open past that is cut.
            const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
            server.close(() => {
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
