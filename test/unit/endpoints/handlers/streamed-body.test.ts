/**
 * Streamed response bodies (issue #17 item 5): small bodies stay one buffer, large ones stream
 * with backpressure, gzip still applies to a streamed body, and a client that goes away mid-body
 * stops the encoder and leaves the server serving.
 */
import { expect } from 'chai';
import Koa from 'koa';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { GZIP_THRESHOLD_BYTES, setBody } from '../../../../lib/endpoints/handlers/compression.js';
import { streamedBody } from '../../../../lib/endpoints/handlers/streamed-body.js';

/** `n` chunks of `size` bytes, each filled with its index's letter; `onEnd` learns how it ended. */
function* source(n: number, size: number, onEnd: (how: 'done' | 'returned') => void = () => undefined): Generator<string> {
  let done = false;
  try {
    for (let i = 0; i < n; i++) yield String.fromCharCode(97 + (i % 26)).repeat(size);
    done = true;
  } finally {
    onEnd(done ? 'done' : 'returned');
  }
}

async function bytesOf(body: Buffer | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

function get(server: Server, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('streamed response bodies (issue #17 item 5)', () => {
  it('keeps a body below the gzip threshold one buffer, and streams a larger one in order', async () => {
    const small = await streamedBody(source(3, 1000));
    expect(Buffer.isBuffer(small)).to.equal(true);
    expect((small as Buffer).toString()).to.equal('a'.repeat(1000) + 'b'.repeat(1000) + 'c'.repeat(1000));
    expect(Buffer.isBuffer(await streamedBody(source(0, 1)))).to.equal(true);
    const large = await streamedBody(source(40, 10_000));
    expect(large).to.be.instanceOf(Readable);
    expect((await bytesOf(large)).equals(Buffer.from([...source(40, 10_000)].join('')))).to.equal(true);
  });

  it('throws an encoder error raised before the threshold (the answer can still be a Status)', async () => {
    async function* failing(): AsyncGenerator<string> {
      yield 'x';
      throw new Error('unencodable');
    }
    let err: unknown;
    await streamedBody(failing()).catch((e: unknown) => (err = e));
    expect((err as Error).message).to.equal('unencodable');
  });

  describe('over HTTP', () => {
    let server: Server;
    let ended: Promise<'done' | 'returned'> = Promise.resolve('done');
    const n = 200;
    const size = 16 * 1024;

    before(async () => {
      const app = new Koa();
      app.silent = true;
      app.use(async (ctx) => {
        let end: (how: 'done' | 'returned') => void = () => undefined;
        ended = new Promise((resolve) => (end = resolve));
        ctx.set('Content-Type', 'text/plain');
        await setBody(ctx, await streamedBody(source(ctx.path === '/small' ? 2 : n, size, end)), ctx.get('Accept-Encoding') === 'gzip');
      });
      server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
    });
    after(() => new Promise((resolve) => server.close(resolve)));

    const expected = Buffer.from([...source(n, size)].join(''));

    it('sends a large body chunked (no Content-Length) and gzips it for a client that accepts gzip', async () => {
      const plain = await get(server, '/large');
      expect(plain.headers['content-length']).to.equal(undefined);
      expect(plain.headers['transfer-encoding']).to.equal('chunked');
      expect(plain.bytes.equals(expected)).to.equal(true);
      const gz = await get(server, '/large', { 'Accept-Encoding': 'gzip' });
      expect(gz.headers['content-encoding']).to.equal('gzip');
      expect(gunzipSync(gz.bytes).equals(expected)).to.equal(true);
      expect(await ended).to.equal('done');
    });

    it('sends a body below the threshold with its Content-Length, uncompressed', async () => {
      expect(2 * size).to.be.below(GZIP_THRESHOLD_BYTES);
      const small = await get(server, '/small', { 'Accept-Encoding': 'gzip' });
      expect(small.headers['content-length']).to.equal(String(2 * size));
      expect(small.headers['content-encoding']).to.equal(undefined);
    });

    for (const gzip of [false, true]) {
      it(`stops the encoder when the client goes away mid-body${gzip ? ' (gzipped)' : ''}, and serves the next request`, async () => {
        const { port } = server.address() as AddressInfo;
        await new Promise<void>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port, path: '/large', headers: gzip ? { 'Accept-Encoding': 'gzip' } : {}, agent: false }, (res) => {
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          });
          req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? undefined : reject(e)));
          req.end();
        });
        expect(await ended).to.equal('returned');
        const next = await get(server, '/large');
        expect(next.bytes.equals(expected)).to.equal(true);
      });
    }
  });
});

describe('the gzip threshold (spec 000 § Content negotiation and encoding; README § Where we differ from the spec\'s text)', () => {
  let server: Server;
  const chunk = 16 * 1024;

  before(async () => {
    const app = new Koa();
    app.silent = true;
    // `/<bytes>`: a body of exactly that many bytes, in 16 KiB chunks and a last short one.
    app.use(async (ctx) => {
      const total = Number(ctx.path.slice(1));
      const chunks = [...source(Math.floor(total / chunk), chunk), 'z'.repeat(total % chunk)];
      await setBody(ctx, await streamedBody(chunks), ctx.get('Accept-Encoding') === 'gzip');
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  it('sends a body of exactly 128 KiB uncompressed, with its Content-Length, as upstream (gzip only when larger)', async () => {
    expect(GZIP_THRESHOLD_BYTES).to.equal(128 * 1024);
    const res = await get(server, `/${GZIP_THRESHOLD_BYTES}`, { 'Accept-Encoding': 'gzip' });
    expect(res.headers['content-encoding']).to.equal(undefined);
    expect(res.headers['content-length']).to.equal(String(GZIP_THRESHOLD_BYTES));
  });

  it('gzips a body one byte larger', async () => {
    const res = await get(server, `/${GZIP_THRESHOLD_BYTES + 1}`, { 'Accept-Encoding': 'gzip' });
    expect(res.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(res.bytes)).to.have.length(GZIP_THRESHOLD_BYTES + 1);
  });

  it('gzips a single buffer one byte larger than the threshold, and not one of the threshold', async () => {
    for (const [size, encoding] of [[GZIP_THRESHOLD_BYTES, undefined], [GZIP_THRESHOLD_BYTES + 1, 'gzip']] as const) {
      const app = new Koa();
      app.silent = true;
      app.use((ctx) => setBody(ctx, Buffer.alloc(size, 'y'), true));
      const one = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => one.once('listening', resolve));
      try {
        expect((await get(one, '/', { 'Accept-Encoding': 'gzip' })).headers['content-encoding'], String(size)).to.equal(encoding);
      } finally {
        await new Promise((resolve) => one.close(resolve));
      }
    }
  });
});
