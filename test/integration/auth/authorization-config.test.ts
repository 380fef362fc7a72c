import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { APISERVER_CONFIG_GROUP, vendorGroup } from '../../../lib/apis/vendor.js';
import { TokenReviewWebhook } from '../../framework/token-review-webhook.js';
import { type TestServer, startTestServer } from '../../framework/test-server.js';

const TOKENS = ['allowtoken,team-allow,u1,', 'denytoken,team-deny,u2,', 'slowtoken,team-slow,u3,slowers', 'caroltoken,carol,u4,', 'davetoken,dave,u5,'].join('\n');
const as = (token: string) => ({ creds: { token } });
const policy = (spec: object) => JSON.stringify({ apiVersion: `${vendorGroup('abac.authorization')}/v1beta1`, kind: 'Policy', spec });
const answer = (version: string, status: object) => ({ body: { apiVersion: `${vendorGroup('authorization')}/${version}`, kind: 'SubjectAccessReview', status } });

/** Polls `probe` until it returns true (at most `ms`). */
async function eventually(probe: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The value of the reload counter with `status` on /metrics. */
async function reloads(server: TestServer, status: string): Promise<number> {
  const text = (await server.admin.get('/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith('apiserver_authorization_config_controller_automatic_reloads_total{') && l.includes(`status="${status}"`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('authorization configuration file (spec 001 § Authorization: AuthorizationConfiguration, § Limits)', () => {
  let dir: string;
  let first: TokenReviewWebhook;
  let second: TokenReviewWebhook;
  let server: TestServer;
  let configFile: string;
  let firstKubeconfig: string;
  let secondKubeconfig: string;

  /** The configuration: webhook `first` (team-* users), webhook `second` (failurePolicy Deny), then ABAC. */
  const config = (authorizers: object[]) => JSON.stringify({ apiVersion: `${APISERVER_CONFIG_GROUP}/v1beta1`, kind: 'AuthorizationConfiguration', authorizers });
  const firstEntry = () => ({
    type: 'Webhook',
    name: 'first',
    webhook: {
      timeout: '1s',
      subjectAccessReviewVersion: 'v1',
      matchConditionSubjectAccessReviewVersion: 'v1',
      failurePolicy: 'NoOpinion',
      connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: firstKubeconfig },
      matchConditions: [{ expression: "request.user.startsWith('team-')" }],
    },
  });
  const secondEntry = (matchConditions = [{ expression: "request.resourceAttributes.namespace != 'skip'" }]) => ({
    type: 'Webhook',
    name: 'second',
    webhook: {
      timeout: '2s',
      unauthorizedTTL: '1ms',
      subjectAccessReviewVersion: 'v1beta1',
      matchConditionSubjectAccessReviewVersion: 'v1',
      failurePolicy: 'Deny',
      connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: secondKubeconfig },
      matchConditions,
    },
  });
  const abacEntry = { type: 'ABAC', name: 'abac' };

  before(async function () {
    this.timeout(60_000);
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-authz-config-'));
    first = await TokenReviewWebhook.start();
    second = await TokenReviewWebhook.start();
    firstKubeconfig = await first.writeKubeconfig();
    secondKubeconfig = await second.writeKubeconfig();
    first.respond = (review) => {
      const user = review.body.spec.user;
      if (user === 'team-allow') return answer('v1', { allowed: true });
      if (user === 'team-deny') return answer('v1', { allowed: false, denied: true, reason: 'first says no' });
      if (user === 'team-slow') return { hang: true };
      return answer('v1', { allowed: false });
    };
    second.respond = () => answer('v1beta1', { allowed: false, reason: 'second has no opinion' });
    const policyFile = path.join(dir, 'policy.jsonl');
    await writeFile(policyFile, [policy({ user: 'carol', namespace: 'default', resource: '*', apiGroup: '*' }), policy({ group: 'slowers', namespace: 'default', resource: '*', apiGroup: '*' })].join('\n'));
    configFile = path.join(dir, 'authz.json');
    await writeFile(configFile, config([firstEntry(), secondEntry(), abacEntry]));
    server = await startTestServer({ tokens: TOKENS, authorization: { config: configFile, policyFile } });
  });
  after(async () => {
    await server?.stop();
    first.release({ status: 500, body: {} });
    await first?.stop();
    await second?.stop();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    first.calls.length = 0;
    second.calls.length = 0;
  });

  it('the first webhook allows a user its match conditions select; later authorizers are not asked', async () => {
    expect((await server.admin.get('/api/v1/namespaces/x/pods', as('allowtoken'))).status).to.equal(200);
    expect(first.calls).to.have.length(1);
    expect(first.calls[0]!.body.apiVersion).to.equal(`${vendorGroup('authorization')}/v1`);
    expect(second.calls).to.have.length(0);
  });

  it('a denial of the first webhook is final, with its reason', async () => {
    const res = await server.admin.get('/api/v1/namespaces/default/pods', as('denytoken'));
    expect(res.status).to.equal(403);
    expect(res.body.message).to.match(/: first says no$/);
  });

  it('each configured authorizer counts its allows and denies under its type and name (apiserver_authorization_decisions_total)', async () => {
    const decisions = async (name: string, decision: string) => {
      const text = (await server.admin.get('/metrics')).text;
      const line = text.split('\n').find((l) => l.startsWith(`apiserver_authorization_decisions_total{type="Webhook",name="${name}",decision="${decision}"} `));
      return line ? Number(line.split(' ').at(-1)) : 0;
    };
    const allowed = await decisions('first', 'allowed');
    const denied = await decisions('first', 'denied');
    expect((await server.admin.get('/api/v1/namespaces/x/pods', as('allowtoken'))).status).to.equal(200);
    expect((await server.admin.get('/api/v1/namespaces/default/pods', as('denytoken'))).status).to.equal(403);
    expect(await decisions('first', 'allowed')).to.equal(allowed + 1);
    expect(await decisions('first', 'denied')).to.equal(denied + 1);
  });

  it('a false match condition skips the webhook: the next one is asked, then ABAC allows', async () => {
    expect((await server.admin.get('/api/v1/namespaces/default/pods', as('caroltoken'))).status).to.equal(200);
    expect(first.calls).to.have.length(0);
    expect(second.calls).to.have.length(1);
    expect(second.calls[0]!.body.apiVersion).to.equal(`${vendorGroup('authorization')}/v1beta1`);
  });

  it('a match condition false for the request skips that webhook too', async () => {
    const res = await server.admin.get('/api/v1/namespaces/skip/pods', as('caroltoken'));
    expect(second.calls).to.have.length(0);
    expect(res.status).to.equal(403);
    expect(res.body.message).to.match(/: No policy matched\.$/);
  });

  it('a match condition that fails to evaluate, with failurePolicy Deny, denies (upstream answers 500 with the error)', async () => {
    const res = await server.admin.get('/version', as('caroltoken'));
    expect(second.calls).to.have.length(0);
    expect(res.status).to.equal(500);
    expect(res.text).to.include("cel evaluation error: expression 'request.resourceAttributes.namespace != 'skip'' resulted in error");
  });

  it('a webhook that times out (timeout 1s) is no opinion with failurePolicy NoOpinion: the chain goes on', async function () {
    this.timeout(10_000);
    const start = Date.now();
    expect((await server.admin.get('/api/v1/namespaces/default/secrets', as('slowtoken'))).status).to.equal(200);
    expect(Date.now() - start).to.be.at.least(900);
    expect(second.calls).to.have.length(1);
  });

  it('is reloaded when the file changes: the new chain applies, the reload is counted', async function () {
    this.timeout(15_000);
    const before = await reloads(server, 'success');
    await writeFile(configFile, config([secondEntry([]), abacEntry]));
    await eventually(async () => (await reloads(server, 'success')) > before);
    first.calls.length = 0;
    const res = await server.admin.get('/api/v1/namespaces/x/configmaps', as('allowtoken'));
    expect(res.status).to.equal(403);
    expect(first.calls).to.have.length(0);
    expect(second.calls.length).to.be.at.least(1);
  });

  it('a bad new file keeps the chain in effect, is logged and counted as a failure', async function () {
    this.timeout(15_000);
    const failures = await reloads(server, 'failure');
    await writeFile(configFile, config([secondEntry([])]));
    await eventually(async () => (await reloads(server, 'failure')) > failures);
    expect((await server.admin.get('/metrics')).text).to.match(/apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds\{apiserver_id_hash="sha256:[0-9a-f]{64}",status="failure"\} \d+/);
    expect((await server.admin.get('/api/v1/namespaces/default/pods', as('caroltoken'))).status).to.equal(200);
  });
});

describe('authorization configuration file: start-up (spec 001 § Authorization)', () => {
  it('a file that does not validate stops the server from starting, with upstream message', async function () {
    this.timeout(30_000);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'orch-authz-config-'));
    try {
      const file = path.join(dir, 'authz.yaml');
      await writeFile(file, `apiVersion: ${APISERVER_CONFIG_GROUP}/v1beta1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: roles\n`);
      let err: Error | undefined;
      await startTestServer({ authorization: { config: file } }).then(
        (s) => s.stop(),
        (e: Error) => (err = e),
      );
      expect(err?.message).to.equal('expected name rbac for authorizer RBAC instead of roles');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
