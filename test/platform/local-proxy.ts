// A real local HTTP proxy (the npm `proxy` package) with Basic proxy auth, counting what went
// through it: the outbound-proxy tests and the browser fallback's proxy test use it.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy, type ProxyServer } from 'proxy';

export const USER = 'feeduser';
export const PASSWORD = 'pr0xy-S3cret!';

export interface LocalProxy {
  url(user?: string, password?: string): string;
  readonly port: number;
  /** CONNECT tunnels opened through this proxy (after authentication). */
  tunnels: number;
  /** Requests let through (tunnels and plain forwarded requests alike). */
  requests: number;
  /** Requests refused for missing or wrong credentials. */
  refused: number;
  close(): Promise<void>;
}

export async function startProxy(): Promise<LocalProxy> {
  const server: ProxyServer = createProxy(http.createServer());
  const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
  const state = { tunnels: 0, requests: 0, refused: 0 };
  server.authenticate = (req) => {
    const ok = req.headers['proxy-authorization'] === expected;
    if (ok && req.method === 'CONNECT') state.tunnels += 1;
    if (ok) state.requests += 1;
    if (!ok) state.refused += 1;
    return ok;
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (user = USER, password = PASSWORD) => `http://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    get tunnels() { return state.tunnels; },
    get requests() { return state.requests; },
    get refused() { return state.refused; },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  } as LocalProxy;
}
