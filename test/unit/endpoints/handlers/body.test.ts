import { expect } from 'chai';
import { type IncomingMessage, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { readBody } from '../../../../lib/endpoints/handlers/body.js';

/**
 * Starts a loopback HTTP server whose handler reads each request's body with `readBody(req,
 * limit)` and hands the outcome to `seen`; `send` writes `chunks` one by one (and, with `abort`,
 * destroys the connection before ending the body).
 */
async function withServer(limit: number, fn: (send: (chunks: string[], abort?: boolean) => void, seen: () => Promise<Buffer | Error>) => Promise<void>): Promise<void> {
  let settle: (v: Buffer | Error) => void = () => undefined;
  let outcome = new Promise<Buffer | Error>((r) => (settle = r));
  const server = createServer((req: IncomingMessage, res) => {
    readBody(req, limit).then(
      (b) => {
        settle(b);
        res.end('ok');
      },
      (err: Error) => {
        settle(err);
        res.statusCode = err instanceof StatusError ? err.status.code! : 500;
        if (err instanceof StatusError) res.setHeader('Connection', 'close');
        res.end();
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const send = (chunks: string[], abort = false) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/' });
    req.on('error', () => undefined);
    req.on('response', (res) => res.resume());
    for (const c of chunks) req.write(c);
    if (abort) setTimeout(() => req.destroy(), 50);
    else req.end();
  };
  try {
    await fn(send, async () => {
      const v = await outcome;
      outcome = new Promise<Buffer | Error>((r) => (settle = r));
      return v;
    });
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

describe('endpoints/handlers/body: readBody', () => {
  it('joins the chunks of a body, and reads an empty body as empty', async () => {
    await withServer(1024, async (send, seen) => {
      send(['{"a":', '1}']);
      expect(((await seen()) as Buffer).toString()).to.equal('{"a":1}');
      send([]);
      expect(((await seen()) as Buffer).length).to.equal(0);
    });
  });

  it('rejects with 413 RequestEntityTooLarge and Connection: close past the limit', async () => {
    await withServer(8, async (send, seen) => {
      send(['12345', '67890']);
      const err = (await seen()) as StatusError;
      expect(err).to.be.instanceOf(StatusError);
      expect(err.status).to.include({ code: 413, reason: 'RequestEntityTooLarge' });
      expect(err.headers).to.deep.equal({ Connection: 'close' });
    });
  });

  it('rejects a body cut short by the client', async () => {
    await withServer(1024, async (send, seen) => {
      send(['{"a":'], true);
      const err = await seen();
      expect(err).to.be.instanceOf(Error);
      expect(err).not.to.be.instanceOf(StatusError);
    });
  });
});
