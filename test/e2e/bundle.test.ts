/**
 * The bundle `make run` runs (hack/bundle.sh: our modules and the npm packages in one CommonJS
 * file, run by the launcher through a V8 code cache; issue #22 § Ready in under a second), started
 * as `make run` starts it and driven by stock kubectl 1.30. It makes its own bundle, and every in-process test runs the sources through tsx, so this one is what shows
 * that each bundled package still works bundled: Koa and its router (every request), node-forge
 * (the PKI made at first start, a CSR's validation), yaml (the admin kubeconfig, YAML answers),
 * ajv and cel-js with re2js (a CRD's schema and CEL rule), jose (a TokenRequest), prom-client
 * (/metrics), protobufjs (a protobuf answer), fast-json-patch (a JSON patch), pino (the log).
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import forge from 'node-forge';
import { EXT } from '../../lib/apiextensions/types.js';
import { CACHE_WRITE_DELAY_MS, codeCachePath } from '../../lib/cmd/code-cache.js';
import { PROTOBUF_MEDIA_TYPE, vendorGroup } from '../../lib/apis/vendor.js';
import { findKubectl, kubectl, kubectlOk } from '../framework/kubectl.js';
import { eventually } from '../framework/storage-contract.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/** A CRD whose schema and CEL rule the server compiles (ajv, cel-js; `matches` runs on re2js). */
const WIDGETS_CRD = {
  apiVersion: `${vendorGroup('apiextensions')}/v1`,
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.bundle.example.com' },
  spec: {
    group: 'bundle.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { size: { type: 'integer', minimum: 1 }, color: { type: 'string', maxLength: 20 } },
                [EXT.validations]: [
                  { rule: "self.color.matches('^[a-z]+$')", message: 'color must be lower-case letters' },
                  // cel-js parses `µs` with a regular expression that the bundle holds \u-escaped (hack/bundle.sh).
                  { rule: "duration('1500\u00b5s') == duration('1ms') + duration('500us')", message: 'durations in µs parse' },
                ],
              },
            },
          },
        },
      },
    ],
  },
};

/** A PEM certificate request for `CN=bundle-user`, made with node-forge. */
function certificateRequest(): string {
  const keys = forge.pki.rsa.generateKeyPair(1024);
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = keys.publicKey;
  csr.setSubject([{ name: 'commonName', value: 'bundle-user' }]);
  csr.sign(keys.privateKey, forge.md.sha256.create());
  return forge.pki.certificationRequestToPem(csr);
}

