/**
 * RBAC with the real kubectl 1.30 (spec 001 § RBAC mode; issue #11): the admin creates a Role and
 * RoleBindings for a user and a service account with `kubectl create role|rolebinding`, then each
 * test user runs allowed and forbidden commands with its own token and sees upstream's text —
 * including escalation refusals, which kubectl reaches through the upstream group spelling.
 */
import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { upstreamAlias, vendorGroup } from '../../lib/apis/vendor.js';
import { findKubectl, kubectl, kubectlOk } from '../framework/kubectl.js';
import { type TestServer, startTestServer } from '../framework/test-server.js';

const RBAC_ALIAS = upstreamAlias(vendorGroup('rbac.authorization'))!;

/** A kubeconfig for `server` authenticating with a bearer token. */
function tokenKubeconfig(server: TestServer, user: string, token: string): string {
  const ca = Buffer.from(server.admin.ca).toString('base64');
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: test\n  cluster:\n    server: ${server.url}\n    certificate-authority-data: ${ca}`,
    'users:',
    `- name: ${user}\n  user:\n    token: ${token}`,
    'contexts:',
    `- name: ${user}\n  context:\n    cluster: test\n    user: ${user}`,
    `current-context: ${user}`,
    '',
  ].join('\n');
}

describe('RBAC with kubectl 1.30 and test users (spec 001 § RBAC mode; issue #11)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let dir: string;
  const kc: Record<string, string> = {};
  const admin = (...args: string[]) => kubectlOk(server.kubeconfig, args);

  /** Retries `args` as `who` until it succeeds (a grant reaches the cache with its watch event). */
  async function eventually(who: string, args: string[]): Promise<string> {
    for (let i = 0; ; i++) {
      const res = await kubectl(kc[who]!, args);
      if (res.code === 0) return res.stdout;
      if (i > 50) throw new Error(`kubectl ${args.join(' ')} as ${who} still fails: ${res.stderr}`);
      await sleep(50);
    }
  }

  before(async () => {
    findKubectl();
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-kubectl-rbac-'));
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await writeFile(path.join(dir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await writeFile(path.join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
    server = await startTestServer({
      tokens: ['bob-token,bob,uid-bob,', 'carol-token,carol,uid-carol,qa'].join('\n'),
      authentication: {
        serviceAccountSigningKeyFile: path.join(dir, 'sa.key'),
        serviceAccountKeyFiles: [path.join(dir, 'sa.pub')],
        serviceAccountIssuers: ['https://kubectl-rbac.example'],
      },
    });
    await admin('create', 'namespace', 'team');
    await admin('create', 'serviceaccount', 'robot', '-n', 'team');
    const robotToken = (await admin('create', 'token', 'robot', '-n', 'team')).trim();
    for (const [who, token] of [['bob', 'bob-token'], ['carol', 'carol-token'], ['robot', robotToken]] as const) {
      kc[who] = path.join(dir, `${who}.kubeconfig`);
      await writeFile(kc[who]!, tokenKubeconfig(server, who, token));
    }
  });
  after(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('creates a Role and RoleBindings for a user and a service account', async () => {
    expect(await admin('create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods', '-n', 'team')).to.equal(`role.${RBAC_ALIAS}/pod-reader created\n`);
    expect(await admin('create', 'rolebinding', 'bob-pods', '--role=pod-reader', '--user=bob', '-n', 'team')).to.equal(`rolebinding.${RBAC_ALIAS}/bob-pods created\n`);
    expect(await admin('create', 'rolebinding', 'robot-pods', '--role=pod-reader', '--serviceaccount=team:robot', '-n', 'team')).to.equal(
      `rolebinding.${RBAC_ALIAS}/robot-pods created\n`,
    );
    expect(await admin('create', 'clusterrolebinding', 'qa-view-pods', '--clusterrole=qa-pods', '--group=qa')).to.equal(
      `clusterrolebinding.${RBAC_ALIAS}/qa-view-pods created\n`,
    );
    expect(await admin('create', 'clusterrole', 'qa-pods', '--verb=list', '--resource=pods')).to.equal(`clusterrole.${RBAC_ALIAS}/qa-pods created\n`);
  });

  it('lets the user and the service account list pods where bound', async () => {
    for (const who of ['bob', 'robot']) {
      await eventually(who, ['get', 'pods', '-n', 'team']);
      const res = await kubectl(kc[who]!, ['get', 'pods', '-n', 'team']);
      expect(res.code).to.equal(0);
      expect(res.stderr).to.equal('No resources found in team namespace.\n');
    }
  });

  it('lets a group member list pods in every namespace through a ClusterRoleBinding', async () => {
    await eventually('carol', ['get', 'pods', '-A']);
    expect((await kubectl(kc.carol!, ['get', 'pods', '-n', 'default'])).code).to.equal(0);
  });

  it('answers kubectl auth can-i for the user and the service account', async () => {
    const canI = async (who: string, ...args: string[]) => {
      const res = await kubectl(kc[who]!, ['auth', 'can-i', ...args]);
      return `${res.code} ${res.stdout.trim()}`;
    };
    expect(await canI('bob', 'list', 'pods', '-n', 'team')).to.equal('0 yes');
    expect(await canI('bob', 'delete', 'pods', '-n', 'team')).to.equal('1 no');
    expect(await canI('robot', 'watch', 'pods', '-n', 'team')).to.equal('0 yes');
    expect(await canI('robot', 'list', 'secrets', '-n', 'team')).to.equal('1 no');
    expect(await canI('carol', 'list', 'pods', '-A')).to.equal('0 yes');
  });

  it('refuses other namespaces, resources and verbs with upstream text', async () => {
    const cases: [string, string[], string][] = [
      ['bob', ['get', 'pods', '-n', 'default'], 'Error from server (Forbidden): pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default"'],
      ['bob', ['get', 'secrets', '-n', 'team'], 'Error from server (Forbidden): secrets is forbidden: User "bob" cannot list resource "secrets" in API group "" in the namespace "team"'],
      [
        'robot',
        ['delete', 'pod', 'x', '-n', 'team'],
        'Error from server (Forbidden): pods "x" is forbidden: User "system:serviceaccount:team:robot" cannot delete resource "pods" in API group "" in the namespace "team"',
      ],
      ['robot', ['get', 'namespaces'], 'Error from server (Forbidden): namespaces is forbidden: User "system:serviceaccount:team:robot" cannot list resource "namespaces" in API group "" at the cluster scope'],
      ['carol', ['delete', 'pod', 'x', '-n', 'team'], 'Error from server (Forbidden): pods "x" is forbidden: User "carol" cannot delete resource "pods" in API group "" in the namespace "team"'],
    ];
    for (const [who, args, text] of cases) {
      const res = await kubectl(kc[who]!, args);
      expect(res.code, `${who} ${args.join(' ')}`).to.equal(1);
      expect(res.stderr.trim(), `${who} ${args.join(' ')}`).to.equal(text);
    }
  });

  it('refuses a role with more than the user holds, and a binding of a role it cannot bind', async () => {
    await admin('create', 'role', 'rbac-editor', `--verb=create,get,list`, `--resource=roles.${RBAC_ALIAS},rolebindings.${RBAC_ALIAS}`, '-n', 'team');
    await admin('create', 'rolebinding', 'bob-rbac', '--role=rbac-editor', '--user=bob', '-n', 'team');
    await eventually('bob', ['get', 'roles', '-n', 'team']);

    expect(await kubectlOk(kc.bob!, ['create', 'role', 'pods-too', '--verb=get', '--resource=pods', '-n', 'team'])).to.equal(`role.${RBAC_ALIAS}/pods-too created\n`);
    const role = await kubectl(kc.bob!, ['create', 'role', 'sneaky', '--verb=get', '--resource=secrets', '-n', 'team']);
    expect(role.code).to.equal(1);
    expect(role.stderr.trim()).to.equal(
      `Error from server (Forbidden): roles.${RBAC_ALIAS} "sneaky" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n` +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
    );
    const binding = await kubectl(kc.bob!, ['create', 'rolebinding', 'bob-admin', '--clusterrole=qa-pods', '--user=bob', '-n', 'team']);
    expect(binding.code).to.equal(0, 'qa-pods (list pods) is covered by what bob holds in team');
    const escalated = await kubectl(kc.bob!, ['create', 'rolebinding', 'bob-rbac-too', '--role=rbac-editor', '--user=carol', '-n', 'team']);
    expect(escalated.code).to.equal(0, 'bob holds rbac-editor himself');
    await admin('create', 'clusterrole', 'secret-reader', '--verb=get', '--resource=secrets');
    const denied = await kubectl(kc.bob!, ['create', 'rolebinding', 'bob-secrets', '--clusterrole=secret-reader', '--user=bob', '-n', 'team']);
    expect(denied.code).to.equal(1);
    expect(denied.stderr.trim()).to.equal(
      `error: failed to create rolebinding: rolebindings.${RBAC_ALIAS} "bob-secrets" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n` +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
    );
  });
});
