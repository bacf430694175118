// When a client has taken an answer whole: the response finished AND the socket's own buffer
// drained to the kernel. `finish` alone fires once the body is handed to the socket, which may
// still hold megabytes of it for a slow reader; until it drains (or the connection closes) that
// answer still occupies memory and its connection.

import type { ServerResponse } from 'node:http';

/** Calls `done` once, when `res` is taken whole or its connection closes, whichever comes first. */
export function whenTaken(res: ServerResponse, done: () => void): void {
  const socket = res.socket;
  if (socket === null || socket.destroyed) return void done();
  let called = false;
  const finish = (): void => {
    if (called) return;
    called = true;
    socket.off('close', finish);
    socket.off('drain', finish);
    done();
  };
  socket.on('close', finish);
  res.once('finish', () => {
    if (socket.writableLength === 0) finish();
    else socket.once('drain', finish);
  });
}
