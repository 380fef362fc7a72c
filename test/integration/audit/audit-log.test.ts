/**
 * The audit log end to end (issue #16 item 4): a server with a policy file and a log file
 * records every request once per stage the policy asks for — a create and get at
 * RequestResponse, an error, a watch, a 401 — and a webhook backend receives EventLists.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultAuditOptions } from '../../../lib/audit/options.js';
import type { AuditEvent } from '../../../lib/audit/types.js';
import { FLOWCONTROL_GROUP } from '../../../lib/apis/flowcontrol/v1/types.js';
import { DEPRECATED_API_AUDIT_ANNOTATION, REMOVED_RELEASE_AUDIT_ANNOTATION } from '../../../lib/apis/vendor.js';
import { AuditWebhookServer } from '../../framework/audit-webhook.js';
import { type TestServer, startTestServer } from '../../framework/test-server.js';

const POLICY = `apiVersion: audit.orch.io/v1
kind: Policy
omitStages: []
rules:
- level: None
  nonResourceURLs: ["/readyz*", "/livez*", "/healthz*", "/metrics"]
- level: RequestResponse
  resources:
  - group: ""
    resources: ["configmaps"]
  omitManagedFields: true
- level: Metadata
`;

/** Polls `read` until `done` holds (the log is written asynchronously); bounded. */
async function eventually<T>(read: () => T, done: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function stagesOf(events: AuditEvent[], id: string): string[] {
  return events.filter((e) => e.auditID === id).map((e) => e.stage);
}

describe('audit log backend (integration)', function () {
  this.timeout(60_000);
  let dir: string;
  let server: TestServer;
  let logFile: string;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'orch-audit-'));
    const policyFile = path.join(dir, 'policy.yaml');
    writeFileSync(policyFile, POLICY);
    logFile = path.join(dir, 'log', 'audit.log');
    const audit = defaultAuditOptions();
    audit.policyFile = policyFile;
    audit.log.path = logFile;
    server = await startTestServer({ audit });
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const events = () =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as AuditEvent);

  it('records each request once per stage with the upstream event shape', async () => {
    const ns = 'default';
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'audited' }, data: { k: 'v' } };
    const created = await server.admin.post(`/api/v1/namespaces/${ns}/configmaps`, cm, { headers: { 'Audit-ID': 'client-chosen-id' } });
    expect(created.status).to.equal(201);
    expect(created.headers['audit-id']).to.equal('client-chosen-id');
    const got = await server.admin.get(`/api/v1/namespaces/${ns}/configmaps/audited`);
    const missing = await server.admin.get(`/api/v1/namespaces/${ns}/configmaps/nope`);
    expect(missing.status).to.equal(404);
    const version = await server.admin.get('/version');
    const unauthorized = await server.anonymous.get('/api/v1/namespaces', { creds: { token: 'not-a-valid-token' } });
    expect(unauthorized.status).to.equal(401);
    const watch = await server.admin.rawStream(`/api/v1/namespaces/${ns}/secrets?watch=true&timeoutSeconds=1`);
    const watchID = watch.headers['audit-id'] as string;
    await new Promise<void>((resolve) => {
      watch.body.on('end', () => resolve());
      watch.body.resume();
    });
    const ids = [got, missing, version, unauthorized].map((r) => r.headers['audit-id'] as string);
    for (const id of [...ids, watchID]) expect(id).to.match(/^[0-9a-f-]{36}$/);

    const all = await eventually(events, (evs) => stagesOf(evs, watchID).length === 3 && stagesOf(evs, ids[3]!).length === 1, 'the watch and 401 events');
    // Exactly once per stage.
    const seen = new Set<string>();
    for (const e of all) {
      const key = `${e.auditID}/${e.stage}`;
      expect(seen.has(key), key).to.equal(false);
      seen.add(key);
      expect(e.kind).to.equal('Event');
      expect(e.apiVersion).to.equal('audit.orch.io/v1');
      expect(e.stageTimestamp).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      expect(e.requestReceivedTimestamp).to.match(/\.\d{6}Z$/);
    }
    expect(all.some((e) => e.requestURI.startsWith('/readyz'))).to.equal(false);

    const create = all.filter((e) => e.auditID === 'client-chosen-id');
    expect(create.map((e) => e.stage)).to.deep.equal(['RequestReceived', 'ResponseComplete']);
    const done = create[1]!;
    expect(done).to.include({ level: 'RequestResponse', verb: 'create', requestURI: `/api/v1/namespaces/${ns}/configmaps` });
    expect(done.objectRef).to.deep.equal({ resource: 'configmaps', namespace: ns, name: 'audited', apiVersion: 'v1' });
    expect(done.responseStatus).to.deep.equal({ metadata: {}, code: 201 });
    expect(done.requestObject).to.deep.equal(cm);
    const response = done.responseObject as { metadata: Record<string, unknown>; data: unknown };
    expect(response.data).to.deep.equal({ k: 'v' });
    expect(response.metadata.uid).to.be.a('string');
    expect(response.metadata).to.not.have.property('managedFields');
    expect(done.annotations?.['authorization.orch.io/decision']).to.equal('allow');
    expect(done.annotations?.['authorization.orch.io/reason']).to.be.a('string');
    expect(done.user.username).to.be.a('string');
    expect(done.sourceIPs).to.deep.equal(['127.0.0.1']);
    expect(create[0]).to.not.have.property('responseStatus');
    expect(create[0]!.stageTimestamp).to.equal(create[0]!.requestReceivedTimestamp);

    const [getID, missingID, versionID, unauthorizedID] = ids as [string, string, string, string];
    expect(stagesOf(all, getID)).to.deep.equal(['RequestReceived', 'ResponseComplete']);
    expect((all.find((e) => e.auditID === getID && e.stage === 'ResponseComplete')!.responseObject as { metadata: { name: string } }).metadata.name).to.equal('audited');

    const notFound = all.find((e) => e.auditID === missingID && e.stage === 'ResponseComplete')!;
    expect(notFound.responseStatus).to.deep.equal({ metadata: {}, status: 'Failure', message: 'configmaps "nope" not found', reason: 'NotFound', details: { name: 'nope', kind: 'configmaps' }, code: 404 });
    expect(notFound.responseObject).to.include({ kind: 'Status', code: 404 });

    const versionEv = all.filter((e) => e.auditID === versionID);
    expect(versionEv.map((e) => e.stage)).to.deep.equal(['RequestReceived', 'ResponseComplete']);
    expect(versionEv[1]).to.include({ level: 'Metadata', verb: 'get', requestURI: '/version' });
    expect(versionEv[1]).to.not.have.property('objectRef');
    expect(versionEv[1]).to.not.have.property('requestObject');

    // Upstream's failed-authentication handler: one ResponseStarted event, no user.
    const unauth = all.filter((e) => e.auditID === unauthorizedID);
    expect(unauth).to.have.length(1);
    expect(unauth[0]).to.include({ stage: 'ResponseStarted', level: 'Metadata', verb: 'list' });
    expect(unauth[0]!.user).to.deep.equal({});
    expect(unauth[0]!.responseStatus).to.deep.equal({ metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });

    const w = all.filter((e) => e.auditID === watchID);
    expect(w.map((e) => e.stage)).to.deep.equal(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    expect(w[1]).to.include({ verb: 'watch', level: 'Metadata' });
    expect(w[2]!.responseStatus).to.deep.equal({ metadata: {}, code: 200 });
  });

  it('annotates a request served by a deprecated API version (spec 001 § Effects of calling a deprecated endpoint)', async () => {
    const res = await server.admin.get(`/apis/${FLOWCONTROL_GROUP}/v1beta3/flowschemas/exempt`);
    expect(res.status).to.equal(200);
    expect(res.headers.warning).to.match(/v1beta3 FlowSchema is deprecated in v1\.29\+, unavailable in v1\.32\+/);
    const id = res.headers['audit-id'] as string;
    const all = await eventually(events, (evs) => stagesOf(evs, id).length === 2, 'the deprecated request events');
    const done = all.find((e) => e.auditID === id && e.stage === 'ResponseComplete')!;
    expect(done.annotations?.[DEPRECATED_API_AUDIT_ANNOTATION]).to.equal('true');
    expect(done.annotations?.[REMOVED_RELEASE_AUDIT_ANNOTATION]).to.equal('1.32');
    const current = await server.admin.get(`/apis/${FLOWCONTROL_GROUP}/v1/flowschemas/exempt`);
    const currentID = current.headers['audit-id'] as string;
    const plain = (await eventually(events, (evs) => stagesOf(evs, currentID).length === 2, 'the v1 request events')).find((e) => e.auditID === currentID && e.stage === 'ResponseComplete')!;
    expect(plain.annotations ?? {}).to.not.have.property(DEPRECATED_API_AUDIT_ANNOTATION);
  });

  it('records the impersonated user and a forbid decision', async () => {
    const res = await server.admin.get('/api/v1/namespaces/default/secrets', { headers: { 'Impersonate-User': 'someone' } });
    expect(res.status).to.equal(403);
    const id = res.headers['audit-id'] as string;
    const evs = await eventually(events, (all) => stagesOf(all, id).length === 2, 'the impersonated request');
    const done = evs.find((e) => e.auditID === id && e.stage === 'ResponseComplete')!;
    expect(done.impersonatedUser).to.deep.equal({ username: 'someone', groups: ['system:authenticated'] });
    expect(done.user.username).to.not.equal('someone');
    expect(done.annotations?.['authorization.orch.io/decision']).to.equal('forbid');
    expect(done.responseStatus).to.include({ code: 403, reason: 'Forbidden' });
    expect(evs.find((e) => e.auditID === id && e.stage === 'RequestReceived')).to.not.have.property('impersonatedUser');
  });

  it('refuses to start with an invalid policy, naming the problem as upstream', async () => {
    const bad = path.join(dir, 'bad-policy.yaml');
    writeFileSync(bad, 'apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n- level: Loud\n');
    const audit = defaultAuditOptions();
    audit.policyFile = bad;
    audit.log.path = path.join(dir, 'unused.log');
    const err = await startTestServer({ audit }).then(
      async (s) => {
        await s.stop();
        return undefined;
      },
      (e: Error) => e,
    );
    expect(err?.message).to.equal(`loading audit policy file: rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${bad}`);
  });

  it('counts events and levels in /metrics', async () => {
    const text = (await server.admin.get('/metrics')).text as string;
    expect(text).to.match(/^apiserver_audit_event_total [1-9]\d*$/m);
    expect(text).to.match(/^apiserver_audit_level_total\{level="RequestResponse"\} [1-9]\d*$/m);
    expect(text).to.match(/^apiserver_audit_level_total\{level="None"\} [1-9]\d*$/m);
    expect(text).to.contain('# HELP apiserver_audit_requests_rejected_total [ALPHA] Counter of apiserver requests rejected due to an error in audit logging backend.');
  });
});

