import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { APISERVER_CONFIG_GROUP, POD_SECURITY_CONFIG_GROUP, POD_SECURITY_PREFIX } from '../../../lib/apis/vendor.js';
import type { TestClient, TestResponse } from '../../framework/client.js';
import { startTestServer, useTestServer } from '../../framework/test-server.js';

const ENFORCE = `${POD_SECURITY_PREFIX}enforce`;
const WARN = `${POD_SECURITY_PREFIX}warn`;

const RESTRICTED_PLAIN =
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

/** The `Warning:` header texts of a response. */
const warningsOf = (res: TestResponse): string[] =>
  ([] as string[])
    .concat(res.headers.warning ?? [])
    .flatMap((w) => w.split(/,(?=\s*299 )/))
    .map((w) => JSON.parse(w.trim().replace(/^299 - /, '')) as string);

const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});
const privileged = (name: string) => pod(name, { hostNetwork: true, containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] });

async function createNamespace(client: TestClient, name: string, labels: Record<string, string> = {}): Promise<void> {
  const res = await client.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
  expect(res.status, res.text).to.equal(201);
}

const MERGE_PATCH = 'application/merge-patch+json';

describe('PodSecurity admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'PodSecurity'] } });
  const admin = () => server().admin;

  before(async () => {
    await createNamespace(admin(), 'psa-baseline', { [ENFORCE]: 'baseline' });
    await createNamespace(admin(), 'psa-restricted', { [ENFORCE]: 'restricted' });
    await createNamespace(admin(), 'psa-warn', { [WARN]: 'restricted', [`${WARN}-version`]: 'v1.30' });
    await createNamespace(admin(), 'psa-none');
  });

  it('an unlabelled namespace admits anything (privileged:latest by default)', async () => {
    const res = await admin().post('/api/v1/namespaces/psa-none/pods', privileged('anything'));
    expect(res.status, res.text).to.equal(201);
    expect(res.headers.warning).to.equal(undefined);
  });

  it('enforce=baseline rejects a privileged pod with 403 and upstream’s message', async () => {
    const res = await admin().post('/api/v1/namespaces/psa-baseline/pods', privileged('x'));
    expect(res.status, res.text).to.equal(403);
    expect(res.body).to.deep.include({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403 });
    expect(res.body.message).to.equal(
      'pods "x" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork), privileged (container "c" must not set securityContext.privileged=true)',
    );
    expect(res.body.details).to.deep.equal({ name: 'x', kind: 'pods' });
    expect((await admin().post('/api/v1/namespaces/psa-baseline/pods', pod('fine'))).status).to.equal(201);
  });

  it('enforce=restricted rejects a plain pod, admits a hardened one', async () => {
    const res = await admin().post('/api/v1/namespaces/psa-restricted/pods', pod('x'));
    expect(res.status, res.text).to.equal(403);
    expect(res.body.message).to.equal(`pods "x" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_PLAIN}`);
    const hardened = pod('hardened', {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'c', image: 'busybox', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
    });
    const ok = await admin().post('/api/v1/namespaces/psa-restricted/pods', hardened);
    expect(ok.status, ok.text).to.equal(201);
  });

  it('dry-run requests are evaluated exactly as real ones', async () => {
    const res = await admin().post('/api/v1/namespaces/psa-restricted/pods?dryRun=All', pod('x'));
    expect(res.status, res.text).to.equal(403);
    expect(res.body.message).to.equal(`pods "x" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_PLAIN}`);
  });

  it('warn admits the pod and returns the violations as a Warning header', async () => {
    const res = await admin().post('/api/v1/namespaces/psa-warn/pods', pod('w'));
    expect(res.status, res.text).to.equal(201);
    expect(warningsOf(res)).to.deep.equal([`would violate PodSecurity "restricted:v1.30": ${RESTRICTED_PLAIN}`]);
  });

  it('workloads are warned about, never rejected', async () => {
    await createNamespace(admin(), 'psa-workloads', { [ENFORCE]: 'restricted', [WARN]: 'baseline' });
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { hostPID: true, containers: [{ name: 'c', image: 'busybox' }] } } },
    };
    const res = await admin().post('/apis/apps/v1/namespaces/psa-workloads/deployments', deployment);
    expect(res.status, res.text).to.equal(201);
    expect(warningsOf(res)).to.deep.equal(['would violate PodSecurity "baseline:latest": host namespaces (hostPID)']);
  });

  it('rejects invalid Pod Security labels on namespace create and update (422)', async () => {
    const res = await admin().post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'psa-bad', labels: { [ENFORCE]: 'strict' } } });
    expect(res.status, res.text).to.equal(422);
    expect(res.body.reason).to.equal('Invalid');
    expect(res.body.message).to.equal('Namespace "psa-bad" is invalid: metadata.labels[pod-security.orch.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
    const patch = await admin().patch('/api/v1/namespaces/psa-none', { metadata: { labels: { [`${ENFORCE}-version`]: '1.30' } } }, MERGE_PATCH);
    expect(patch.status, patch.text).to.equal(422);
    expect(patch.body.message).to.equal('Namespace "psa-none" is invalid: metadata.labels[pod-security.orch.io/enforce-version]: Invalid value: "1.30": must be "latest" or "v1.x"');
  });

  it('tightening enforce warns about existing pods that would violate it; dry-run changes nothing', async () => {
    await createNamespace(admin(), 'psa-existing');
    for (const name of ['priv-1', 'priv-2']) expect((await admin().post('/api/v1/namespaces/psa-existing/pods', privileged(name))).status).to.equal(201);
    expect((await admin().post('/api/v1/namespaces/psa-existing/pods', pod('plain'))).status).to.equal(201);
    const expected = ['existing pods in namespace "psa-existing" violate the new PodSecurity enforce level "baseline:latest"', 'priv-1 (and 1 other pod): host namespaces, privileged'];
    const label = { metadata: { labels: { [ENFORCE]: 'baseline' } } };
    let warnings: string[] = [];
    for (let i = 0; i < 100 && warnings.length < 2; i++) {
      const dry = await admin().patch('/api/v1/namespaces/psa-existing?dryRun=All', label, MERGE_PATCH);
      expect(dry.status, dry.text).to.equal(200);
      warnings = warningsOf(dry);
      if (warnings.length < 2) await sleep(50);
    }
    expect(warnings).to.deep.equal(expected);
    expect((await admin().get('/api/v1/namespaces/psa-existing')).body.metadata.labels[ENFORCE]).to.equal(undefined);
    const real = await admin().patch('/api/v1/namespaces/psa-existing', label, MERGE_PATCH);
    expect(real.status, real.text).to.equal(200);
    expect(warningsOf(real)).to.deep.equal(expected);
    expect(real.body.metadata.labels[ENFORCE]).to.equal('baseline');
    const relaxed = await admin().patch('/api/v1/namespaces/psa-existing', { metadata: { labels: { [ENFORCE]: 'privileged' } } }, MERGE_PATCH);
    expect(relaxed.status).to.equal(200);
    expect(relaxed.headers.warning).to.equal(undefined);
  });
});

