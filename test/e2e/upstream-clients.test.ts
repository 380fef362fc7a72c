import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type KubectlBinary, type KubectlResult, UPSTREAM_KUBECTLS, kubectl, requireKubectls } from '../framework/kubectl.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

/*
 * Unmodified upstream kubectls (Debian's 1.20 and the image's 1.27 … 1.33) against the real
 * command with its default flags (issue #9: `--upstream-aliases` is on by default). Every
 * kubectl runs its own sequence of commands, all kubectls at once (see `observe`); each test
 * awaits the outcome of one command of one kubectl and asserts on it.
 */

const NS = 'upstream';
const RBAC_VENDOR = 'rbac.authorization.orch.io';
const RBAC_UPSTREAM = 'rbac.authorization.k8s.io';
/** A kubectl age (`0s`, `5m3s`, `2d`). */
const AGE = /^(\d+[smhdy])+$/;
/** A `Created At` cell (RFC 3339, UTC). */
const CREATED_AT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** `s` as a literal inside a regular expression. */
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The cells of one line of kubectl's table output (columns are at least two spaces apart). */
const cells = (line: string) => line.trim().split(/\s{2,}/);

/** Header and rows of a `kubectl get` that must have succeeded. */
function table(res: KubectlResult): { header: string[]; rows: string[][] } {
  expect(res.code, res.stderr).to.equal(0);
  const [head, ...rows] = res.stdout.trimEnd().split('\n');
  return { header: cells(head), rows: rows.map(cells) };
}

/** Asserts that `rows` holds a row starting with `want[0]` whose cells equal or match `want`. */
function expectRow(rows: string[][], want: (string | RegExp)[]): void {
  const row = rows.find((r) => r[0] === want[0]);
  const shown = `rows ${JSON.stringify(rows)}, wanted ${want.map(String).join(' | ')}`;
  expect(row, shown).to.not.equal(undefined);
  expect(row!.length, shown).to.equal(want.length);
  want.forEach((w, i) => (typeof w === 'string' ? expect(row![i], shown).to.equal(w) : expect(row![i], shown).to.match(w)));
}

/**
 * Starts `steps` one after another (in declaration order) and hands back each step's outcome at
 * once; a failed step fails only the test that awaits it.
 */
function sequence<T extends Record<string, () => Promise<unknown>>>(steps: T): { [K in keyof T]: Promise<Awaited<ReturnType<T[K]>>> } {
  const out = {} as Record<string, Promise<unknown>>;
  let previous: Promise<unknown> = Promise.resolve();
  for (const [name, step] of Object.entries(steps)) {
    const outcome = previous.then(step);
    outcome.catch(() => undefined); // awaited (and reported) by its test
    out[name] = outcome;
    previous = outcome.catch(() => undefined);
  }
  return out as { [K in keyof T]: Promise<Awaited<ReturnType<T[K]>>> };
}

