/**
 * RBAC against a real server (spec 001 § RBAC mode; issue #11 items 4 and 5): the authorization
 * matrix over static-token users, a group and a real service-account token; grants taking effect
 * and being revoked within a watch event; escalation prevention; path tricks.
 */
import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { upstreamAlias, vendorGroup } from '../../../lib/apis/vendor.js';
import type { TestClient, TestResponse } from '../../framework/client.js';
import { rawGet } from '../../framework/raw-https.js';
import { type TestServer, startTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const RBAC = vendorGroup('rbac.authorization');
const RBAC_ALIAS = upstreamAlias(RBAC)!;
const RBAC_V1 = `/apis/${RBAC}/v1`;
const ISSUER = 'https://rbac-test.example';

const TOKENS = [
  'alice-token,alice,uid-alice,"system:masters"',
  'bob-token,bob,uid-bob,devs',
  'carol-token,carol,uid-carol,qa',
  'eve-token,eve,uid-eve,',
  'dan-token,dan,uid-dan,',
  'frank-token,frank,uid-frank,',
].join('\n');

const role = (namespace: string, name: string, rules: object[]) => ({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { namespace, name }, rules });
const clusterRole = (name: string, rules: object[], extra: object = {}) => ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules, ...extra });
const user = (name: string) => ({ kind: 'User', apiGroup: RBAC, name });
const group = (name: string) => ({ kind: 'Group', apiGroup: RBAC, name });
const roleBinding = (namespace: string, name: string, ref: { kind: string; name: string }, subjects: object[]) => ({
  apiVersion: `${RBAC}/v1`,
  kind: 'RoleBinding',
  metadata: { namespace, name },
  roleRef: { apiGroup: RBAC, ...ref },
  subjects,
});
const clusterRoleBinding = (name: string, ref: { kind: string; name: string }, subjects: object[]) => ({
  apiVersion: `${RBAC}/v1`,
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: RBAC, ...ref },
  subjects,
});

async function created(p: Promise<TestResponse>): Promise<void> {
  const res = await p;
  expect(res.status, res.text).to.equal(201);
}

/** Polls `probe` every 20 ms until it answers `status`; returns the milliseconds it took. */
async function until(probe: () => Promise<TestResponse>, status: (s: number) => boolean, timeoutMs = 3000): Promise<number> {
  const start = Date.now();
  for (;;) {
    const res = await probe();
    if (status(res.status)) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`still ${res.status} after ${timeoutMs} ms: ${res.text}`);
    await sleep(20);
  }
}

