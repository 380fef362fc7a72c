/**
 * The web console's static files on the secure port (issue #22 § Served at `/console/`): public,
 * with content types, a strong ETag, the strict CSP and the other security headers; client-side
 * routes get index.html; `/console` redirects; only the built files are reachable; `--console=false`
 * serves nothing; an unbuilt console answers 404 saying so.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { CONSOLE_FIELD_MANAGER, META_GROUP, UPSTREAM_DOMAIN, VENDOR_DOMAIN } from '../../../lib/apis/vendor.js';
import { CONSOLE_CSP, defaultConsoleDir } from '../../../lib/server/console.js';
import { rawGet } from '../../framework/raw-https.js';
import { useTestServer } from '../../framework/test-server.js';

const INDEX = '<!doctype html><title>fixture</title><script type="module" src="/console/app.js"></script>\n';
const APP = 'console.log("app");\n';
const STYLE = 'body { margin: 0 }\n';
const BIG = `${'export const rows = [];\n'.repeat(200)}`;

describe('the web console on the secure port (issue #22 § Served at /console/)', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'orch-console-'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'app.js'), APP);
  writeFileSync(path.join(dir, 'style.css'), STYLE);
  writeFileSync(path.join(dir, 'big.js'), BIG);
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('--console (default on), no anonymous requests', () => {
    const server = useTestServer({ console: { dir }, anonymousAuth: false });
    const nobody = () => server().anonymous;

    it('serves the files with no credentials, each with its content type (charset for text)', async () => {
      expect((await nobody().get('/api')).status, 'the API still needs credentials').to.equal(401);
      for (const [p, type, text] of [
        ['/console/', 'text/html; charset=utf-8', INDEX],
        ['/console/index.html', 'text/html; charset=utf-8', INDEX],
        ['/console/app.js', 'text/javascript; charset=utf-8', APP],
        ['/console/style.css', 'text/css; charset=utf-8', STYLE],
      ]) {
        const res = await nobody().get(p!);
        expect(res.status, p).to.equal(200);
        expect(res.headers['content-type'], p).to.equal(type);
        expect(res.text, p).to.equal(text);
      }
    });

    it('every answer carries the strict CSP, nosniff, no referrer and no-cache', async () => {
      for (const p of ['/console/', '/console/app.js', '/console/api/v1/namespaces', '/console/config.json']) {
        const res = await nobody().get(p);
        expect(res.headers['content-security-policy'], p).to.equal(CONSOLE_CSP);
        expect(res.headers['x-content-type-options'], p).to.equal('nosniff');
        expect(res.headers['referrer-policy'], p).to.equal('no-referrer');
        expect(res.headers['cache-control'], p).to.equal('no-cache');
      }
      expect(CONSOLE_CSP).to.match(/(^|; )script-src 'self';/);
      expect(CONSOLE_CSP).not.to.match(/unsafe-inline|unsafe-eval/);
    });

    it('a strong ETag per content; If-None-Match answers 304 with no body, another tag 200', async () => {
      const app = await nobody().get('/console/app.js');
      const style = await nobody().get('/console/style.css');
      const etag = app.headers.etag!;
      expect(etag).to.match(/^"[A-Za-z0-9_-]+"$/);
      expect(style.headers.etag).not.to.equal(etag);
      expect((await nobody().get('/console/app.js')).headers.etag).to.equal(etag);
      const cached = await nobody().get('/console/app.js', { headers: { 'If-None-Match': etag } });
      expect(cached.status).to.equal(304);
      expect(cached.text).to.equal('');
      expect(cached.headers.etag).to.equal(etag);
      expect((await nobody().get('/console/app.js', { headers: { 'If-None-Match': style.headers.etag! } })).status).to.equal(200);
    });

    it('a large file goes gzipped to a client that accepts it, with its own ETag', async () => {
      const plain = await nobody().get('/console/big.js');
      expect(plain.headers['content-encoding']).to.equal(undefined);
      expect(plain.text).to.equal(BIG);
      expect(plain.headers.vary).to.equal('Accept-Encoding');
      const zipped = await nobody().get('/console/big.js', { headers: { 'Accept-Encoding': 'br, gzip;q=0.8' } });
      expect(zipped.headers['content-encoding']).to.equal('gzip');
      expect(zipped.headers['content-type']).to.equal('text/javascript; charset=utf-8');
      expect(gunzipSync(zipped.bytes).toString('utf8')).to.equal(BIG);
      expect(zipped.bytes.length).to.be.below(BIG.length / 4);
      expect(zipped.headers.etag).not.to.equal(plain.headers.etag);
      expect((await nobody().get('/console/big.js', { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': zipped.headers.etag! } })).status).to.equal(304);
      expect((await nobody().get('/console/big.js', { headers: { 'Accept-Encoding': 'gzip;q=0' } })).headers['content-encoding']).to.equal(undefined);
    });

    it('client-side routes get index.html (URLs mirror the API)', async () => {
      for (const p of ['/console/api/v1/namespaces/default/configmaps', '/console/apis/apps/v1/deployments', '/console/health', '/console/nope.js']) {
        const res = await nobody().get(p);
        expect(res.status, p).to.equal(200);
        expect(res.headers['content-type'], p).to.equal('text/html; charset=utf-8');
        expect(res.text, p).to.equal(INDEX);
      }
    });

    it('/console redirects (301) to /console/, keeping the query', async () => {
      const res = await nobody().get('/console');
      expect(res.status).to.equal(301);
      expect(res.headers.location).to.equal('/console/');
      expect((await nobody().get('/console?x=1')).headers.location).to.equal('/console/?x=1');
    });

    it('HEAD answers the headers without a body; other methods 405 Status', async () => {
      const head = await nobody().request('HEAD', '/console/app.js');
      expect(head.status).to.equal(200);
      expect(head.headers['content-type']).to.equal('text/javascript; charset=utf-8');
      expect(head.text).to.equal('');
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const res = await nobody().request(method, '/console/app.js', { raw: '{}' });
        expect(res.status, method).to.equal(405);
        expect(res.body, method).to.include({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
      }
    });

    it('/console/config.json gives the server words from the vendor module', async () => {
      const res = await nobody().get('/console/config.json');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/json');
      expect(res.body).to.deep.equal({ groupDomain: VENDOR_DOMAIN, aliasGroupDomain: UPSTREAM_DOMAIN, metaGroup: META_GROUP, fieldManager: CONSOLE_FIELD_MANAGER });
      expect(res.body.fieldManager).to.equal(`${VENDOR_DOMAIN.split('.')[0]}-console`);
    });

    it('no path reaches another file: dot segments, encoded or not, get index.html or nothing', async () => {
      const { ca } = server().admin;
      for (const p of ['/console/../metrics', '/console/%2e%2e/metrics', '/console/..%2fmetrics', '/console/%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/console/./app.js/../../version', '/console//etc/passwd']) {
        const res = await rawGet(server().url, p, [], { ca });
        if (res.status === 200) expect(res.text, p).to.equal(INDEX);
        else expect(res.body, p).to.include({ kind: 'Status' });
        expect(res.text, p).not.to.match(/apiserver_|root:|gitVersion/);
      }
    });
  });

  describe('--console=false', () => {
    const server = useTestServer({});

    it('/console/ answers as any unknown path does', async () => {
      const unknown = await server().admin.get('/no-such-path/');
      expect(unknown.status).to.equal(404);
      for (const p of ['/console', '/console/', '/console/app.js', '/console/config.json']) {
        const res = await server().admin.get(p);
        expect(res.status, p).to.equal(404);
        expect(res.body, p).to.deep.equal(unknown.body);
        expect(res.headers['content-security-policy'], p).to.equal(undefined);
      }
    });
  });

  describe('a console that is not built', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'orch-console-empty-'));
    after(() => rmSync(empty, { recursive: true, force: true }));
    const server = useTestServer({ console: { dir: path.join(empty, 'missing') } });

    it('/console/ answers 404 Status saying to run make build', async () => {
      for (const p of ['/console/', '/console/app.js', '/console/config.json']) {
        const res = await server().anonymous.get(p);
        expect(res.status, p).to.equal(404);
        expect(res.body, p).to.include({ kind: 'Status', reason: 'NotFound', code: 404 });
        expect(res.body.message, p).to.include('make build');
      }
    });
  });

  it('by default the files come from dist/console under the package root', () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
    expect(defaultConsoleDir()).to.equal(path.join(root, 'dist', 'console'));
  });
});