describe('the bundled command (hack/bundle.sh) with kubectl 1.30 (issue #22)', function () {
  this.timeout(180_000);
  let out: string;
  let server: ServerProcess;
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);
  const kIn = (stdin: string, ...args: string[]) => kubectlOk(server.kubeconfig, args, { stdin });

  before(async () => {
    findKubectl();
    // Inside the project, so that the packages left outside the bundle resolve from node_modules.
    await mkdir(path.join(ROOT, '.cache'), { recursive: true });
    out = await mkdtemp(path.join(ROOT, '.cache', 'bundle-e2e-'));
    await promisify(execFile)(path.join(ROOT, 'hack/bundle.sh'), [path.join(ROOT, 'lib/cmd'), out], { cwd: ROOT });
    server = await startServerProcess(['--console=false'], undefined, 90_000, path.join(out, 'orch-apiserver.mjs'));
  });
  after(async () => {
    if (server) expect(await server.stop()).to.equal(0);
    if (out) await rm(out, { recursive: true, force: true });
  });

  it('is ASCII, so that its start decodes it as one-byte text', async () => {
    const bytes = await readFile(path.join(out, 'bundle', 'orch-apiserver.cjs'));
    expect(bytes.findIndex((b) => b > 0x7f)).to.equal(-1);
  });

  it('holds no dynamic import(), which fails in functions compiled from its code cache (Node 20)', async () => {
    const source = await readFile(path.join(out, 'bundle', 'orch-apiserver.cjs'), 'latin1');
    expect(source.match(/\bimport\(/g) ?? []).to.deep.equal([]);
  });

  it('reports the commit, tree state and date of its build in /version, as kubectl version shows them', async () => {
    const git = async (...args: string[]) => (await promisify(execFile)('git', args, { cwd: ROOT })).stdout;
    const { serverVersion } = JSON.parse(await k('version', '-o', 'json')) as { serverVersion: Record<string, string> };
    expect(serverVersion.gitCommit).to.equal((await git('rev-parse', 'HEAD')).trim());
    expect(serverVersion.gitTreeState).to.equal((await git('status', '--porcelain')) === '' ? 'clean' : 'dirty');
    expect(serverVersion.buildDate).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.now() - Date.parse(serverVersion.buildDate!)).to.be.within(0, 3_600_000);
  });

  it('made its PKI and admin kubeconfig at first start, and logs through pino', () => {
    expect(server.log()).to.include('"wrote admin kubeconfig"');
  });

  it("names each log line's source file and line as the sources do, through the caller table beside it", async () => {
    const line = server.log().split('\n').find((l) => l.includes('"wrote admin kubeconfig"'))!;
    expect(line).to.match(/^I\d{4} [\d:.]+ +\d+ tls-material\.ts:\d+\] /);
    expect(server.log()).to.not.include('orch-apiserver.cjs:');
    expect((await readdir(path.join(out, 'bundle'))).filter((f) => !f.endsWith('.codecache')).sort()).to.deep.equal(['orch-apiserver.cjs', 'orch-apiserver.cjs.callers']);
  });

  it('creates, applies server-side, patches and reads a ConfigMap (YAML and protobuf answers too)', async () => {
    await kIn(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b1' }, data: { a: '1' } }), 'create', '-f', '-');
    await kIn('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b1\ndata:\n  b: "2"\n', 'apply', '--server-side', '--force-conflicts', '-f', '-');
    await k('patch', 'configmap', 'b1', '--type=json', '-p', '[{"op":"add","path":"/data/c","value":"3"}]');
    const cm = JSON.parse(await k('get', 'configmap', 'b1', '-o', 'json'));
    expect(cm.data).to.deep.equal({ a: '1', b: '2', c: '3' });
    const yaml = await server.admin.get('/api/v1/namespaces/default/configmaps/b1', { headers: { Accept: 'application/yaml' } });
    expect(yaml.status).to.equal(200);
    expect(yaml.text).to.match(/^apiVersion: v1\ndata:\n {2}a: "1"\n/);
    const pb = await server.admin.get('/api/v1/namespaces/default/configmaps/b1', { headers: { Accept: PROTOBUF_MEDIA_TYPE } });
    expect(pb.status).to.equal(200);
    expect(pb.headers['content-type']).to.equal(PROTOBUF_MEDIA_TYPE);
    expect(pb.bytes.includes(Buffer.from('b1'))).to.equal(true);
  });

  it('serves a CRD whose schema and CEL rule validate its objects', async () => {
    await kIn(JSON.stringify(WIDGETS_CRD), 'create', '-f', '-');
    await k('wait', '--for=condition=Established', 'crd/widgets.bundle.example.com', '--timeout=30s');
    const widget = (color: string, size: number) => JSON.stringify({ apiVersion: 'bundle.example.com/v1', kind: 'Widget', metadata: { name: `w-${size}` }, spec: { color, size } });
    await kIn(widget('red', 1), 'create', '-f', '-');
    const bad = await kubectl(server.kubeconfig, ['create', '-f', '-'], { stdin: widget('Red', 2) });
    expect(bad.code).to.not.equal(0);
    expect(bad.stderr).to.include('color must be lower-case letters');
    const small = await kubectl(server.kubeconfig, ['create', '-f', '-'], { stdin: widget('red', 0) });
    expect(small.code).to.not.equal(0);
    expect(small.stderr).to.include('should be greater than or equal to 1');
  });

  it('issues a service-account token and validates a certificate signing request', async () => {
    const token = (await k('create', 'token', 'default')).trim();
    expect(token.split('.')).to.have.length(3);
    const csr = {
      apiVersion: `${vendorGroup('certificates')}/v1`,
      kind: 'CertificateSigningRequest',
      metadata: { name: 'bundle-user' },
      spec: { request: Buffer.from(certificateRequest()).toString('base64'), signerName: 'example.com/bundle', usages: ['client auth'] },
    };
    await kIn(JSON.stringify(csr), 'create', '-f', '-');
    const broken = { ...csr, metadata: { name: 'broken' }, spec: { ...csr.spec, request: Buffer.from('not a PEM block').toString('base64') } };
    const res = await kubectl(server.kubeconfig, ['create', '-f', '-'], { stdin: JSON.stringify(broken) });
    expect(res.code).to.not.equal(0);
    expect(res.stderr).to.include('spec.request');
  });

  it('writes its code cache beside the bundle after the start, and a start with that cache serves', async () => {
    const caches = async () => (await readdir(path.join(out, 'bundle'))).filter((f) => f.endsWith('.codecache'));
    await eventually(async () => (await caches()).length > 0, CACHE_WRITE_DELAY_MS + 20_000, 'a code cache beside the bundle');
    expect(await caches()).to.deep.equal([codeCachePath('orch-apiserver.cjs', await readFile(path.join(out, 'bundle', 'orch-apiserver.cjs')))]);
    const again = await startServerProcess(['--console=false'], undefined, 90_000, path.join(out, 'orch-apiserver.mjs'));
    try {
      expect(JSON.parse(await kubectlOk(again.kubeconfig, ['get', 'namespace', 'default', '-o', 'json'])).metadata.name).to.equal('default');
      // Its functions come compiled from the cache: the CPU profiler, loaded only now, still loads.
      const profile = await again.admin.get('/debug/pprof/profile?seconds=1');
      expect(profile.status, profile.text.slice(0, 300)).to.equal(200);
      expect(JSON.parse(profile.text)).to.include.keys('nodes', 'samples', 'startTime', 'endTime');
    } finally {
      expect(await again.stop()).to.equal(0);
    }
  });

  it('exports its metrics', async () => {
    const text = await k('get', '--raw', '/metrics');
    expect(text).to.match(/^apiserver_request_total\{.*verb="POST".*\} \d+$/m);
  });
});