describe('RBAC over cached roles and escalation prevention (spec 001 § RBAC mode; issue #11 items 4, 5)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let keyDir: string;
  const clients: Record<string, TestClient> = {};

  before(async () => {
    keyDir = await mkdtemp(path.join(os.tmpdir(), 'orch-rbac-keys-'));
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await writeFile(path.join(keyDir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await writeFile(path.join(keyDir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
    server = await startTestServer({
      tokens: TOKENS,
      authentication: {
        serviceAccountSigningKeyFile: path.join(keyDir, 'sa.key'),
        serviceAccountKeyFiles: [path.join(keyDir, 'sa.pub')],
        serviceAccountIssuers: [ISSUER],
      },
    });
    const admin = server.admin;
    for (const ns of ['ns-a', 'ns-b']) await created(admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
    await created(admin.post('/api/v1/namespaces/ns-a/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } }));
    const tr = await admin.post('/api/v1/namespaces/ns-a/serviceaccounts/robot/token', { apiVersion: `${vendorGroup('authentication')}/v1`, kind: 'TokenRequest', spec: {} });
    expect(tr.status, tr.text).to.equal(201);
    for (const name of ['alice', 'bob', 'carol', 'eve', 'dan', 'frank']) clients[name] = admin.as({ token: `${name}-token` });
    clients.robot = admin.as({ token: tr.body.status.token as string });
    clients.anonymous = server.anonymous;

    // The policy of the matrix.
    const post = (p: string, body: object) => created(admin.post(p, body));
    await post(`${RBAC_V1}/clusterroles`, clusterRole('pod-reader', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'pods/log'] }]));
    await post(`${RBAC_V1}/clusterroles`, clusterRole('metrics-reader', [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }]));
    await post(`${RBAC_V1}/clusterroles`, clusterRole('secret-s1', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'] }]));
    await post(`${RBAC_V1}/namespaces/ns-a/roles`, role('ns-a', 'cm-editor', [{ verbs: ['*'], apiGroups: [''], resources: ['configmaps'] }]));
    await post(`${RBAC_V1}/namespaces/ns-a/roles`, role('ns-a', 'cm-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }]));
    await post(`${RBAC_V1}/namespaces/ns-a/roles`, role('ns-a', 'role-reader', [{ verbs: ['get', 'list'], apiGroups: [RBAC_ALIAS], resources: ['roles'] }]));
    await post(`${RBAC_V1}/namespaces/ns-a/rolebindings`, roleBinding('ns-a', 'bob-cm', { kind: 'Role', name: 'cm-editor' }, [user('bob')]));
    await post(`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('qa-pods', { kind: 'ClusterRole', name: 'pod-reader' }, [group('qa')]));
    await post(`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('carol-metrics', { kind: 'ClusterRole', name: 'metrics-reader' }, [user('carol')]));
    await post(`${RBAC_V1}/namespaces/ns-a/rolebindings`, roleBinding('ns-a', 'carol-roles', { kind: 'Role', name: 'role-reader' }, [user('carol')]));
    await post(`${RBAC_V1}/namespaces/ns-a/rolebindings`, roleBinding('ns-a', 'eve-secret', { kind: 'ClusterRole', name: 'secret-s1' }, [user('eve')]));
    await post(
      `${RBAC_V1}/namespaces/ns-b/rolebindings`,
      roleBinding('ns-b', 'robot-pods', { kind: 'ClusterRole', name: 'pod-reader' }, [{ kind: 'ServiceAccount', name: 'robot', namespace: 'ns-a' }]),
    );
    // A ServiceAccount subject without namespace: the binding's namespace.
    await post(`${RBAC_V1}/namespaces/ns-a/rolebindings`, roleBinding('ns-a', 'robot-cm', { kind: 'Role', name: 'cm-reader' }, [{ kind: 'ServiceAccount', name: 'robot' }]));
    await post(`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('dan-missing', { kind: 'ClusterRole', name: 'missing' }, [user('dan')]));
  });
  after(async () => {
    await server?.stop();
    if (keyDir) await rm(keyDir, { recursive: true, force: true });
  });

  describe('the authorization matrix', () => {
    // Each request, then the expected decision per user: A allowed, D denied (403; 401 for anonymous is never expected here).
    const REQUESTS: [string, string, string, object | undefined][] = [
      ['list pods ns-a', 'GET', '/api/v1/namespaces/ns-a/pods', undefined],
      ['list pods ns-b', 'GET', '/api/v1/namespaces/ns-b/pods', undefined],
      ['get pod ns-a/x', 'GET', '/api/v1/namespaces/ns-a/pods/x', undefined],
      ['list pods everywhere', 'GET', '/api/v1/pods', undefined],
      ['get pods/log ns-a/x', 'GET', '/api/v1/namespaces/ns-a/pods/x/log', undefined],
      ['delete pod ns-a/x', 'DELETE', '/api/v1/namespaces/ns-a/pods/x?dryRun=All', undefined],
      ['list configmaps ns-a', 'GET', '/api/v1/namespaces/ns-a/configmaps', undefined],
      ['create configmap ns-a (dry run)', 'POST', '/api/v1/namespaces/ns-a/configmaps?dryRun=All', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'm' } }],
      ['delete configmap ns-a/x', 'DELETE', '/api/v1/namespaces/ns-a/configmaps/x?dryRun=All', undefined],
      ['deletecollection configmaps ns-a', 'DELETE', '/api/v1/namespaces/ns-a/configmaps?dryRun=All', undefined],
      ['list configmaps ns-b', 'GET', '/api/v1/namespaces/ns-b/configmaps', undefined],
      ['get secret ns-a/s1', 'GET', '/api/v1/namespaces/ns-a/secrets/s1', undefined],
      ['get secret ns-a/s2', 'GET', '/api/v1/namespaces/ns-a/secrets/s2', undefined],
      ['list secrets ns-a', 'GET', '/api/v1/namespaces/ns-a/secrets', undefined],
      ['list secrets ns-a named s1 by field selector', 'GET', '/api/v1/namespaces/ns-a/secrets?fieldSelector=metadata.name%3Ds1', undefined],
      ['get secret ns-b/s1', 'GET', '/api/v1/namespaces/ns-b/secrets/s1', undefined],
      ['list roles ns-a (vendor group)', 'GET', `${RBAC_V1}/namespaces/ns-a/roles`, undefined],
      ['list roles ns-a (upstream alias)', 'GET', `/apis/${RBAC_ALIAS}/v1/namespaces/ns-a/roles`, undefined],
      ['list roles ns-b', 'GET', `${RBAC_V1}/namespaces/ns-b/roles`, undefined],
      ['get /metrics', 'GET', '/metrics', undefined],
      ['get /api', 'GET', '/api', undefined],
      ['get /healthz', 'GET', '/healthz', undefined],
      ['list namespaces', 'GET', '/api/v1/namespaces', undefined],
    ];
    const USERS = ['alice', 'bob', 'carol', 'eve', 'robot', 'dan', 'anonymous'];
    // Columns: alice bob carol eve robot dan anonymous.
    const EXPECTED: Record<string, string> = {
      'list pods ns-a': '                    A D A D D D D',
      'list pods ns-b': '                    A D A D A D D',
      'get pod ns-a/x': '                    A D A D D D D',
      'list pods everywhere': '               A D A D D D D',
      'get pods/log ns-a/x': '                A D A D D D D',
      'delete pod ns-a/x': '                  A D D D D D D',
      'list configmaps ns-a': '               A A D D A D D',
      'create configmap ns-a (dry run)': '    A A D D D D D',
      'delete configmap ns-a/x': '            A A D D D D D',
      'deletecollection configmaps ns-a': '   A A D D D D D',
      'list configmaps ns-b': '               A D D D D D D',
      'get secret ns-a/s1': '                 A D D A D D D',
      'get secret ns-a/s2': '                 A D D D D D D',
      'list secrets ns-a': '                  A D D D D D D',
      'list secrets ns-a named s1 by field selector': 'A D D A D D D',
      'get secret ns-b/s1': '                 A D D D D D D',
      'list roles ns-a (vendor group)': '     A D A D D D D',
      'list roles ns-a (upstream alias)': '   A D A D D D D',
      'list roles ns-b': '                    A D D D D D D',
      'get /metrics': '                       A D A D D D D',
      'get /api': '                           A A A A A A D',
      'get /healthz': '                       A A A A A A A',
      'list namespaces': '                    A D D D D D D',
    };

    it(`decides every cell as written, with 0 unexpected allows and 0 unexpected denies${covers('001 § RBAC mode › Role', '001 § RBAC mode › ClusterRole', '001 § RBAC mode › RoleBinding', '001 § RBAC mode › ClusterRoleBinding')}`, async () => {
      const unexpected: string[] = [];
      let cells = 0;
      for (const [name, method, p, body] of REQUESTS) {
        const want = EXPECTED[name]!.trim().split(/\s+/);
        expect(want, name).to.have.length(USERS.length);
        for (let i = 0; i < USERS.length; i++) {
          const res = await clients[USERS[i]!]!.request(method, p, body === undefined ? {} : { body });
          const got = res.status === 403 || res.status === 401 ? 'D' : 'A';
          cells++;
          if (got !== want[i]) unexpected.push(`${USERS[i]} ${name}: expected ${want[i]}, got ${res.status} ${res.text.slice(0, 200)}`);
        }
      }
      expect(cells).to.equal(REQUESTS.length * USERS.length);
      expect(unexpected).to.deep.equal([]);
    });

    it('answers a denial with upstream 403 text, carrying the RBAC reason of a binding whose role is missing', async () => {
      const res = await clients.dan!.get('/api/v1/namespaces/ns-a/pods');
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal(
        `pods is forbidden: User "dan" cannot list resource "pods" in API group "" in the namespace "ns-a": RBAC: clusterrole.${RBAC} "missing" not found`,
      );
      const plain = await clients.eve!.get('/api/v1/namespaces/ns-b/configmaps');
      expect(plain.body.message).to.equal('configmaps is forbidden: User "eve" cannot list resource "configmaps" in API group "" in the namespace "ns-b"');
    });
  });

  describe('changes take effect within a watch event', () => {
    it(`grant, use, revoke, denied (binding created and deleted)${covers('001 § RBAC mode › ClusterRoleBinding')}`, async () => {
      const frank = clients.frank!;
      const probe = () => frank.get('/api/v1/namespaces/ns-b/configmaps');
      expect((await probe()).status).to.equal(403);
      await created(server.admin.post(`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('frank-cm', { kind: 'ClusterRole', name: 'frank-cm' }, [user('frank')])));
      await created(server.admin.post(`${RBAC_V1}/clusterroles`, clusterRole('frank-cm', [{ verbs: ['list'], apiGroups: [''], resources: ['configmaps'] }])));
      const granted = await until(probe, (s) => s === 200);
      const del = await server.admin.delete(`${RBAC_V1}/clusterrolebindings/frank-cm`);
      expect(del.status).to.equal(200);
      const revoked = await until(probe, (s) => s === 403);
      expect(granted).to.be.below(1000);
      expect(revoked).to.be.below(1000);
    });

    it(`a rule removed from a role stops granting${covers('001 § RBAC mode › Role')}`, async () => {
      const bob = clients.bob!;
      await created(server.admin.post(`${RBAC_V1}/namespaces/ns-b/roles`, role('ns-b', 'bob-pods', [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }])));
      await created(server.admin.post(`${RBAC_V1}/namespaces/ns-b/rolebindings`, roleBinding('ns-b', 'bob-pods', { kind: 'Role', name: 'bob-pods' }, [user('bob')])));
      const probe = () => bob.get('/api/v1/namespaces/ns-b/pods');
      await until(probe, (s) => s === 200);
      const current = await server.admin.get(`${RBAC_V1}/namespaces/ns-b/roles/bob-pods`);
      const put = await server.admin.put(`${RBAC_V1}/namespaces/ns-b/roles/bob-pods`, { ...current.body, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] });
      expect(put.status, put.text).to.equal(200);
      await until(probe, (s) => s === 403);
    });

    it(`a group binding applies to every member${covers('001 § RBAC mode › RoleBinding', '001 § RBAC mode › ClusterRole')}`, async () => {
      const probe = () => clients.bob!.get('/api/v1/namespaces/ns-b/secrets');
      expect((await probe()).status).to.equal(403);
      await created(server.admin.post(`${RBAC_V1}/clusterroles`, clusterRole('devs-secrets', [{ verbs: ['list'], apiGroups: [''], resources: ['secrets'] }])));
      await created(server.admin.post(`${RBAC_V1}/namespaces/ns-b/rolebindings`, roleBinding('ns-b', 'devs-secrets', { kind: 'ClusterRole', name: 'devs-secrets' }, [group('devs')])));
      await until(probe, (s) => s === 200);
      // The ClusterRole, bound by a RoleBinding, grants in that namespace only.
      expect((await clients.bob!.get('/api/v1/namespaces/ns-a/secrets')).status).to.equal(403);
    });
  });

  describe('escalation prevention', () => {
    const rolesA = `${RBAC_V1}/namespaces/ns-a/roles`;
    const bindingsA = `${RBAC_V1}/namespaces/ns-a/rolebindings`;

    before(async () => {
      // bob may manage roles and bindings in ns-a, nothing more.
      await created(
        server.admin.post(rolesA, role('ns-a', 'rbac-manager', [{ verbs: ['create', 'update', 'get', 'list', 'delete', 'patch'], apiGroups: [RBAC], resources: ['roles', 'rolebindings'] }])),
      );
      await created(server.admin.post(bindingsA, roleBinding('ns-a', 'bob-rbac', { kind: 'Role', name: 'rbac-manager' }, [user('bob')])));
      await until(() => clients.bob!.get(rolesA), (s) => s === 200);
    });

    it('lets a user create a role with permissions it holds', async () => {
      const res = await clients.bob!.post(rolesA, role('ns-a', 'cm-subset', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }]));
      expect(res.status, res.text).to.equal(201);
    });

    it('refuses a role with more than the user holds, with upstream message', async () => {
      const res = await clients.bob!.post(
        rolesA,
        role('ns-a', 'too-much', [
          { verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'] },
          { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] },
        ]),
      );
      expect(res.status).to.equal(403);
      expect(res.body).to.include({ kind: 'Status', reason: 'Forbidden', code: 403 });
      expect(res.body.details).to.deep.equal({ name: 'too-much', group: RBAC, kind: 'roles' });
      expect(res.body.message).to.equal(
        `roles.${RBAC} "too-much" is forbidden: user "bob" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n` +
          '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
      );
    });

    it('refuses an update that adds permissions the user lacks, and allows one within them', async () => {
      const current = (await clients.bob!.get(`${rolesA}/cm-subset`)).body;
      const more = await clients.bob!.put(`${rolesA}/cm-subset`, { ...current, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] });
      expect(more.status).to.equal(403);
      expect(more.body.message).to.contain('{APIGroups:[""], Resources:["pods"], Verbs:["get"]}');
      const same = await clients.bob!.put(`${rolesA}/cm-subset`, { ...current, rules: [{ verbs: ['delete'], apiGroups: [''], resources: ['configmaps'] }] });
      expect(same.status, same.text).to.equal(200);
    });

    it('refuses to bind a role whose permissions the user lacks, and allows binding one it holds', async () => {
      const denied = await clients.bob!.post(bindingsA, roleBinding('ns-a', 'to-pods', { kind: 'ClusterRole', name: 'pod-reader' }, [user('eve')]));
      expect(denied.status).to.equal(403);
      expect(denied.body.message).to.equal(
        `rolebindings.${RBAC} "to-pods" is forbidden: user "bob" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n` +
          '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list" "watch"]}\n' +
          '{APIGroups:[""], Resources:["pods/log"], Verbs:["get" "list" "watch"]}',
      );
      const allowed = await clients.bob!.post(bindingsA, roleBinding('ns-a', 'to-cm', { kind: 'Role', name: 'cm-reader' }, [user('eve')]));
      expect(allowed.status, allowed.text).to.equal(201);
    });

    it('answers 404 for a binding to a role that does not exist, as upstream', async () => {
      const res = await clients.bob!.post(bindingsA, roleBinding('ns-a', 'to-nothing', { kind: 'ClusterRole', name: 'nope' }, [user('eve')]));
      expect(res.status).to.equal(404);
      expect(res.body.message).to.equal(`clusterrole.${RBAC} "nope" not found`);
    });

    it('allows binding with the bind verb, honouring resourceNames', async () => {
      await created(
        server.admin.post(rolesA, role('ns-a', 'bind-pod-reader', [{ verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['pod-reader'] }])),
      );
      await created(server.admin.post(bindingsA, roleBinding('ns-a', 'bob-bind', { kind: 'Role', name: 'bind-pod-reader' }, [user('bob')])));
      const bind = () => clients.bob!.post(`${bindingsA}?dryRun=All`, roleBinding('ns-a', 'to-pods', { kind: 'ClusterRole', name: 'pod-reader' }, [user('eve')]));
      await until(bind, (s) => s === 201);
      const other = await clients.bob!.post(bindingsA, roleBinding('ns-a', 'to-secret', { kind: 'ClusterRole', name: 'secret-s1' }, [user('eve')]));
      expect(other.status).to.equal(403);
    });

    it('allows a role beyond the user with the escalate verb', async () => {
      const body = role('ns-a', 'escalated', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]);
      expect((await clients.bob!.post(`${rolesA}?dryRun=All`, body)).status).to.equal(403);
      await created(server.admin.post(rolesA, role('ns-a', 'escalator', [{ verbs: ['escalate'], apiGroups: [RBAC], resources: ['roles'] }])));
      await created(server.admin.post(bindingsA, roleBinding('ns-a', 'bob-escalate', { kind: 'Role', name: 'escalator' }, [user('bob')])));
      await until(() => clients.bob!.post(`${rolesA}?dryRun=All`, body), (s) => s === 201);
    });

    it('refuses an aggregationRule to a user without full authority', async () => {
      await created(server.admin.post(`${RBAC_V1}/clusterroles`, clusterRole('cr-writer', [{ verbs: ['create'], apiGroups: [RBAC], resources: ['clusterroles'] }])));
      await created(server.admin.post(`${RBAC_V1}/clusterrolebindings`, clusterRoleBinding('carol-cr', { kind: 'ClusterRole', name: 'cr-writer' }, [user('carol')])));
      await until(() => clients.carol!.post(`${RBAC_V1}/clusterroles?dryRun=All`, clusterRole('plain', [])), (s) => s === 201);
      const body = clusterRole('aggregated', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } });
      const res = await clients.carol!.post(`${RBAC_V1}/clusterroles`, body);
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal(`clusterroles.${RBAC} "aggregated" is forbidden: must have cluster-admin privileges to use the aggregationRule`);
    });

    it('refuses a change of roleRef with 422, even for system:masters', async () => {
      const current = (await server.admin.get(`${bindingsA}/to-cm`)).body;
      const res = await server.admin.put(`${bindingsA}/to-cm`, { ...current, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'cm-editor' } });
      expect(res.status).to.equal(422);
      expect(res.body.reason).to.equal('Invalid');
      expect(res.body.message).to.match(/^RoleBinding\.[^ ]+ "to-cm" is invalid: roleRef: Invalid value: .*: cannot change roleRef$/);
    });

    it('lets system:masters create anything without checks', async () => {
      const res = await clients.alice!.post(`${RBAC_V1}/clusterroles`, clusterRole('anything', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]));
      expect(res.status, res.text).to.equal(201);
    });
  });

  describe('path tricks never grant more than the decoded path allows', () => {
    // eve may get secret ns-a/s1 only; bob may do anything with configmaps in ns-a only.
    const TRICKS: [string, string, string, number][] = [
      ['eve', 'dot-dot after an allowed name', '/api/v1/namespaces/ns-a/secrets/s1/../s2', 403],
      ['eve', 'encoded slashes and dot-dot', '/api/v1/namespaces/ns-a/secrets/s1%2F..%2Fs2', 403],
      ['eve', 'encoded dots', '/api/v1/namespaces/ns-a/secrets/s1/%2e%2e/s2', 403],
      ['eve', 'double slash before the name', '/api/v1/namespaces/ns-a/secrets//s1', 403],
      ['eve', 'double slash inside the prefix', '/api/v1//namespaces/ns-a/secrets/s1', 403],
      ['eve', 'dot-dot out of the namespace', '/api/v1/namespaces/ns-b/../ns-a/secrets/s1', 403],
      ['bob', 'dot-dot from an allowed namespace to another', '/api/v1/namespaces/ns-a/configmaps/../../ns-b/configmaps', 403],
      ['bob', 'encoded namespace with dot-dot', '/api/v1/namespaces/ns-b%2F..%2Fns-a/configmaps', 403],
      ['bob', 'encoded slash: the decoded path is the allowed collection', '/api/v1/namespaces/ns-a%2Fconfigmaps', 200],
      ['bob', 'encoded letters decode to the allowed resource', '/api/v1/namespaces/ns-a/config%6Daps', 200],
    ];
    for (const [who, name, p, want] of TRICKS) {
      it(`${who}: ${name} (${p}) → ${want}`, async () => {
        const res = await rawGet(server.url, p, [`Authorization: Bearer ${who}-token`], { ca: server.admin.ca });
        expect(res.status, res.text).to.equal(want);
        if (want === 200) expect(res.body.kind).to.equal('ConfigMapList');
      });
    }
  });
});
