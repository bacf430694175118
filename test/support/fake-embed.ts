// A stand-in for the platform's embedded player, on loopback, for the web app's in-process browser
// tests: a page of nothing but the IFrame API's postMessage protocol as the platform's player speaks
// it (test/fake-platform/iframe-api.ts, which the fake platform's own GET /embed/<id> serves too).

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { iframeApiScript, PLAYER_STATE_HTML } from '../fake-platform/iframe-api';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fake player</title></head>
<body>${PLAYER_STATE_HTML}<script>${iframeApiScript(3723)}</script></body></html>`;

export interface FakeEmbed {
  /** PLAYER_EMBED_URL for it: http://127.0.0.1:<port>/embed */
  url: string;
  /** Paths asked, in order. */
  asked: string[];
  close(): Promise<void>;
}

export async function startFakeEmbed(): Promise<FakeEmbed> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    if (!/^\/embed\/[\w-]{11}(\?|$)/.test(req.url ?? '')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/embed`,
    asked,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
