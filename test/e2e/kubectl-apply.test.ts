import { expect } from 'chai';
import path from 'node:path';
import { findKubectl, kubectlOk } from '../framework/kubectl.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

const MANIFESTS = path.resolve(path.dirname(new URL(import.meta.url).pathname), 'manifests');

describe('kubectl 1.30 apply (client-side, strategic merge) and patch --type strategic (issue #5 items 1 and 7)', function () {
  this.timeout(120_000);
  let server: ServerProcess;
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);
  const deployment = async () => JSON.parse(await k('get', 'deployment', 'shop-api', '-o', 'json'));

  before(async () => {
    findKubectl();
    server = await startServerProcess();
  });
  after(async () => {
    if (server) await server.stop();
  });

  it('creates with apply and records the last-applied configuration', async () => {
    expect(await k('apply', '--validate=false', '-f', path.join(MANIFESTS, 'apply-v1.yaml'))).to.equal('deployment.apps/shop-api created\n');
    const d = await deployment();
    expect(d.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).to.include('"name":"shop-api"');
  });

  it('re-applies with a container added, an env var removed and a port changed, as upstream merges it', async () => {
    await k('patch', 'deployment', 'shop-api', '--type', 'merge', '-p', '{"spec":{"template":{"metadata":{"annotations":{"owner":"ops"}}}}}');
    expect(await k('apply', '--validate=false', '-f', path.join(MANIFESTS, 'apply-v2.yaml'))).to.equal('deployment.apps/shop-api configured\n');
    const d = await deployment();
    const containers = d.spec.template.spec.containers;
    expect(containers.map((c: { name: string }) => c.name)).to.deep.equal(['api', 'metrics']);
    expect(containers[0].env).to.deep.equal([{ name: 'MODE', value: 'production' }]);
    expect(containers[0].ports).to.deep.equal([{ containerPort: 9090, name: 'http', protocol: 'TCP' }]);
    expect(containers[1].ports).to.deep.equal([{ containerPort: 9100, name: 'metrics', protocol: 'TCP' }]);
    expect(containers[0].imagePullPolicy).to.equal('IfNotPresent');
    expect(d.spec.template.metadata.annotations).to.deep.equal({ owner: 'ops' });
    expect(d.metadata.generation).to.equal(3);
  });

  it('patches with --type strategic (the default patch type)', async () => {
    await k('patch', 'deployment', 'shop-api', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"metrics","image":"registry.example.com/shop/metrics-sidecar:1.2"}]}}}}');
    const d = await deployment();
    expect(d.spec.template.spec.containers.map((c: { name: string; image: string }) => `${c.name}=${c.image}`)).to.deep.equal([
      'api=registry.example.com/shop/api:2.0.0',
      'metrics=registry.example.com/shop/metrics-sidecar:1.2',
    ]);
  });

  it('labels and annotates through merge patches', async () => {
    await k('label', 'deployment', 'shop-api', 'tier=backend');
    await k('annotate', 'deployment', 'shop-api', 'note=hello');
    const d = await deployment();
    expect(d.metadata.labels).to.deep.equal({ app: 'shop-api', tier: 'backend' });
    expect(d.metadata.annotations.note).to.equal('hello');
  });
});
