import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { findKubectl, kubectl } from '../framework/kubectl.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

const EXAMPLES = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../manifests/examples');
const example = (name: string) => path.join(EXAMPLES, name);

describe('kubectl 1.30 against the real server command (issue #2 item 12)', function () {
  this.timeout(120_000);
  let server: ServerProcess;
  const k = async (...args: string[]) => {
    const res = await kubectl(server.kubeconfig, args);
    if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${res.code}): ${res.stderr}`);
    return res.stdout;
  };

  let dataDir: string;

  before(async () => {
    findKubectl();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'orch-e2e-'));
    server = await startServerProcess([], dataDir);
  });
  after(async () => {
    if (server) expect(await server.stop()).to.equal(0);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates the example manifests', async () => {
    expect(await k('create', '--validate=false', '-f', example('namespace.yaml'))).to.equal('namespace/shop created\n');
    const out = await k('create', '--validate=false', '-f', example('configmap.yaml'), '-f', example('secret.yaml'), '-f', example('deployment.yaml'), '-f', example('service.yaml'), '-f', example('pod.yaml'));
    expect(out.trim().split('\n')).to.deep.equal([
      'configmap/web-config created',
      'secret/web-credentials created',
      'deployment.apps/web created',
      'service/web created',
      'pod/debug created',
    ]);
  });

  it('lists every advertised resource with api-resources (fails if any group version fails)', async () => {
    const out = await k('api-resources');
    const names = out.trim().split('\n').slice(1).map((l) => l.split(/\s+/)[0]);
    expect(names).to.include.members(['pods', 'deployments', 'jobs', 'cronjobs', 'leases', 'roles', 'clusterrolebindings']);
  });

  it('gets the "all" category', async () => {
    const out = await k('get', 'all', '-n', 'shop', '-o', 'name');
    expect(out.trim().split('\n').sort()).to.deep.equal(['deployment.apps/web', 'pod/debug', 'service/web']);
  });

  it('gets objects in the default format', async () => {
    const out = await k('get', 'configmaps', '-n', 'shop');
    const lines = out.trim().split('\n');
    expect(lines[0]).to.match(/^NAME\s+/);
    expect(lines.some((l) => l.startsWith('web-config '))).to.equal(true);
  });

  it('gets an object as JSON with server-filled metadata and defaults', async () => {
    const dep = JSON.parse(await k('get', 'deployment', 'web', '-n', 'shop', '-o', 'json'));
    expect(dep.kind).to.equal('Deployment');
    expect(dep.metadata.uid).to.be.a('string');
    expect(dep.metadata.generation).to.equal(1);
    expect(dep.spec.progressDeadlineSeconds).to.equal(600);
    expect(dep.spec.revisionHistoryLimit).to.equal(10);
    expect(dep.spec.strategy).to.deep.equal({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
    const c = dep.spec.template.spec.containers[0];
    expect(c.imagePullPolicy).to.equal('IfNotPresent');
    expect(c.terminationMessagePath).to.equal('/dev/termination-log');
    expect(dep.spec.template.spec.restartPolicy).to.equal('Always');
  });

  it('gets an object as YAML', async () => {
    const out = await k('get', 'secret', 'web-credentials', '-n', 'shop', '-o', 'yaml');
    expect(out).to.match(/^apiVersion: v1\n/);
    expect(out).to.include('kind: Secret');
    expect(out).to.include('username: c2hvcGtlZXBlcg==');
    expect(out).to.include('password: czNjcjN0');
    expect(out).to.not.include('stringData');
  });

  it('selects by label', async () => {
    const out = await k('get', 'configmaps,secrets,services', '-n', 'shop', '-l', 'app=web', '-o', 'name');
    expect(out.trim().split('\n').sort()).to.deep.equal(['configmap/web-config', 'secret/web-credentials', 'service/web']);
    expect(await k('get', 'pods', '-n', 'shop', '-l', 'app=web', '-o', 'name')).to.equal('');
  });

  it('replaces an object from a file', async () => {
    const cm = JSON.parse(await k('get', 'configmap', 'web-config', '-n', 'shop', '-o', 'json'));
    cm.data.LOG_LEVEL = 'debug';
    const child = spawn(findKubectl(), ['--kubeconfig', server.kubeconfig, 'replace', '--validate=false', '-f', '-']);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stdin.end(JSON.stringify(cm));
    await new Promise((resolve) => child.once('exit', resolve));
    expect(out).to.equal('configmap/web-config replaced\n');
    expect(await k('get', 'configmap', 'web-config', '-n', 'shop', '-o', 'jsonpath={.data.LOG_LEVEL}')).to.equal('debug');
  });

  it('patches with --type merge and --type json', async () => {
    expect(await k('patch', 'configmap', 'web-config', '-n', 'shop', '--type', 'merge', '-p', '{"data":{"FEATURE":"on"}}')).to.equal('configmap/web-config patched\n');
    expect(await k('patch', 'service', 'web', '-n', 'shop', '--type', 'json', '-p', '[{"op":"replace","path":"/spec/ports/0/port","value":8080}]')).to.equal('service/web patched\n');
    expect(await k('get', 'configmap', 'web-config', '-n', 'shop', '-o', 'jsonpath={.data.FEATURE}')).to.equal('on');
    expect(await k('get', 'service', 'web', '-n', 'shop', '-o', 'jsonpath={.spec.ports[0].port}')).to.equal('8080');
  });

  it('sees a change with get -w', async () => {
    const child = spawn(findKubectl(), ['--kubeconfig', server.kubeconfig, 'get', 'configmap', 'web-config', '-n', 'shop', '-w', '-o', 'jsonpath={.data.WATCHED}{"\\n"}']);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await sleep(1000);
      await k('patch', 'configmap', 'web-config', '-n', 'shop', '--type', 'merge', '-p', '{"data":{"WATCHED":"seen"}}');
      const deadline = Date.now() + 15_000;
      while (!out.includes('seen') && Date.now() < deadline) await sleep(100);
      expect(out).to.include('seen');
    } finally {
      child.kill();
    }
  });

  it('deletes an object and waits for it to be gone', async () => {
    expect(await k('delete', 'pod', 'debug', '-n', 'shop')).to.equal('pod "debug" deleted\n');
    const res = await kubectl(server.kubeconfig, ['get', 'pod', 'debug', '-n', 'shop']);
    expect(res.code).to.not.equal(0);
    expect(res.stderr).to.include('Error from server (NotFound): pods "debug" not found');
  });

  it('deletes a namespace with all its contents', async () => {
    expect(await k('delete', 'namespace', 'shop')).to.equal('namespace "shop" deleted\n');
    expect(await k('get', 'namespaces', '-o', 'name')).to.not.include('namespace/shop');
    for (const kind of ['configmaps', 'secrets', 'deployments', 'services']) {
      expect(await k('get', kind, '-A', '-o', 'name'), kind).to.not.include('web');
    }
  });

  it('keeps every object across a restart of the command', async () => {
    await k('create', 'configmap', 'survivor', '--from-literal=k=v');
    expect(await server.stop()).to.equal(0);
    server = await startServerProcess([], dataDir);
    expect(await k('get', 'configmap', 'survivor', '-o', 'jsonpath={.data.k}')).to.equal('v');
  });
});
