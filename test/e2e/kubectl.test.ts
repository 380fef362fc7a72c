import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { deployment } from '../../lib/apis/apps/v1/deployment.js';
import { findKubectl, kubectl, kubectlOk } from '../framework/kubectl.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

const EXAMPLES = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../manifests/examples');
const example = (name: string) => path.join(EXAMPLES, name);

describe('kubectl 1.30 against the real server command (issue #2 item 12)', function () {
  this.timeout(120_000);
  let server: ServerProcess;
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);

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
    expect(await k('create', '-f', example('namespace.yaml'))).to.equal('namespace/shop created\n');
    const out = await k('create', '-f', example('configmap.yaml'), '-f', example('secret.yaml'), '-f', example('deployment.yaml'), '-f', example('service.yaml'), '-f', example('pod.yaml'));
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

  it('resolves a short name and a category of an aliased group once: no ambiguity warning, no object listed twice', async () => {
    await k('create', 'ingress', 'front', '-n', 'shop', '--rule=shop.example/=web:80');
    const ing = await kubectl(server.kubeconfig, ['get', 'ing', '-n', 'shop', '-o', 'name']);
    expect([ing.code, ing.stdout, ing.stderr]).to.deep.equal([0, 'ingress.networking.orch.io/front\n', '']);
    const ext = (await k('get', 'api-extensions', '-o', 'name')).trim().split('\n');
    expect(ext.length).to.be.greaterThan(10);
    expect(ext.every((n) => n.startsWith('apiservice.apiregistration.orch.io/'))).to.equal(true);
    await k('delete', 'ingress', 'front', '-n', 'shop');
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
    expect(await kubectlOk(server.kubeconfig, ['replace', '-f', '-'], { stdin: JSON.stringify(cm) })).to.equal('configmap/web-config replaced\n');
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

  describe('validation and explain from the served OpenAPI (issue #6 items 2, 3)', () => {
    const BOGUS = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: bogus, namespace: default}',
      'spec:',
      '  bogus: true',
      '  selector: {matchLabels: {app: bogus}}',
      '  template:',
      '    metadata: {labels: {app: bogus}}',
      '    spec: {containers: [{name: app, image: "nginx:1.25"}]}',
      '',
    ].join('\n');
    const words = (s: string) => s.replace(/\s+/g, ' ').trim();
    let manifest: string;
    before(async () => {
      manifest = path.join(dataDir, 'bogus-deployment.yaml');
      await writeFile(manifest, BOGUS);
    });

    it('rejects an unknown field by default (kubectl finds fieldValidation in /openapi/v3 and asks for Strict)', async () => {
      const res = await kubectl(server.kubeconfig, ['create', '-f', manifest, '-v=6']);
      expect(res.code).to.not.equal(0);
      expect(res.stderr).to.include(`Error from server (BadRequest): error when creating "${manifest}": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.bogus"`);
      expect(res.stderr).to.match(/GET https:\/\/\S+\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}\S* 200 OK/);
      expect(res.stderr).to.include('fieldValidation=Strict');
      expect(res.stderr).to.not.include('falling back to legacy');
      expect((await kubectl(server.kubeconfig, ['get', 'deployment', 'bogus', '-n', 'default'])).code).to.not.equal(0);
    });

    it('warns about an unknown field with --validate=warn and creates the object', async () => {
      const res = await kubectl(server.kubeconfig, ['create', '--validate=warn', '-f', manifest]);
      expect(res.code, res.stderr).to.equal(0);
      expect(res.stdout).to.equal('deployment.apps/bogus created\n');
      expect(res.stderr).to.include('Warning: unknown field "spec.bogus"');
      await k('delete', 'deployment', 'bogus', '-n', 'default');
    });

    it('refuses an unknown field in a server-side apply with upstream\'s typed-object text (as a 400), creating nothing', async () => {
      const res = await kubectl(server.kubeconfig, ['apply', '--server-side', '-f', manifest]);
      expect(res.code).to.not.equal(0);
      expect(res.stderr).to.include('Error from server (BadRequest): failed to create typed patch object (default/bogus; apps/v1, Kind=Deployment): .spec.bogus: field not declared in schema');
      expect((await kubectl(server.kubeconfig, ['get', 'deployment', 'bogus', '-n', 'default'])).code).to.not.equal(0);
    });

    it('explains pods.spec.containers with our descriptions and fields', async () => {
      const out = await k('explain', 'pods.spec.containers');
      expect(out).to.match(/^KIND:\s+Pod\nVERSION:\s+v1\n\nFIELD: containers <\[\]Container>/);
      expect(words(out)).to.include('The containers of the pod; at least one.');
      expect(out).to.match(/\n {2}name\t<string> -required-\n\s+DNS label, unique among all containers of the pod\./);
      expect(out).to.match(/\n {2}imagePullPolicy\t<string>\n {2}enum: Always, IfNotPresent, Never\n/);
      for (const f of ['image\t<string>', 'ports\t<[]ContainerPort>', 'resources\t<ResourceRequirements>', 'env\t<[]EnvVar>']) expect(out).to.include(`  ${f}`);
    });

    it('explains deployment with its group, description and fields', async () => {
      const out = await k('explain', 'deployment');
      expect(out).to.match(/^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n/);
      expect(words(out)).to.include(words(deployment.description!));
      for (const f of ['apiVersion\t<string>', 'kind\t<string>', 'metadata\t<ObjectMeta>', 'spec\t<DeploymentSpec>', 'status\t<DeploymentStatus>']) expect(out).to.include(`  ${f}`);
      const field = await k('explain', 'deployment.spec.strategy.rollingUpdate.maxSurge');
      expect(field).to.include('FIELD: maxSurge <IntOrString>');
      expect(words(field)).to.include('Pods that may be created above the desired count (number or percentage).');
    });

    it('explains from the protobuf /openapi/v2 too (--output=plaintext-openapiv2)', async () => {
      const res = await kubectl(server.kubeconfig, ['explain', 'pods.spec.containers.ports', '--output=plaintext-openapiv2', '-v=6']);
      expect(res.code, res.stderr).to.equal(0);
      expect(res.stderr).to.match(/GET https:\/\/\S+\/openapi\/v2\S* 200 OK/);
      expect(res.stdout).to.match(/RESOURCE: ports <\[\]Object>/);
      expect(res.stdout).to.match(/containerPort\t<integer> -required-/);
      expect(res.stdout).to.include('IANA service name, unique within the pod.');
    });
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
