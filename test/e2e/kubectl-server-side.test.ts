import { expect } from 'chai';
import { findKubectl, kubectl } from '../framework/kubectl.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

const manifest = (replicas: number, image: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ssa-web
  namespace: default
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: ssa-web
  template:
    metadata:
      labels:
        app: ssa-web
    spec:
      containers:
        - name: web
          image: ${image}
`;

describe('kubectl 1.30 server-side apply, conflicts, --force-conflicts and --dry-run=server (issue #5 item 7)', function () {
  this.timeout(120_000);
  let server: ServerProcess;

  /** Runs kubectl with `stdin` as the manifest (`-f -`). */
  const withStdin = (args: string[], stdin: string) => kubectl(server.kubeconfig, args, { stdin });
  const get = async (jsonpath: string) => (await kubectl(server.kubeconfig, ['get', 'deployment', 'ssa-web', '-o', `jsonpath=${jsonpath}`])).stdout;

  before(async () => {
    findKubectl();
    server = await startServerProcess();
  });
  after(async () => {
    if (server) await server.stop();
  });

  it('creates with --server-side and records kubectl as an Apply manager', async () => {
    const res = await withStdin(['apply', '--server-side', '-f', '-'], manifest(2, 'nginx:1.25'));
    expect(res.stderr).to.equal('');
    expect(res.stdout).to.equal('deployment.apps/ssa-web serverside-applied\n');
    expect(await get('{.metadata.managedFields[0].manager}/{.metadata.managedFields[0].operation}')).to.equal('kubectl/Apply');
  });

  it('reports a conflict when another manager applies a different value', async () => {
    const res = await withStdin(['apply', '--server-side', '--field-manager=team-b', '-f', '-'], manifest(5, 'nginx:1.25'));
    expect(res.code).to.not.equal(0);
    expect(res.stderr).to.include('Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
    expect(await get('{.spec.replicas}')).to.equal('2');
  });

  it('takes the field with --force-conflicts', async () => {
    const res = await withStdin(['apply', '--server-side', '--field-manager=team-b', '--force-conflicts', '-f', '-'], manifest(5, 'nginx:1.25'));
    expect(res.code).to.equal(0);
    expect(await get('{.spec.replicas}')).to.equal('5');
  });

  it('changes nothing with --dry-run=server', async () => {
    const res = await withStdin(['apply', '--server-side', '--force-conflicts', '--dry-run=server', '-f', '-'], manifest(9, 'nginx:1.26'));
    expect(res.code).to.equal(0);
    expect(res.stdout).to.equal('deployment.apps/ssa-web serverside-applied (server dry run)\n');
    expect(await get('{.spec.replicas} {.spec.template.spec.containers[0].image}')).to.equal('5 nginx:1.25');
  });

  it('dry-runs create and delete on the server', async () => {
    const create = await kubectl(server.kubeconfig, ['create', 'configmap', 'dry', '--from-literal=a=b', '--dry-run=server']);
    expect(create.stdout).to.equal('configmap/dry created (server dry run)\n');
    expect((await kubectl(server.kubeconfig, ['get', 'configmap', 'dry'])).code).to.not.equal(0);
    const del = await kubectl(server.kubeconfig, ['delete', 'deployment', 'ssa-web', '--dry-run=server']);
    expect(del.stdout).to.equal('deployment.apps "ssa-web" deleted (server dry run)\n');
    expect(await get('{.metadata.name}')).to.equal('ssa-web');
  });
});
