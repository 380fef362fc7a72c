/**
 * `kubectl auth can-i` (kubectl 1.30, unmodified) against a real server (issue #11 item 9): it
 * asks SelfSubjectAccessReview through the upstream alias of the authorization group, `--list`
 * asks SelfSubjectRulesReview, and `--as` impersonates through the real authorizers.
 */
import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse, stringify } from 'yaml';
import { findKubectl, kubectl, kubectlOk } from '../framework/kubectl.js';
import { useTestServer } from '../framework/test-server.js';

const NS = 'can-i';
const RBAC = '/apis/rbac.authorization.orch.io/v1';

/** A copy of `kubeconfig` whose user authenticates with `token` instead of the admin certificate. */
async function tokenKubeconfig(kubeconfig: string, token: string): Promise<string> {
  const doc = parse(await readFile(kubeconfig, 'utf8')) as { users: Array<{ user: Record<string, string> }> };
  doc.users[0]!.user = { token };
  const file = path.join(path.dirname(kubeconfig), `${token}.kubeconfig`);
  await writeFile(file, stringify(doc), { mode: 0o600 });
  return file;
}

describe('kubectl auth can-i (issue #11 item 9; spec 001 § Access-review resources)', function () {
  this.timeout(120_000);
  const server = useTestServer({ tokens: 'alice-token,alice,uid-alice,devs' });
  let alice: string;

  before(async () => {
    findKubectl();
    const admin = server().admin;
    expect((await admin.post('/api/v1/namespaces', { metadata: { name: NS } })).status).to.equal(201);
    const role = { metadata: { name: 'pods-reader' }, rules: [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] }] };
    expect((await admin.post(`${RBAC}/namespaces/${NS}/roles`, role)).status).to.equal(201);
    const binding = { metadata: { name: 'alice' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'pods-reader' }, subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: 'alice' }] };
    expect((await admin.post(`${RBAC}/namespaces/${NS}/rolebindings`, binding)).status).to.equal(201);
    alice = await tokenKubeconfig(server().kubeconfig, 'alice-token');
    for (let i = 0; i < 100 && (await admin.get(`/api/v1/namespaces/${NS}/pods`, { creds: { token: 'alice-token' } })).status !== 200; i++) await sleep(50);
  });

  it('answers yes to the admin', async () => {
    expect((await kubectlOk(server().kubeconfig, ['auth', 'can-i', 'create', 'pods'])).trim()).to.equal('yes');
    expect((await kubectlOk(server().kubeconfig, ['auth', 'can-i', '*', '*'])).trim()).to.equal('yes');
  });

  it('answers a token user yes for what its Role grants, no (exit 1) for the rest', async () => {
    expect((await kubectlOk(alice, ['auth', 'can-i', 'list', 'pods', '-n', NS])).trim()).to.equal('yes');
    expect((await kubectlOk(alice, ['auth', 'can-i', 'get', 'pods', '--subresource=log', '-n', NS])).trim()).to.equal('yes');
    const create = await kubectl(alice, ['auth', 'can-i', 'create', 'pods', '-n', NS]);
    expect([create.code, create.stdout.trim()]).to.deep.equal([1, 'no']);
    const elsewhere = await kubectl(alice, ['auth', 'can-i', 'list', 'pods', '-n', 'default']);
    expect([elsewhere.code, elsewhere.stdout.trim()]).to.deep.equal([1, 'no']);
  });

  it('checks non-resource URLs', async () => {
    expect((await kubectlOk(alice, ['auth', 'can-i', 'get', '/version'])).trim()).to.equal('yes');
    const metrics = await kubectl(alice, ['auth', 'can-i', 'get', '/metrics']);
    expect([metrics.code, metrics.stdout.trim()]).to.deep.equal([1, 'no']);
  });

  it('--list prints the rules of SelfSubjectRulesReview', async () => {
    const out = await kubectlOk(alice, ['auth', 'can-i', '--list', '-n', NS]);
    const rows = out.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
    expect(rows[0]).to.deep.equal(['Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs']);
    expect(rows).to.deep.include(['pods/log', '[]', '[]', '[get list]']);
    expect(rows).to.deep.include(['pods', '[]', '[]', '[get list]']);
    expect(rows).to.deep.include(['selfsubjectaccessreviews.authorization.orch.io', '[]', '[]', '[create]']);
    // Non-resource rows start with an empty Resources column (trimmed away here).
    expect(rows).to.deep.include(['[/version]', '[]', '[get]']);
  });

  it('--as impersonates through the real authorizers: the admin may, a plain user may not', async () => {
    expect((await kubectlOk(server().kubeconfig, ['auth', 'can-i', 'list', 'pods', '-n', NS, '--as', 'alice'])).trim()).to.equal('yes');
    const no = await kubectl(server().kubeconfig, ['auth', 'can-i', 'create', 'pods', '-n', NS, '--as', 'alice']);
    expect([no.code, no.stdout.trim()]).to.deep.equal([1, 'no']);
    const denied = await kubectl(alice, ['auth', 'can-i', 'list', 'pods', '-n', NS, '--as', 'bob']);
    expect(denied.code).to.not.equal(0);
    expect(denied.stderr).to.include('users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope');
  });
});
