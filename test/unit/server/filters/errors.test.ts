import { expect } from 'chai';
import Koa from 'koa';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { newConflict } from '../../../../lib/apimachinery/errors.js';
import { withStatusErrors } from '../../../../lib/server/filters/errors.js';

/** Serves `handler` behind the error filter on loopback and performs one GET. */
async function serve(handler: (koa: Koa.Context) => unknown): Promise<{ status: number; type: string; body: Record<string, unknown>; logged: unknown[] }> {
  const logged: unknown[] = [];
  const app = new Koa();
  app.silent = true;
  app.use(withStatusErrors((err) => logged.push(err)));
  app.use(async (koa) => {
    await handler(koa);
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const port = (server.address() as AddressInfo).port;
    return await new Promise((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/x' }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body: JSON.parse(text), logged }));
      })
        .on('error', reject)
        .end();
    });
  } finally {
    server.close();
  }
}

describe('every error is a Status (ARCHITECTURE.md § Errors; spec 001 § Errors)', () => {
  it('answers an unexpected exception with 500 InternalError without leaking it, and logs it', async () => {
    const res = await serve(() => {
      throw new TypeError('secret internal detail');
    });
    expect(res.status).to.equal(500);
    expect(res.type).to.equal('application/json');
    expect(res.body).to.deep.include({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'InternalError', code: 500 });
    expect(JSON.stringify(res.body)).to.not.include('secret internal detail');
    expect(res.logged).to.have.length(1);
  });

  it('writes a thrown StatusError as it is', async () => {
    const res = await serve(() => {
      throw newConflict({ group: '', resource: 'configmaps' }, 'x');
    });
    expect(res.status).to.equal(409);
    expect(res.body).to.deep.include({ reason: 'Conflict', code: 409 });
  });

  it('answers a request nothing handled with a 404 Status', async () => {
    const res = await serve(() => undefined);
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.include({ kind: 'Status', reason: 'NotFound', message: 'the server could not find the requested resource' });
  });
});