describe('audit webhook backend (integration)', function () {
  this.timeout(90_000);
  let dir: string;
  let webhook: AuditWebhookServer;
  const servers: TestServer[] = [];

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'orch-audit-webhook-'));
    writeFileSync(path.join(dir, 'policy.yaml'), POLICY.replace('- level: RequestResponse', '- level: Metadata'));
    webhook = await AuditWebhookServer.start();
  });
  after(async () => {
    for (const s of servers) await s.stop();
    await webhook?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function serverWith(batch: Partial<ReturnType<typeof defaultAuditOptions>['webhook']['batch']>): Promise<TestServer> {
    const audit = defaultAuditOptions();
    audit.policyFile = path.join(dir, 'policy.yaml');
    audit.webhook.configFile = await webhook.writeKubeconfig(dir);
    audit.webhook.batch = { ...audit.webhook.batch, ...batch };
    const s = await startTestServer({ audit });
    servers.push(s);
    return s;
  }

  it('delivers every event exactly once in EventList batches to a slow webhook under load', async () => {
    webhook.behaviour = { delayMs: 300, hang: false };
    const server = await serverWith({ maxBatchWaitMs: 200 });
    const ids: string[] = [];
    // ~200 requests a second: 20 rounds of 10 concurrent reads, one round every 50 ms.
    for (let round = 0; round < 20; round++) {
      const tick = new Promise((r) => setTimeout(r, 50));
      const res = await Promise.all(Array.from({ length: 10 }, () => server.admin.get('/api/v1/namespaces/default/configmaps')));
      for (const r of res) {
        expect(r.status).to.equal(200);
        ids.push(r.headers['audit-id'] as string);
      }
      await tick;
    }
    const want = new Set(ids);
    const received = await eventually(
      () => webhook.events.filter((e) => want.has(e.auditID)),
      (evs) => evs.length >= 2 * ids.length,
      'every event at the webhook',
    );
    expect(received).to.have.length(2 * ids.length);
    const keys = new Set(received.map((e) => `${e.auditID}/${e.stage}`));
    expect(keys.size).to.equal(2 * ids.length);
    expect(webhook.envelopes.every((e) => e.kind === 'EventList' && e.apiVersion === 'audit.orch.io/v1')).to.equal(true);
    expect(Math.max(...webhook.batches.map((b) => b.length))).to.be.greaterThan(1);
    const metrics = (await server.admin.get('/metrics')).text as string;
    expect(metrics).to.not.match(/^apiserver_audit_error_total\{plugin="(buffered|webhook)"\}/m);
  });

  it('drops and counts events once the buffer is full, without failing requests', async () => {
    webhook.behaviour = { delayMs: 0, hang: true };
    const server = await serverWith({ bufferSize: 5, maxBatchSize: 1, throttleQPS: 0.01, throttleBurst: 1 });
    for (let i = 0; i < 10; i++) expect((await server.admin.get('/api/v1/namespaces/default/configmaps')).status).to.equal(200);
    const metrics = (await server.admin.get('/metrics')).text as string;
    const m = /^apiserver_audit_error_total\{plugin="buffered"\} (\d+)$/m.exec(metrics);
    expect(m, metrics.split('\n').filter((l) => l.includes('audit')).join('\n')).to.not.equal(null);
    expect(Number(m![1])).to.be.greaterThan(0);
    webhook.behaviour = { delayMs: 0, hang: false };
  });
});
