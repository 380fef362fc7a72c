import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findKubectl, kubectl } from '../framework/kubectl.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

const manifest = (data: Record<string, string>) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: handover
  namespace: default
data:
${Object.entries(data)
  .map(([k, v]) => `  ${k}: "${v}"`)
  .join('\n')}
`;

interface Entry {
  manager: string;
  operation: string;
  fieldsV1: { 'f:data'?: Record<string, unknown> };
}

describe('kubectl 1.30: client-side apply, then --server-side, then client-side again (issue #23 item 5)', function () {
  this.timeout(120_000);
  let server: ServerProcess;
  let dir: string;
  let file: string;

  const applyFile = async (data: Record<string, string>, extra: string[] = []) => {
    await writeFile(file, manifest(data));
    return kubectl(server.kubeconfig, ['apply', ...extra, '-f', file]);
  };
  const live = async () => JSON.parse((await kubectl(server.kubeconfig, ['get', 'configmap', 'handover', '-o', 'json', '--show-managed-fields'])).stdout);

  before(async () => {
    findKubectl();
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-handover-'));
    file = path.join(dir, 'cm.yaml');
    server = await startServerProcess();
  });
  after(async () => {
    if (server) await server.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('kubectl apply -f creates it with the last-applied annotation', async () => {
    const res = await applyFile({ color: 'red', size: 'L', shape: 'round' });
    expect(res.stderr).to.equal('');
    expect(res.stdout).to.equal('configmap/handover created\n');
    const cm = await live();
    expect(JSON.parse(cm.metadata.annotations[LAST_APPLIED]).data).to.deep.equal({ color: 'red', size: 'L', shape: 'round' });
    expect(cm.metadata.managedFields.map((e: Entry) => `${e.manager}/${e.operation}`)).to.deep.equal(['kubectl-client-side-apply/Update']);
  });

  it('kubectl apply --server-side of the edited file succeeds and changes the value', async () => {
    const res = await applyFile({ color: 'blue', size: 'L', shape: 'round' }, ['--server-side']);
    expect(res.stderr).to.equal('');
    expect(res.code).to.equal(0);
    expect(res.stdout).to.equal('configmap/handover serverside-applied\n');
    const cm = await live();
    expect(cm.data).to.deep.equal({ color: 'blue', size: 'L', shape: 'round' });
    const last = JSON.parse(cm.metadata.annotations[LAST_APPLIED]);
    expect(last).to.deep.equal({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'handover', namespace: 'default' }, data: { color: 'blue', size: 'L', shape: 'round' } });
    expect(cm.metadata.annotations[LAST_APPLIED].endsWith('}\n')).to.equal(true);
    const kubectlEntry = (cm.metadata.managedFields as Entry[]).find((e) => e.manager === 'kubectl' && e.operation === 'Apply');
    expect(Object.keys(kubectlEntry!.fieldsV1['f:data']!).sort()).to.deep.equal(['f:color', 'f:shape', 'f:size']);
    // kubectl 1.30 then migrates client-side apply's entry into its own (csaupgrade, a JSON patch).
    expect((cm.metadata.managedFields as Entry[]).map((e) => e.manager)).to.not.include('kubectl-client-side-apply');
  });

  it('a later client-side kubectl apply -f works from the rewritten annotation and removes a dropped key', async () => {
    const res = await applyFile({ color: 'green', size: 'L' });
    expect(res.stderr).to.equal('');
    expect(res.stdout).to.equal('configmap/handover configured\n');
    const cm = await live();
    expect(cm.data).to.deep.equal({ color: 'green', size: 'L' });
    expect(JSON.parse(cm.metadata.annotations[LAST_APPLIED]).data).to.deep.equal({ color: 'green', size: 'L' });
  });
});
