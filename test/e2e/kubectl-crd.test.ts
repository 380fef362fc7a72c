/**
 * kubectl 1.30 (unmodified) with a CustomResourceDefinition against the real server command
 * (issue #14): apply a CRD and wait for Established, then create, apply, get (printer columns),
 * scale, edit, explain and delete custom objects.
 */
import { expect } from 'chai';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findKubectl, kubectl, kubectlOk } from '../framework/kubectl.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

const MANIFEST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'manifests', 'crd-backups.yaml');

const backup = (name: string, schedule: string, extra = '') => `apiVersion: ops.example.org/v1
kind: Backup
metadata:
  name: ${name}
spec:
  schedule: "${schedule}"
${extra}`;

describe('kubectl with a custom resource definition (issue #14)', function () {
  this.timeout(120_000);
  let server: ServerProcess;
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);

  before(async () => {
    findKubectl();
    server = await startServerProcess();
  });
  after(async () => {
    if (server) expect(await server.stop()).to.equal(0);
  });

  it('applies the CRD and waits for it to be established', async () => {
    expect(await k('apply', '-f', MANIFEST)).to.equal('customresourcedefinition.apiextensions.orch.io/backups.ops.example.org created\n');
    expect(await k('wait', '--for=condition=established', '--timeout=30s', 'crd/backups.ops.example.org')).to.contain('condition met');
    expect(await k('get', 'crd', 'backups.ops.example.org', '-o', 'jsonpath={.status.acceptedNames.kind}')).to.equal('Backup');
  });

  it('creates and applies custom objects, shown with the printer columns', async () => {
    const created = await kubectlOk(server.kubeconfig, ['create', '-f', '-'], { stdin: backup('nightly', '0 2 * * *') });
    expect(created).to.equal('backup.ops.example.org/nightly created\n');
    const applied = await kubectlOk(server.kubeconfig, ['apply', '--server-side', '-f', '-'], { stdin: backup('hourly', '0 * * * *', '  workers: 2\n  retention: 7d\n') });
    expect(applied).to.equal('backup.ops.example.org/hourly serverside-applied\n');
    const table = await k('get', 'backups');
    const lines = table.trim().split('\n');
    expect(lines[0]).to.match(/^NAME\s+SCHEDULE\s+WORKERS\s+AGE$/);
    expect(lines[1]).to.match(/^hourly\s+0 \* \* \* \*\s+2\s+\d+s$/);
    expect(lines[2]).to.match(/^nightly\s+0 2 \* \* \*\s+1\s+\d+s$/);
    expect(await k('get', 'bk', 'hourly', '-o', 'jsonpath={.spec.retention}')).to.equal('7d');
  });

  it('refuses an invalid object with the schema message', async () => {
    const res = await kubectl(server.kubeconfig, ['create', '-f', '-'], { stdin: backup('bad', '* * * * *', '  workers: -1\n') });
    expect(res.code).to.not.equal(0);
    expect(res.stderr).to.contain('spec.workers: Invalid value: -1: spec.workers in body should be greater than or equal to 0');
  });

  it('scales through the scale subresource', async () => {
    expect(await k('scale', 'backup', 'nightly', '--replicas=4')).to.equal('backup.ops.example.org/nightly scaled\n');
    expect(await k('get', 'backup', 'nightly', '-o', 'jsonpath={.spec.workers} {.metadata.generation}')).to.equal('4 2');
  });

  it('edits an object in an editor', async () => {
    const previous = process.env.KUBE_EDITOR;
    process.env.KUBE_EDITOR = `sed -i s/0\\ 2\\ /0\\ 3\\ /`;
    try {
      expect(await k('edit', 'backup', 'nightly')).to.equal('backup.ops.example.org/nightly edited\n');
    } finally {
      if (previous === undefined) delete process.env.KUBE_EDITOR;
      else process.env.KUBE_EDITOR = previous;
    }
    expect(await k('get', 'backup', 'nightly', '-o', 'jsonpath={.spec.schedule}')).to.equal('0 3 * * *');
  });

  it('explains the kind and its fields from the published schema', async () => {
    const kind = await k('explain', 'backups');
    expect(kind).to.contain('KIND:       Backup');
    expect(kind).to.contain('A backup of a data volume taken on a schedule.');
    const field = await k('explain', 'backups.spec.schedule');
    expect(field).to.contain('When to run, in cron syntax.');
  });

  it('deletes objects, then the CRD with what is left', async () => {
    expect(await k('delete', 'backup', 'hourly')).to.equal('backup.ops.example.org "hourly" deleted\n');
    expect(await k('delete', '-f', MANIFEST, '--wait=true', '--timeout=60s')).to.equal('customresourcedefinition.apiextensions.orch.io "backups.ops.example.org" deleted\n');
    const res = await kubectl(server.kubeconfig, ['get', 'backups']);
    expect(res.code).to.not.equal(0);
    // kubectl still knows the resource from its discovery cache; the server no longer serves it.
    expect(res.stderr).to.contain('the server could not find the requested resource');
  });
});
