import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestClient } from '../../framework/client.js';
import { useTestServer } from '../../framework/test-server.js';

const TOKENS = ['nobody-token,nobody,uid-nobody,'].join('\n');

/** Reads a streamed response until `marker` appears (or the end), then drops the connection. */
async function readUntil(client: TestClient, p: string, marker: string, maxBytes = 1 << 20): Promise<{ status: number; headers: Record<string, unknown>; head: string }> {
  const res = await client.rawStream(p);
  let head = '';
  for await (const chunk of res.body) {
    head += (chunk as Buffer).toString('utf8');
    if (head.includes(marker) || head.length > maxBytes) break;
  }
  res.close();
  return { status: res.status, headers: res.headers, head };
}

describe('debugging endpoints (issue #16 item 7: /debug/pprof, /logs)', function () {
  this.timeout(60_000);
  const logsDir = mkdtempSync(path.join(os.tmpdir(), 'orch-logs-dir-'));
  before(async () => {
    await writeFile(path.join(logsDir, 'apiserver.log'), 'I1129 line one\nI1129 line two\n');
    await mkdir(path.join(logsDir, 'nested'));
    await writeFile(path.join(logsDir, 'nested', 'a<b>.log'), 'x');
  });
  after(async () => {
    await rm(logsDir, { recursive: true, force: true });
  });

  describe('--profiling (default) and --enable-logs-handler on', () => {
    const server = useTestServer({ tokens: TOKENS, debug: { logsDir, logsHandler: true } });
    const nobody = () => server().admin.as({ token: 'nobody-token' });

    it('/debug/pprof redirects to the index, which lists heap and profile', async () => {
      const redirect = await server().admin.get('/debug/pprof');
      expect(redirect.status).to.equal(302);
      expect(redirect.headers.location).to.equal('/debug/pprof/');
      const index = await server().admin.get('/debug/pprof/');
      expect(index.status).to.equal(200);
      expect(index.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(index.text).to.include("<a href='heap'>heap</a>").and.include("<a href='profile'>profile</a>");
    });

    it('an unknown profile is Go pprof\'s 404 "Unknown profile"', async () => {
      const res = await server().admin.get('/debug/pprof/goroutine');
      expect([res.status, res.text, res.headers['x-go-pprof']]).to.deep.equal([404, 'Unknown profile\n', '1']);
    });

    it('/debug/pprof/heap streams a V8 heap snapshot whose header parses as JSON', async () => {
      const { status, headers, head } = await readUntil(server().admin, '/debug/pprof/heap', '"nodes":[');
      expect(status).to.equal(200);
      expect(headers['content-type']).to.equal('application/octet-stream');
      expect(headers['content-disposition']).to.equal('attachment; filename="heap.heapsnapshot"');
      const header = JSON.parse(`${head.slice(0, head.indexOf('"nodes":[')).replace(/,\s*$/, '')}}`) as { snapshot: { meta: { node_fields: string[] }; node_count: number } };
      expect(header.snapshot.meta.node_fields).to.include('name');
      expect(header.snapshot.node_count).to.be.greaterThan(1000);
    });

    it('/debug/pprof/heap?seconds=1 answers the allocations sampled meanwhile (.heapprofile), without a snapshot', async () => {
      const sampling = server().admin.get('/debug/pprof/heap?seconds=1');
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, i) => server().admin.post('/api/v1/namespaces/default/configmaps', { metadata: { name: `heap-sampled-${i}` }, data: { v: 'x'.repeat(4096) } })),
      );
      expect(created.map((r) => r.status)).to.deep.equal(Array(20).fill(201));
      const res = await sampling;
      expect(res.status).to.equal(200);
      expect(res.headers['content-disposition']).to.equal('attachment; filename="heap.heapprofile"');
      const profile = JSON.parse(res.text) as { head: { callFrame: { functionName: string }; children: unknown[] }; samples: Array<{ size: number; nodeId: number }> };
      expect(profile.head.callFrame.functionName).to.equal('(root)');
      expect(profile.head.children.length).to.be.greaterThan(0);
      // The 20 creates alone carry 80 KiB of data: allocations far past one 32 KiB sampling interval.
      expect(profile.samples.reduce((n, x) => n + x.size, 0)).to.be.greaterThan(80 * 1024);
    });

    it('/debug/pprof/heap with a bad seconds, one past the deadline or with debug is Go\'s 400; a second sampling at once is refused', async () => {
      const text = async (p: string) => {
        const res = await server().admin.get(p);
        return [res.status, res.text, res.headers['x-go-pprof']];
      };
      const invalid = [400, 'invalid value for "seconds" - must be a positive integer\n', '1'];
      expect(await text('/debug/pprof/heap?seconds=0')).to.deep.equal(invalid);
      expect(await text('/debug/pprof/heap?seconds=-2')).to.deep.equal(invalid);
      expect(await text('/debug/pprof/heap?seconds=1.5')).to.deep.equal(invalid);
      expect(await text('/debug/pprof/heap?seconds=99999999999999999999')).to.deep.equal(invalid);
      expect(await text('/debug/pprof/heap?seconds=60')).to.deep.equal([400, "profile duration exceeds server's WriteTimeout\n", '1']);
      expect(await text('/debug/pprof/heap?seconds=1&debug=1')).to.deep.equal([400, 'seconds and debug params are incompatible\n', '1']);
      const first = server().admin.get('/debug/pprof/heap?seconds=2');
      await new Promise((r) => setTimeout(r, 300));
      expect(await text('/debug/pprof/heap?seconds=1')).to.deep.equal([500, 'Could not enable heap profiling: heap profiling already in use\n', '1']);
      expect((await first).status).to.equal(200);
    });

    it('/debug/pprof/profile?seconds=1 answers a CPU profile with nodes and samples', async () => {
      const res = await server().admin.get('/debug/pprof/profile?seconds=1');
      expect(res.status).to.equal(200);
      expect(res.headers['content-disposition']).to.equal('attachment; filename="profile.cpuprofile"');
      const profile = JSON.parse(res.text) as { nodes: Array<{ id: number; callFrame: { functionName: string } }>; startTime: number; endTime: number; samples: number[] };
      expect(profile.nodes.length).to.be.greaterThan(0);
      expect(profile.nodes[0]!.callFrame.functionName).to.equal('(root)');
      expect(profile.endTime - profile.startTime).to.be.at.least(1_000_000);
    });

    it('a profile as long as the request timeout is Go\'s 400', async () => {
      const res = await server().admin.get('/debug/pprof/profile?seconds=60');
      expect([res.status, res.text]).to.deep.equal([400, "profile duration exceeds server's WriteTimeout\n"]);
    });

    it('PUT /debug/flags/v sets the verbosity with upstream\'s answers', async () => {
      const put = (body: string) => server().admin.request('PUT', '/debug/flags/v', { raw: body, contentType: 'text/plain' });
      const ok = await put('4');
      expect([ok.status, ok.text]).to.deep.equal([200, 'successfully set klog.logging.verbosity to 4\n']);
      const back = await put('0');
      expect([back.status, back.text]).to.deep.equal([200, 'successfully set klog.logging.verbosity to 0\n']);
      const bad = await put('x');
      expect([bad.status, bad.text]).to.deep.equal([400, 'failed set klog.logging.verbosity x: strconv.ParseUint: parsing "x": invalid syntax\n']);
      const get = await server().admin.get('/debug/flags/v');
      expect([get.status, get.text]).to.deep.equal([406, 'unsupported http method\n']);
      const index = await server().admin.get('/debug/flags/');
      expect(index.text).to.include('<tr>v<br>');
      const denied = await nobody().request('PUT', '/debug/flags/v', { raw: '9', contentType: 'text/plain' });
      expect(denied.status).to.equal(403);
      expect(denied.body.message).to.equal('forbidden: User "nobody" cannot put path "/debug/flags/v"');
    });

    it('a user without get on the /debug/* non-resource URL is forbidden', async () => {
      for (const p of ['/debug/pprof/', '/debug/pprof/heap', '/debug/pprof/profile?seconds=1', '/logs/']) {
        const res = await nobody().get(p);
        expect(res.status, p).to.equal(403);
        expect(res.body, p).to.include({ kind: 'Status', reason: 'Forbidden' });
        expect(res.body.message, p).to.equal(`forbidden: User "nobody" cannot get path "${p.split('?')[0]}"`);
      }
    });

    it('/logs redirects to /logs/, which lists the log directory as Go\'s file server', async () => {
      const redirect = await server().admin.get('/logs');
      expect([redirect.status, redirect.headers.location]).to.deep.equal([301, 'logs/']);
      const listing = await server().admin.get('/logs/');
      expect(listing.status).to.equal(200);
      expect(listing.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(listing.text).to.equal('<!doctype html>\n<meta name="viewport" content="width=device-width">\n<pre>\n<a href="apiserver.log">apiserver.log</a>\n<a href="nested/">nested/</a>\n</pre>\n');
      const nested = await server().admin.get('/logs/nested/');
      expect(nested.text).to.include('<a href="a%3Cb%3E.log">a&lt;b&gt;.log</a>');
    });

    it('/logs/<file> answers the file; missing, traversal and too long names as upstream', async () => {
      const file = await server().admin.get('/logs/apiserver.log');
      expect([file.status, file.headers['content-type'], file.text]).to.deep.equal([200, 'text/plain; charset=utf-8', 'I1129 line one\nI1129 line two\n']);
      const missing = await server().admin.get('/logs/absent.log');
      expect([missing.status, missing.text]).to.deep.equal([404, '404 page not found\n']);
      const long = await server().admin.get(`/logs/${'x'.repeat(256)}`);
      expect([long.status, long.text]).to.deep.equal([404, 'file not found\n']);
      // (A client normalizes literal and %2e dot segments away; an encoded slash reaches the server.)
      const traversal = await server().admin.get('/logs/nested%2f..%2f..%2fetc%2fpasswd');
      expect([traversal.status, traversal.text]).to.deep.equal([400, 'invalid URL path\n']);
    });
  });

  describe('defaults: /logs is not served (issue #16 item 7; upstream from v1.31)', () => {
    const server = useTestServer({ debug: { logsDir } });

    it('/logs and /logs/ answer 404 while /debug/pprof/ is served', async () => {
      for (const p of ['/logs', '/logs/', '/logs/apiserver.log']) expect((await server().admin.get(p)).status, p).to.equal(404);
      expect((await server().admin.get('/debug/pprof/')).status).to.equal(200);
    });
  });

  describe('--profiling=false --enable-logs-handler=false', () => {
    const server = useTestServer({ debug: { profiling: false, logsHandler: false } });

    it('the paths are not served: 404', async () => {
      for (const p of ['/debug/pprof', '/debug/pprof/', '/debug/pprof/heap', '/debug/pprof/profile?seconds=1', '/debug/flags/', '/logs', '/logs/']) {
        const res = await server().admin.get(p);
        expect(res.status, p).to.equal(404);
        expect(res.body, p).to.include({ kind: 'Status', reason: 'NotFound', code: 404 });
      }
    });
  });
});
