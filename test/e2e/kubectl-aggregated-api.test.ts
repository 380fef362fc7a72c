/**
 * The aggregation layer through the real server command (issue #20 capability 1; spec 001
 * § Authenticating proxy flags): `--proxy-client-cert-file`/`--proxy-client-key-file` are read
 * and presented to an extension server that accepts nothing else, and a stock kubectl 1.30
 * waits for the APIService to be Available, finds the resource in discovery and lists it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ExtensionAPIServer, WARDLE_APISERVICE, WARDLE_GROUP, WARDLE_NAMESPACE, WARDLE_SERVICE, nonLoopbackIPv4, registerWardle } from '../framework/extension-apiserver.js';
import { findKubectl, kubectlOk } from '../framework/kubectl.js';
import { type ProxyPKI, createProxyPKI } from '../framework/proxy-pki.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

describe('kubectl with an aggregated API (issue #20)', function () {
  this.timeout(120_000);
  let pki: ProxyPKI;
  let ext: ExtensionAPIServer;
  let server: ServerProcess;
  let dir: string;

  before(async () => {
    findKubectl();
    const ip = nonLoopbackIPv4();
    pki = await createProxyPKI(['front-proxy-client']);
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-aggregator-e2e-'));
    const id = pki.identities['front-proxy-client']!;
    await writeFile(path.join(dir, 'proxy.crt'), id.cert);
    await writeFile(path.join(dir, 'proxy.key'), id.key);
    ext = await ExtensionAPIServer.start(ip, `${WARDLE_SERVICE}.${WARDLE_NAMESPACE}.svc`, pki.caPem, ['front-proxy-client']);
    server = await startServerProcess([
      `--requestheader-client-ca-file=${pki.caFile}`,
      '--requestheader-allowed-names=front-proxy-client',
      '--requestheader-username-headers=X-Remote-User',
      '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      `--proxy-client-cert-file=${path.join(dir, 'proxy.crt')}`,
      `--proxy-client-key-file=${path.join(dir, 'proxy.key')}`,
    ]);
    await registerWardle(server.admin, ext, ip);
  });
  after(async () => {
    if (server) expect(await server.stop()).to.equal(0);
    await ext?.stop();
    await pki?.remove();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('waits for the APIService to be Available, then lists flunders through the proxy client certificate', async () => {
    const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);
    expect(await k('wait', '--for=condition=Available', '--timeout=60s', `apiservice/${WARDLE_APISERVICE}`)).to.contain('condition met');
    const out = await k('get', 'flunders', '-n', WARDLE_NAMESPACE, '-o', 'name');
    expect(out).to.equal('flunder.wardle.example.com/first\nflunder.wardle.example.com/second\n');
    expect(await k('api-resources', `--api-group=${WARDLE_GROUP}`, '--no-headers')).to.match(/^flunders\s+fl\s+wardle\.example\.com\/v1alpha1\s+true\s+Flunder\n$/);
    const seen = ext.requests.filter((r) => r.url.includes('/flunders'));
    expect(seen.length).to.be.greaterThan(0);
    expect(new Set(seen.map((r) => r.clientCN))).to.deep.equal(new Set(['front-proxy-client']));
  });
});