describe('stock kubectl 1.20 and 1.27–1.33 against the real server command (issue #9)', function () {
  this.timeout(90_000);
  let server: ServerProcess;
  let cacheRoot: string;
  const observed = new Map<string, ReturnType<typeof observe>>();

  /** Name of the objects a kubectl creates: `uc-1-30`. */
  const idOf = (kc: KubectlBinary) => `uc-${kc.version.replace('.', '-')}`;
  /** The `--cache-dir` flag of a kubectl: its own discovery cache, fresh for this server. */
  const cacheFlag = (kc: KubectlBinary) => `--cache-dir=${path.join(cacheRoot, kc.version)}`;

  /** Creates an object through the admin client (vendor or core paths), expecting 201. */
  async function create(collection: string, body: object): Promise<void> {
    const res = await server.admin.post(collection, body);
    if (res.status !== 201) throw new Error(`POST ${collection}: ${res.status} ${res.text}`);
  }

  /** Reads an object through the admin client, expecting 200. */
  async function read(objectPath: string) {
    const res = await server.admin.get(objectPath);
    if (res.status !== 200) throw new Error(`GET ${objectPath}: ${res.status} ${res.text}`);
    return res.body;
  }

  /**
   * `kubectl get configmaps -w`: waits for the existing `seed` row (the list is done and the
   * watch starts from its resourceVersion), creates the configmap `name`, waits for its row and
   * kills kubectl. Answers everything kubectl printed.
   */
  async function watchConfigMaps(kc: KubectlBinary, name: string): Promise<string> {
    const child = spawn(kc.path, ['--kubeconfig', server.kubeconfig, cacheFlag(kc), 'get', 'configmaps', '-n', NS, '-w']);
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const waitFor = async (row: string) => {
      const deadline = Date.now() + 20_000;
      while (!new RegExp(`^${row}\\s`, 'm').test(out)) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no "${row}" row from kubectl get -w (exit ${child.exitCode}); stdout:\n${out}\nstderr:\n${err}`);
        await sleep(50);
      }
    };
    try {
      await waitFor('seed');
      await create(`/api/v1/namespaces/${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });
      await waitFor(name);
      return out;
    } finally {
      child.kill();
    }
  }

  /** Starts the commands of one kubectl (in sequence) and hands back their outcomes. */
  function observe(kc: KubectlBinary) {
    const withStdin = (stdin: string, ...args: string[]) => kubectl(server.kubeconfig, [cacheFlag(kc), ...args], { binary: kc.path, stdin });
    const k = (...args: string[]) => withStdin('', ...args);
    const id = idOf(kc);
    const bothGroups = async (resource: string) => ({
      vendor: await read(`/apis/${RBAC_VENDOR}/v1/${resource}/${id}`),
      upstream: await read(`/apis/${RBAC_UPSTREAM}/v1/${resource}/${id}`),
    });
    return sequence({
      pods: () => k('get', 'pods', '-n', NS),
      podsWide: () => k('get', 'pods', '-n', NS, '-o', 'wide'),
      deployments: () => k('get', 'deployments', '-n', NS),
      services: () => k('get', 'services', '-n', NS),
      nodes: () => k('get', 'nodes'),
      namespaces: () => k('get', 'namespaces'),
      roles: () => k('get', 'roles', '-n', NS),
      watch: () => watchConfigMaps(kc, id),
      describePod: () => k('describe', 'pod', 'web-0', '-n', NS),
      describeDeployment: () => k('describe', 'deployment', 'web', '-n', NS),
      canI: () => k('auth', 'can-i', 'create', 'pods', '-v=6'),
      clusterRole: async () => ({ created: await k('create', 'clusterrole', id, '--verb=get,list', '--resource=pods'), ...(await bothGroups('clusterroles')) }),
      roleBinding: async () => ({ created: await k('create', 'rolebinding', id, `--clusterrole=${id}`, '--user=alice', '-n', NS), ...(await bothGroups(`namespaces/${NS}/rolebindings`)) }),
      apply: async () => {
        const manifest = `apiVersion: ${RBAC_UPSTREAM}/v1\nkind: Role\nmetadata:\n  name: ${id}\n  namespace: ${NS}\nrules:\n  - apiGroups: [""]\n    resources: [configmaps]\n    verbs: [get]\n`;
        const applied = await withStdin(manifest, 'apply', '--server-side', '-f', '-');
        return { applied, upstream: await read(`/apis/${RBAC_UPSTREAM}/v1/namespaces/${NS}/roles/${id}`) };
      },
    });
  }

  before(async () => {
    requireKubectls(UPSTREAM_KUBECTLS);
    cacheRoot = await mkdtemp(path.join(os.tmpdir(), 'orch-kubectl-cache-'));
    server = await startServerProcess();
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    await create('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } });
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } };
    await create(`/api/v1/namespaces/${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', labels: { app: 'web' } }, spec: { ...template.spec, nodeName: 'node-1' } });
    await create(`/apis/apps/v1/namespaces/${NS}/deployments`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template } });
    await create(`/api/v1/namespaces/${NS}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, clusterIP: '10.0.0.10', ports: [{ port: 80 }] } });
    await create(`/apis/${RBAC_VENDOR}/v1/namespaces/${NS}/roles`, { apiVersion: `${RBAC_VENDOR}/v1`, kind: 'Role', metadata: { name: 'reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] });
    await create(`/api/v1/namespaces/${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'seed' }, data: { a: '1' } });
    for (const kc of UPSTREAM_KUBECTLS) observed.set(kc.version, observe(kc));
  });
  after(async () => {
    // Let every kubectl finish before the server goes away.
    await Promise.allSettled([...observed.values()].flatMap((o) => Object.values(o)));
    if (server) expect(await server.stop()).to.equal(0);
    if (cacheRoot) await rm(cacheRoot, { recursive: true, force: true });
  });

  for (const kc of UPSTREAM_KUBECTLS) {
    describe(`kubectl ${kc.version}`, () => {
      const seen = () => observed.get(kc.version)!;
      const id = idOf(kc);

      it('get pods prints the upstream columns', async () => {
        const { header, rows } = table(await seen().pods);
        expect(header).to.deep.equal(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
        expectRow(rows, ['web-0', '0/1', 'Pending', '0', AGE]);
      });

      it('get pods -o wide prints the upstream wide columns', async () => {
        const { header, rows } = table(await seen().podsWide);
        expect(header).to.deep.equal(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
        expectRow(rows, ['web-0', '0/1', 'Pending', '0', AGE, '<none>', 'node-1', '<none>', '<none>']);
      });

      it('get deployments prints the upstream columns', async () => {
        const { header, rows } = table(await seen().deployments);
        expect(header).to.deep.equal(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
        expectRow(rows, ['web', '0/2', '0', '0', AGE]);
      });

      it('get services prints the upstream columns', async () => {
        const { header, rows } = table(await seen().services);
        expect(header).to.deep.equal(['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
        expectRow(rows, ['web', 'ClusterIP', '10.0.0.10', '<none>', '80/TCP', AGE]);
      });

      it('get nodes prints the upstream columns', async () => {
        const { header, rows } = table(await seen().nodes);
        expect(header).to.deep.equal(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
        // No conditions: Unknown; no role labels: <none>; no kubelet version: an empty last cell.
        expectRow(rows, ['node-1', 'Unknown', '<none>', AGE]);
      });

      it('get namespaces prints the upstream columns', async () => {
        const { header, rows } = table(await seen().namespaces);
        expect(header).to.deep.equal(['NAME', 'STATUS', 'AGE']);
        expectRow(rows, [NS, 'Active', AGE]);
        expectRow(rows, ['default', 'Active', AGE]);
      });

      it('get roles prints the upstream columns (the default table: NAME, CREATED AT)', async () => {
        const { header, rows } = table(await seen().roles);
        expect(header).to.deep.equal(['NAME', 'CREATED AT']);
        expectRow(rows, ['reader', CREATED_AT]);
      });

      it('get configmaps -w sees a configmap created meanwhile', async () => {
        const lines = (await seen().watch).trimEnd().split('\n');
        expect(cells(lines[0])).to.deep.equal(['NAME', 'DATA', 'AGE']);
        const rows = lines.slice(1).map(cells);
        expectRow(rows, ['seed', '1', AGE]);
        expectRow(rows, [id, '1', AGE]);
      });

      it('describes a pod', async () => {
        const res = await seen().describePod;
        expect(res.code, res.stderr).to.equal(0);
        expect(res.stdout).to.match(/^Name:\s+web-0$/m);
        expect(res.stdout).to.match(/^Namespace:\s+upstream$/m);
        expect(res.stdout).to.match(/^Node:\s+node-1\/?$/m);
      });

      it('describes a deployment', async () => {
        const res = await seen().describeDeployment;
        expect(res.code, res.stderr).to.equal(0);
        expect(res.stdout).to.match(/^Name:\s+web$/m);
        expect(res.stdout).to.match(/^Replicas:\s+2 desired \|/m);
      });

      it('auth can-i create pods reaches the server (authorization.k8s.io selfsubjectaccessreviews)', async () => {
        const res = await seen().canI;
        // -v=6 logs every response: `POST <url> 404 Not Found` (≤ 1.31) or `verb="POST" url="<url>" status="404 Not Found"` (1.32+).
        const url = escapeRegExp(`${server.url}/apis/authorization.k8s.io/v1/selfsubjectaccessreviews`);
        const post = res.stderr.match(new RegExp(`POST ${url} (\\d{3}) `)) ?? res.stderr.match(new RegExp(`verb="POST" url="${url}" status="(\\d{3}) `));
        expect(post, res.stderr).to.not.equal(null);
        if (post![1] === '404') {
          // Until access reviews exist: the server's own NotFound Status.
          expect(res.code).to.not.equal(0);
          expect(res.stderr).to.include('Error from server (NotFound): the server could not find the requested resource');
        } else {
          expect(post![1]).to.equal('201');
          expect(res.stdout).to.equal('yes\n');
        }
      });

      it(`create clusterrole POSTs to ${RBAC_UPSTREAM}; the object reads through both groups`, async () => {
        const { created, vendor, upstream } = await seen().clusterRole;
        expect(created.code, created.stderr).to.equal(0);
        expect(created.stdout).to.equal(`clusterrole.${RBAC_UPSTREAM}/${id} created\n`);
        const rules = [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }];
        expect({ apiVersion: vendor.apiVersion, kind: vendor.kind, rules: vendor.rules }).to.deep.equal({ apiVersion: `${RBAC_VENDOR}/v1`, kind: 'ClusterRole', rules });
        expect({ apiVersion: upstream.apiVersion, kind: upstream.kind, rules: upstream.rules }).to.deep.equal({ apiVersion: `${RBAC_UPSTREAM}/v1`, kind: 'ClusterRole', rules });
        expect(upstream.metadata.uid).to.equal(vendor.metadata.uid);
      });

      it('create rolebinding: roleRef.apiGroup and subjects[].apiGroup in the spelling of the group read', async () => {
        const { created, vendor, upstream } = await seen().roleBinding;
        expect(created.code, created.stderr).to.equal(0);
        expect(created.stdout).to.equal(`rolebinding.${RBAC_UPSTREAM}/${id} created\n`);
        for (const [obj, group] of [
          [vendor, RBAC_VENDOR],
          [upstream, RBAC_UPSTREAM],
        ] as const) {
          expect(obj.apiVersion).to.equal(`${group}/v1`);
          expect(obj.roleRef).to.deep.equal({ apiGroup: group, kind: 'ClusterRole', name: id });
          expect(obj.subjects).to.deep.equal([{ apiGroup: group, kind: 'User', name: 'alice' }]);
        }
      });

      it(`apply --server-side of a ${RBAC_UPSTREAM}/v1 Role records the upstream apiVersion in managedFields`, async () => {
        const { applied, upstream } = await seen().apply;
        expect(applied.code, applied.stderr).to.equal(0);
        expect(applied.stdout).to.equal(`role.${RBAC_UPSTREAM}/${id} serverside-applied\n`);
        expect(upstream.apiVersion).to.equal(`${RBAC_UPSTREAM}/v1`);
        expect(upstream.rules).to.deep.equal([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]);
        const entries = upstream.metadata.managedFields.map((f: { manager: string; operation: string; apiVersion: string }) => ({ manager: f.manager, operation: f.operation, apiVersion: f.apiVersion }));
        expect(entries).to.deep.equal([{ manager: 'kubectl', operation: 'Apply', apiVersion: `${RBAC_UPSTREAM}/v1` }]);
      });
    });
  }
});
