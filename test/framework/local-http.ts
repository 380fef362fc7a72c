/**
 * A Koa application served over plain HTTP on a free loopback port, for unit tests of filters.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

/** A listening test server: its base URL (`http://127.0.0.1:<port>`) and how to close it. */
export interface LocalHTTPServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Serves `app` on 127.0.0.1 at a free port; resolves once it listens. */
export async function listenLocal(app: Koa): Promise<LocalHTTPServer> {
  const server = createServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