describe('PodSecurity configured by --admission-control-config-file', () => {
  let configFile = '';
  const dirs: string[] = [];
  /** Writes an AdmissionConfiguration giving PodSecurity `podSecurity` in a new directory (removed after the suite); returns its path. */
  const writeConfig = async (podSecurity: Record<string, unknown>): Promise<string> => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'psa-config-'));
    dirs.push(dir);
    const file = path.join(dir, 'admission.yaml');
    await writeFile(file, JSON.stringify({ apiVersion: `${APISERVER_CONFIG_GROUP}/v1`, kind: 'AdmissionConfiguration', plugins: [{ name: 'PodSecurity', configuration: podSecurity }] }));
    return file;
  };
  before(async () => {
    configFile = await writeConfig({
      apiVersion: `${POD_SECURITY_CONFIG_GROUP}/v1`,
      kind: 'PodSecurityConfiguration',
      defaults: { enforce: 'baseline', warn: 'restricted' },
      exemptions: { namespaces: ['psa-exempt'], usernames: ['exempt-user'], runtimeClasses: ['kata'] },
    });
  });
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
  const server = useTestServer({
    tokens: 'tok-exempt,exempt-user,uid-e,"system:masters"',
    admission: {
      plugins: ['NamespaceLifecycle', 'PodSecurity'],
      get configFile() {
        return configFile;
      },
    },
  });
  const admin = () => server().admin;

  it('the configured defaults apply to unlabelled namespaces', async () => {
    await createNamespace(admin(), 'psa-defaulted');
    const res = await admin().post('/api/v1/namespaces/psa-defaulted/pods', privileged('x'));
    expect(res.status, res.text).to.equal(403);
    expect(res.body.message).to.equal(
      'pods "x" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork), privileged (container "c" must not set securityContext.privileged=true)',
    );
    const ok = await admin().post('/api/v1/namespaces/psa-defaulted/pods', pod('ok'));
    expect(ok.status, ok.text).to.equal(201);
    expect(warningsOf(ok)).to.deep.equal([`would violate PodSecurity "restricted:latest": ${RESTRICTED_PLAIN}`]);
  });

  it('exempt namespaces, usernames and runtime classes pass', async () => {
    await createNamespace(admin(), 'psa-exempt');
    expect((await admin().post('/api/v1/namespaces/psa-exempt/pods', privileged('x'))).status).to.equal(201);
    await createNamespace(admin(), 'psa-users');
    const asExempt = admin().as({ token: 'tok-exempt' });
    const byUser = await asExempt.post('/api/v1/namespaces/psa-users/pods', privileged('x'));
    expect(byUser.status, byUser.text).to.equal(201);
    const byRuntime = await admin().post('/api/v1/namespaces/psa-users/pods', { ...privileged('y'), spec: { ...privileged('y').spec, runtimeClassName: 'kata' } });
    expect(byRuntime.status, byRuntime.text).to.equal(201);
    expect((await admin().post('/api/v1/namespaces/psa-users/pods', privileged('z'))).status).to.equal(403);
  });

  it('labels on an exempt namespace are accepted with upstream’s warning', async () => {
    const res = await admin().patch('/api/v1/namespaces/psa-exempt', { metadata: { labels: { [ENFORCE]: 'restricted' } } }, MERGE_PATCH);
    expect(res.status, res.text).to.equal(200);
    expect(warningsOf(res)).to.deep.equal(['namespace "psa-exempt" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored']);
  });

  it('a bad configuration stops the server from starting, with a clear message', async () => {
    const file = await writeConfig({ apiVersion: `${POD_SECURITY_CONFIG_GROUP}/v1`, kind: 'PodSecurityConfiguration', defaults: { enforce: 'strict' } });
    const started = await startTestServer({ admission: { plugins: ['PodSecurity'], configFile: file } }).then(
      async (s) => {
        await s.stop();
        return 'started';
      },
      (err: Error) => err.message,
    );
    expect(started).to.equal('PodSecurity invalid: defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted');
  });
});
