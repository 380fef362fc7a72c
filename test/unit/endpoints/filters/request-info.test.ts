import { expect } from 'chai';
import Koa from 'koa';
import { abortRequest, requestContextOf, requestQueryOf, withRequestInfo } from '../../../../lib/endpoints/filters/request-info.js';
import { type LocalHTTPServer, listenLocal } from '../../../framework/local-http.js';

/** A signal read once the request ended, and whether and why it aborted. */
interface Seen {
  aborted: boolean;
  reason: unknown;
}

describe('endpoints/filters/request-info', () => {
  let local: LocalHTTPServer;
  let url: string;
  const shutdown = new AbortController();
  let seen: Promise<Seen>;
  let report: (s: Seen) => void;

  before(async () => {
    const app = new Koa();
    app.use(withRequestInfo(shutdown.signal));
    app.use(async (koa) => {
      const ctx = requestContextOf(koa);
      if (koa.path === '/early-abort') {
        // Aborted before anything asked for the signal: it is born aborted, with the reason.
        abortRequest(koa, new Error('deadline'));
        abortRequest(koa, new Error('second'));
        report({ aborted: ctx.signal.aborted, reason: ctx.signal.reason });
        koa.body = 'ok';
      } else if (koa.path === '/query') {
        // The query the filter parsed, shared: the same object at every read.
        const q = requestQueryOf(koa);
        koa.body = { watch: q.get('watch'), labels: q.getAll('labelSelector'), same: q === requestQueryOf(koa), verb: ctx.requestInfo.verb };
        report({ aborted: false, reason: undefined });
      } else if (koa.path === '/late-abort') {
        const signal = ctx.signal;
        abortRequest(koa, new Error('deadline'));
        report({ aborted: signal.aborted, reason: signal.reason });
        koa.body = 'ok';
      } else if (koa.path === '/client-gone') {
        // The signal is asked for only after the client went away.
        await new Promise<void>((r) => koa.res.once('close', () => setImmediate(r)));
        report({ aborted: ctx.signal.aborted, reason: ctx.signal.reason });
      } else if (koa.path === '/hang') {
        const signal = ctx.signal;
        signal.addEventListener('abort', () => report({ aborted: true, reason: signal.reason }));
        await new Promise<void>((r) => koa.res.once('close', () => r()));
      } else {
        report({ aborted: ctx.signal.aborted, reason: ctx.signal.reason });
        koa.body = 'ok';
      }
    });
    local = await listenLocal(app);
    url = local.url;
  });
  after(() => local.close());
  beforeEach(() => {
    seen = new Promise((r) => (report = r));
  });

  it('gives a live signal to a request that is not aborted', async () => {
    expect((await fetch(`${url}/plain`)).status).to.equal(200);
    expect((await seen).aborted).to.equal(false);
  });

  it('parses the query once and shares it (requestQueryOf)', async () => {
    const res = await fetch(`${url}/query?watch=1&labelSelector=a%3Db&labelSelector=c`);
    expect(await res.json()).to.deep.equal({ watch: '1', labels: ['a=b', 'c'], same: true, verb: 'get' });
    await seen;
  });

  it('an abort before the signal is first read leaves it born aborted with the first reason', async () => {
    expect((await fetch(`${url}/early-abort`)).status).to.equal(200);
    const s = await seen;
    expect(s.aborted).to.equal(true);
    expect((s.reason as Error).message).to.equal('deadline');
  });

  it('an abort after the signal was read aborts it with the reason', async () => {
    expect((await fetch(`${url}/late-abort`)).status).to.equal(200);
    const s = await seen;
    expect(s.aborted).to.equal(true);
    expect((s.reason as Error).message).to.equal('deadline');
  });

  it('a client that goes away aborts the signal, whether it was read before or after', async () => {
    const gone = new AbortController();
    const res = fetch(`${url}/client-gone`, { signal: gone.signal }).catch(() => undefined);
    setTimeout(() => gone.abort(), 50);
    await res;
    expect((await seen).aborted).to.equal(true);
    seen = new Promise((r) => (report = r));
    const gone2 = new AbortController();
    const res2 = fetch(`${url}/hang`, { signal: gone2.signal }).catch(() => undefined);
    setTimeout(() => gone2.abort(), 50);
    await res2;
    expect((await seen).aborted).to.equal(true);
  });

  it('shutdown aborts the requests in flight', async () => {
    const res = fetch(`${url}/hang`).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    shutdown.abort();
    expect((await seen).aborted).to.equal(true);
    local.server.closeAllConnections();
    await res;
  });
});
