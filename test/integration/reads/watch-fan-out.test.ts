/**
 * Watch fan-out against a real server (issue #17 item 3): many watchers of one collection each
 * receive every event of a burst of writes, in order, in well-formed HTTP/1.1 chunks (the writer
 * frames its chunks itself and writes them straight to the socket); a watch pipelined behind
 * another watch on one connection (so without its socket while its first event comes) is
 * answered after it, its events intact and its stream ended with the last chunk, and the
 * connection then serves the next request.
 */
import { connect } from 'node:tls';
import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const WATCHERS = 60;
const OBJECTS = 8;
const UPDATES = 15;

/** The events of a chunked HTTP/1.1 body (after the headers): one JSON object per line, and whether the last chunk came. */
function dechunk(body: Buffer): { events: { type: string; object: { metadata: { name: string; resourceVersion: string } } }[]; complete: boolean } {
  const data: Buffer[] = [];
  let at = 0;
  let complete = false;
  while (at < body.length) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
    expect(Number.isNaN(size), `chunk size line at ${at}`).to.equal(false);
    if (size === 0) {
      complete = body.subarray(eol, eol + 4).toString('latin1') === '\r\n\r\n';
      break;
    }
    expect(body.subarray(eol + 2 + size, eol + 4 + size).toString('latin1'), 'CRLF after chunk data').to.equal('\r\n');
    data.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 4 + size;
  }
  const lines = Buffer.concat(data).toString().split('\n').filter((l) => l);
  return { events: lines.map((l) => JSON.parse(l)), complete };
}

describe('watch fan-out (issue #17 item 3)', () => {
  const server = useTestServer();

  it('every watcher receives every event of a burst of writes, in order', async function () {
    this.timeout(60_000);
    const admin = server().admin;
    const ns = 'fanout-burst';
    await admin.post('/api/v1/namespaces', { metadata: { name: ns } });
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    let rv = '';
    for (let i = 0; i < OBJECTS; i++) rv = (await admin.post(cms, { metadata: { name: `cm-${i}` }, data: { n: '0' } })).body.metadata.resourceVersion;
    const watchers = await Promise.all(Array.from({ length: WATCHERS }, () => admin.watch(`${cms}?watch=1&resourceVersion=${rv}`)));
    for (const w of watchers) expect(w.status).to.equal(200);
    const written: string[] = [];
    // One lane per ConfigMap, all at once: a burst of OBJECTS × UPDATES writes.
    await Promise.all(
      Array.from({ length: OBJECTS }, async (_, i) => {
        for (let u = 1; u <= UPDATES; u++) {
          const res = await admin.put(`${cms}/cm-${i}`, { metadata: { name: `cm-${i}`, namespace: ns }, data: { n: String(u), pad: 'x'.repeat(200 * u) } });
          expect(res.status, res.text).to.equal(200);
          written.push(res.body.metadata.resourceVersion);
        }
      }),
    );
    written.sort((a, b) => Number(a) - Number(b));
    await Promise.all(
      watchers.map(async (w) => {
        const seen: string[] = [];
        while (seen.length < written.length) {
          const ev = await w.next(15_000);
          expect(ev, 'watch ended early').to.not.equal(null);
          expect(ev.type).to.equal('MODIFIED');
          seen.push(ev.object.metadata.resourceVersion);
        }
        expect(seen).to.deep.equal(written);
        w.close();
      }),
    );
  });

  it('a watch pipelined behind another watch is answered after it, whole, and the connection serves the next request', async function () {
    this.timeout(30_000);
    const admin = server().admin;
    const ns = 'fanout-pipelined';
    await admin.post('/api/v1/namespaces', { metadata: { name: ns } });
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    const rv = (await admin.post(cms, { metadata: { name: 'first' } })).body.metadata.resourceVersion;
    const url = new URL(server().url);
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: admin.ca, cert: admin.creds.cert, key: admin.creds.key, servername: 'localhost' });
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    const head = (path: string) => `GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: application/json\r\n\r\n`;
    // The first watch (of another namespace, no events) holds the connection for a second; the
    // second one's event comes meanwhile.
    socket.write(head(`/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}&timeoutSeconds=1`) + head(`${cms}?watch=1&resourceVersion=${rv}&timeoutSeconds=3`));
    const created = (await admin.post(cms, { metadata: { name: 'second' } })).body.metadata.resourceVersion;
    // Written once the first watch ends and the second gets the socket, not at its own end.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(Buffer.concat(received).toString(), 'event written before the watch ends').to.contain('"name":"second"');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    socket.write(head(`${cms}/second`));
    const deadline = Date.now() + 5_000;
    const text = () => Buffer.concat(received).toString('latin1');
    while (text().split('HTTP/1.1 200').length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    const all = Buffer.concat(received);
    const starts: number[] = [];
    for (let i = all.indexOf('HTTP/1.1 '); i >= 0; i = all.indexOf('HTTP/1.1 ', i + 1)) starts.push(i);
    expect(starts, 'three responses').to.have.length(3);
    const responses = starts.map((s, i) => all.subarray(s, starts[i + 1] ?? all.length));
    const bodyOf = (r: Buffer) => r.subarray(r.indexOf('\r\n\r\n') + 4);
    expect(responses[0]!.toString('latin1')).to.match(/^HTTP\/1\.1 200/);
    expect(dechunk(bodyOf(responses[0]!))).to.deep.equal({ events: [], complete: true });
    expect(responses[1]!.toString('latin1')).to.match(/^HTTP\/1\.1 200[^]*transfer-encoding: chunked/i);
    const watch = dechunk(bodyOf(responses[1]!));
    expect(watch.complete, 'the watch ended with the last chunk').to.equal(true);
    expect(watch.events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion])).to.deep.equal([['ADDED', 'second', created]]);
    expect(responses[2]!.toString('latin1')).to.match(/^HTTP\/1\.1 200/);
  });
});
