/**
 * `kubectl delete --cascade=background|foreground|orphan` with the real kubectl 1.30 against a
 * server running the garbage collector (issue #12 item 3): owners are ConfigMaps, dependents
 * Secrets that name them in `ownerReferences`.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { kubectl, kubectlOk } from '../framework/kubectl.js';
import { type TestServer, startTestServer } from '../framework/test-server.js';

describe('kubectl delete --cascade (issue #12 item 3)', function () {
  this.timeout(60_000);
  let server: TestServer;
  const NS = 'cascade';

  before(async () => {
    server = await startTestServer({ controllers: ['garbagecollector'] });
    await kubectlOk(server.kubeconfig, ['create', 'namespace', NS]);
  });
  after(async () => server?.stop());

  /** An owner ConfigMap and a dependent Secret naming it (blocking the owner's deletion). */
  async function family(name: string): Promise<void> {
    await kubectlOk(server.kubeconfig, ['-n', NS, 'create', 'configmap', name]);
    const uid = (await kubectlOk(server.kubeconfig, ['-n', NS, 'get', 'configmap', name, '-o', 'jsonpath={.metadata.uid}'])).trim();
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `${name}-dep`, namespace: NS, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name, uid, blockOwnerDeletion: true }] },
    };
    await kubectlOk(server.kubeconfig, ['create', '-f', '-'], { stdin: JSON.stringify(secret) });
  }
  const exists = async (kind: string, name: string) => (await kubectl(server.kubeconfig, ['-n', NS, 'get', kind, name])).code === 0;
  async function until(what: string, check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 50 && !(await check()); i++) await sleep(100);
    expect(await check(), what).to.equal(true);
  }

  it('background (the default): the owner goes at once, the dependent after it', async () => {
    await family('bg');
    const out = await kubectlOk(server.kubeconfig, ['-n', NS, 'delete', 'configmap', 'bg', '--cascade=background']);
    expect(out.trim()).to.equal('configmap "bg" deleted');
    await until('dependent deleted', async () => !(await exists('secret', 'bg-dep')));
  });

  it('foreground: kubectl --wait returns once owner and dependent are gone', async () => {
    await family('fg');
    const out = await kubectlOk(server.kubeconfig, ['-n', NS, 'delete', 'configmap', 'fg', '--cascade=foreground', '--wait=true', '--timeout=20s']);
    expect(out.trim()).to.equal('configmap "fg" deleted');
    expect(await exists('configmap', 'fg')).to.equal(false);
    expect(await exists('secret', 'fg-dep')).to.equal(false);
  });

  it('orphan: the dependent stays, without its owner reference', async () => {
    await family('or');
    const out = await kubectlOk(server.kubeconfig, ['-n', NS, 'delete', 'configmap', 'or', '--cascade=orphan', '--wait=true', '--timeout=20s']);
    expect(out.trim()).to.equal('configmap "or" deleted');
    expect(await exists('configmap', 'or')).to.equal(false);
    const refs = await kubectlOk(server.kubeconfig, ['-n', NS, 'get', 'secret', 'or-dep', '-o', 'jsonpath={.metadata.ownerReferences}']);
    expect(refs.trim()).to.equal('');
  });
});
