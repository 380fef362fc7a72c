/**
 * `kubectl scale` (kubectl 1.30, unmodified) against the real server command: it reads the
 * Deployment, then writes `deployments/<name>/scale` (issue #12 item 1).
 */
import { expect } from 'chai';
import { findKubectl, kubectl, kubectlOk } from '../framework/kubectl.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
  },
};

describe('kubectl scale against the real server command (issue #12 item 1)', function () {
  this.timeout(120_000);
  let server: ServerProcess;
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);

  before(async () => {
    findKubectl();
    server = await startServerProcess();
    await kubectlOk(server.kubeconfig, ['create', '-f', '-'], { stdin: JSON.stringify(DEPLOYMENT) });
  });
  after(async () => {
    if (server) expect(await server.stop()).to.equal(0);
  });

  it('scales a deployment and the new replicas show on the deployment', async () => {
    expect(await k('scale', 'deployment', 'web', '--replicas=3')).to.equal('deployment.apps/web scaled\n');
    expect(await k('get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas} {.metadata.generation}')).to.equal('3 2');
  });

  it('honours --current-replicas as a precondition', async () => {
    const res = await kubectl(server.kubeconfig, ['scale', 'deployment', 'web', '--current-replicas=5', '--replicas=1']);
    expect(res.code).to.not.equal(0);
    expect(res.stderr).to.include('Expected replicas to be 5, was 3');
    expect(await k('get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}')).to.equal('3');
  });

  it('reads the Scale through get --subresource', async () => {
    const scale = JSON.parse(await k('get', 'deployment', 'web', '--subresource=scale', '-o', 'json'));
    expect(scale).to.include({ kind: 'Scale', apiVersion: 'autoscaling/v1' });
    expect(scale.spec).to.deep.equal({ replicas: 3 });
    expect(scale.status).to.deep.equal({ replicas: 0, selector: 'app=web' });
  });

  it('records kubectl as the manager of the replicas through the scale subresource', async () => {
    const entries = JSON.parse(await k('get', 'deployment', 'web', '--show-managed-fields', '-o', 'jsonpath={.metadata.managedFields}')) as Array<Record<string, unknown>>;
    const scale = entries.find((e) => e.subresource === 'scale')!;
    // The manager is kubectl's User-Agent up to its first `/`: the binary's name (`kubectl.1.30`).
    expect(String(scale.manager)).to.match(/^kubectl/);
    expect(scale).to.deep.include({ operation: 'Update', apiVersion: 'apps/v1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
  });

  it('refuses negative replicas (kubectl checks them before asking the server)', async () => {
    const res = await kubectl(server.kubeconfig, ['scale', 'deployment', 'web', '--replicas=-1']);
    expect(res.code).to.not.equal(0);
    expect(res.stderr).to.include('--replicas');
  });
});
