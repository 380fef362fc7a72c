/**
 * `pods/log`, `pods/exec` and `pods/attach` through the real server to a kubelet stand-in
 * (issue #20; spec 000 § Verb mapping, § What the service does): stock kubectl 1.30 `logs`,
 * `logs -f` and `exec -- echo hi` (WebSocket v5); the kubelet sees the server's client
 * certificate and the kubelet's query names, never the client's token; PodLogOptions validation
 * and the container choice with upstream's messages; `get` authorizes the WebSocket exec as
 * upstream v1.30 does and `create` the POST one; CONNECT admission sees the PodExecOptions.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { WebSocket } from 'ws';
import { UPSTREAM_DOMAIN, channelProtocol, vendorGroup } from '../../../lib/apis/vendor.js';
import { findKubectl, kubectl, kubectlOk } from '../../framework/kubectl.js';
import { type ConnectEnv, NS, expectStatus, pod, startConnectEnv } from './fixtures.js';
import { KubeletStandIn } from './kubelet-stand-in.js';
import { covers } from '../../conformance/covers.js';

const RBAC = `/apis/${vendorGroup('rbac.authorization')}/v1`;
const AR = vendorGroup('admissionregistration');
const PODS = `/api/v1/namespaces/${NS}/pods`;
const run = promisify(execFile);

/** Opens a WebSocket exec of `podName` as `token` (admin's certificate when absent); resolves with the status code and, on 101, the frames until close. */
function wsExec(env: ConnectEnv, query: string, token?: string, podName = 'p1'): Promise<{ status: number; frames: Buffer[]; body: string }> {
  const url = `${env.server.url.replace('https', 'wss')}${PODS}/${podName}/exec?${query}`;
  const p = env.server;
  const creds = token ? { headers: { Authorization: `Bearer ${token}` } } : { cert: p.admin.creds.cert, key: p.admin.creds.key };
  const ws = new WebSocket(url, [channelProtocol(5, UPSTREAM_DOMAIN)], { ca: p.admin.ca, ...creds });
  return new Promise((resolve, reject) => {
    const frames: Buffer[] = [];
    ws.on('message', (data: Buffer) => frames.push(data));
    ws.on('close', () => resolve({ status: 101, frames, body: '' }));
    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, frames, body: Buffer.concat(chunks).toString('utf8') }));
    });
    ws.on('error', reject);
  });
}

describe('pods/log, pods/exec, pods/attach to a kubelet stand-in (issue #20; spec 000 § Verb mapping)', function () {
  this.timeout(60_000);
  let env: ConnectEnv;
  const admin = () => env.server.admin;

  before(async () => {
    env = await startConnectEnv(['viewer', 'execer'], { admission: { plugins: ['NamespaceLifecycle', 'NodeRestriction', 'ValidatingAdmissionPolicy'] } });
    for (const p of [pod('p1', ['c1'], 'n1'), pod('p2', ['c1', 'missing', 'broken', 'refused', 'busy'], 'n1'), pod('p3', ['c1'], '')]) expectStatus(await admin().post(PODS, p), 201);
    const rules = { viewer: [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] }], execer: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods/exec'], verbs: ['get', 'create'] }] };
    for (const [user, r] of Object.entries(rules)) {
      expectStatus(await admin().post(`${RBAC}/namespaces/${NS}/roles`, { apiVersion: `${vendorGroup('rbac.authorization')}/v1`, kind: 'Role', metadata: { name: user }, rules: r }), 201);
      const binding = { apiVersion: `${vendorGroup('rbac.authorization')}/v1`, kind: 'RoleBinding', metadata: { name: user }, roleRef: { apiGroup: vendorGroup('rbac.authorization'), kind: 'Role', name: user }, subjects: [{ kind: 'User', name: user, apiGroup: vendorGroup('rbac.authorization') }] };
      expectStatus(await admin().post(`${RBAC}/namespaces/${NS}/rolebindings`, binding), 201);
    }
  });
  after(async () => {
    await env?.stop();
  });

  it(`kubectl logs reads the container log from the kubelet with the server client certificate${covers('000 § Resource operations › Subresource read')}`, async () => {
    const out = await kubectlOk(env.kubeconfigs.viewer!, ['-n', NS, 'logs', 'p1', '--tail=2']);
    expect(out).to.equal('p1/c1 line 1\np1/c1 line 2\n');
    const seen = env.kubelet.seen(`/containerLogs/${NS}/p1/c1`).at(-1)!;
    expect(seen.clientCN).to.equal('apiserver-kubelet-client');
    expect(seen.query.get('tailLines')).to.equal('2');
    expect(seen.headers.authorization).to.equal(undefined);
  });

  it('a log follows: the first line arrives before the kubelet ends the stream (chunked text/plain)', async () => {
    const stream = await admin().rawStream(`${PODS}/p1/log?follow=true`);
    expect(stream.status).to.equal(200);
    expect(stream.headers['content-type']).to.match(/^text\/plain/);
    expect(stream.headers['transfer-encoding']).to.equal('chunked');
    const body = stream.body as AsyncIterable<Buffer>;
    const it = body[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value.toString()).to.equal('p1/c1 line 1\n');
    env.kubelet.releaseFollow();
    let rest = '';
    for (let r = await it.next(); !r.done; r = await it.next()) rest += r.value.toString();
    expect(rest).to.equal('p1/c1 line 2\np1/c1 line 3\n');
    const out = await kubectlOk(env.kubeconfigs.viewer!, ['-n', NS, 'logs', '-f', 'p1']);
    expect(out).to.equal('p1/c1 line 1\np1/c1 line 2\np1/c1 line 3\n');
  });

  it('the container: required among several, checked against the pod; the kubelet 404 is NotFound', async () => {
    let r = await admin().get(`${PODS}/p2/log`);
    expectStatus(r, 400);
    expect(r.body.message).to.equal('a container name must be specified for pod p2, choose one of: [c1 missing broken refused busy]');
    r = await admin().get(`${PODS}/p1/log?container=nope`);
    expectStatus(r, 400);
    expect(r.body.message).to.equal('container nope is not valid for pod p1');
    expect((await admin().get(`${PODS}/p2/log?container=c1&tailLines=1`)).text).to.equal('p2/c1 line 1\n');
    // The kubelet's 404 (a container it does not know) comes back as upstream's generic NotFound.
    r = await admin().get(`${PODS}/p2/log?container=missing`);
    expectStatus(r, 404);
    expect(r.body).to.include({ reason: 'NotFound', message: 'the server could not find the requested resource ( pods/log p2)' });
    expect(r.body.details).to.deep.equal({ name: 'p2', kind: 'pods/log' });
    const answers: Array<[string, number, string, string]> = [
      ['broken', 500, 'InternalError', 'Internal error occurred: runtime failure'],
      ['refused', 400, 'BadRequest', 'bad log request'],
      ['busy', 503, 'ServiceUnavailable', 'the server is currently unable to handle the request ( pods/log p2)'],
    ];
    for (const [container, code, reason, message] of answers) {
      r = await admin().get(`${PODS}/p2/log?container=${container}`);
      expectStatus(r, code);
      expect(r.body).to.include({ reason, message });
    }
    expect((await admin().get(`${PODS}/missing/log`)).body.message).to.equal('pods "missing" not found');
  });

  it('PodLogOptions are validated as upstream (422) and parsed (400)', async () => {
    let r = await admin().get(`${PODS}/p1/log?tailLines=-1`);
    expectStatus(r, 422);
    expect(r.body.message).to.equal('PodLogOptions "p1" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0');
    expect(r.body.details.causes).to.deep.equal([{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'tailLines' }]);
    r = await admin().get(`${PODS}/p1/log?limitBytes=0`);
    expectStatus(r, 422);
    r = await admin().get(`${PODS}/p1/log?tailLines=abc`);
    expectStatus(r, 400);
    expect(r.body.message).to.equal('strconv.ParseInt: parsing "abc": invalid syntax');
  });

  it('the log of an unscheduled pod is empty; exec on it is 400 no host', async () => {
    const r = await admin().get(`${PODS}/p3/log`);
    expectStatus(r, 200);
    expect(r.text).to.equal('');
    const e = await admin().post(`${PODS}/p3/exec?command=ls&stdout=true`, undefined);
    expectStatus(e, 400);
    expect(e.body.message).to.equal('pod p3 does not have a host assigned');
  });

  it('kubectl exec -- echo hi runs over WebSocket through the server (the kubelet query names)', async () => {
    const out = await kubectlOk(env.kubeconfigs.execer!, ['-n', NS, 'exec', 'p1', '--', 'echo', 'hi']);
    expect(out).to.equal('hi\n');
    const seen = env.kubelet.seen(`/exec/${NS}/p1/c1`).at(-1)!;
    expect(seen.query.getAll('command')).to.deep.equal(['echo', 'hi']);
    expect(seen.query.get('output')).to.equal('1');
    expect(seen.headers.upgrade).to.equal('websocket');
    expect(seen.clientCN).to.equal('apiserver-kubelet-client');
  });

  it('kubectl exec over SPDY/3.1 (its fallback, POST: authorized as create) goes through as an upgrade too', async () => {
    const { stdout } = await run(findKubectl(), ['--kubeconfig', env.kubeconfigs.execer!, '-n', NS, 'exec', 'p1', '--', 'echo', 'spdy'], { env: { ...process.env, KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'false' }, timeout: 30_000 });
    expect(stdout).to.equal('spdy\n');
    const seen = env.kubelet.seen(`/exec/${NS}/p1/c1`).at(-1)!;
    expect(seen).to.include({ method: 'POST' });
    expect(seen.headers.upgrade).to.equal('SPDY/3.1');
    expect(seen.query.getAll('command')).to.deep.equal(['echo', 'spdy']);
  });

  it('attach over WebSocket; exec without an upgrade is 400; another method 405; a path after it 404', async () => {
    const url = `${PODS}/p1/attach?stdout=true`;
    const ws = new WebSocket(`${env.server.url.replace('https', 'wss')}${url}`, [channelProtocol(5, UPSTREAM_DOMAIN)], { ca: admin().ca, cert: admin().creds.cert, key: admin().creds.key });
    const frames: Buffer[] = [];
    ws.on('message', (d: Buffer) => frames.push(d));
    expect(await new Promise((resolve) => ws.on('open', () => resolve(ws.protocol)))).to.equal(channelProtocol(5, UPSTREAM_DOMAIN));
    await new Promise((resolve) => ws.on('close', resolve));
    expect(frames[0]!.toString()).to.equal('\x01attached\n');
    const r = await admin().post(`${PODS}/p1/exec?command=ls&stdout=true`, undefined);
    expectStatus(r, 400);
    expect(r.body.message).to.equal('Upgrade request required');
    expectStatus(await admin().put(`${PODS}/p1/exec`, {}), 405);
    // Only a proxy takes a path after the subresource; a connect subresource names one object.
    expectStatus(await admin().get(`${PODS}/p1/log/extra`), 404);
    expectStatus(await admin().get('/api/v1/pods/p1/log'), 404);
  });

  it(`authorization: get on pods/log reads logs; exec needs pods/exec (get for the WebSocket GET, create for POST)${covers('000 § Verb mapping › GET or HEAD', '000 § Verb mapping › POST', '001 § Errors › 403 Forbidden')}`, async () => {
    const denied = await kubectl(env.kubeconfigs.viewer!, ['-n', NS, 'exec', 'p1', '--', 'echo', 'hi']);
    expect(denied.code).to.not.equal(0);
    expect(denied.stderr).to.include('pods "p1" is forbidden: User "viewer" cannot');
    const ws = await wsExec(env, 'command=echo&command=x&stdout=true', 'viewer-token');
    expect(ws.status).to.equal(403);
    expect(JSON.parse(ws.body).message).to.equal('pods "p1" is forbidden: User "viewer" cannot get resource "pods/exec" in API group "" in the namespace "connect"');
    const post = await admin().as({ token: 'viewer-token' }).post(`${PODS}/p1/exec?command=ls&stdout=true`, undefined);
    expectStatus(post, 403);
    expect(post.body.message).to.equal('pods "p1" is forbidden: User "viewer" cannot create resource "pods/exec" in API group "" in the namespace "connect"');
    const allowed = await wsExec(env, 'command=echo&command=x&stdout=true', 'execer-token');
    expect(allowed.status).to.equal(101);
    expect(allowed.frames.map((f) => f.toString())).to.deep.equal(['\x01x\n', '\x03{"metadata":{},"status":"Success"}']);
  });

  it('CONNECT admission sees the PodExecOptions: a ValidatingAdmissionPolicy on pods/exec denies', async () => {
    const policy = {
      apiVersion: `${AR}/v1`,
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'no-reboot' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CONNECT'], resources: ['pods/exec'] }] },
        validations: [{ expression: "object.kind == 'PodExecOptions' && !('reboot' in object.command)", message: 'no reboot' }],
      },
    };
    expectStatus(await admin().post(`/apis/${AR}/v1/validatingadmissionpolicies`, policy), 201);
    const binding = { apiVersion: `${AR}/v1`, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'no-reboot' }, spec: { policyName: 'no-reboot', validationActions: ['Deny'] } };
    expectStatus(await admin().post(`/apis/${AR}/v1/validatingadmissionpolicybindings`, binding), 201);
    let res = await wsExec(env, 'command=reboot&stdout=true');
    for (let i = 0; res.status === 101 && i < 250; i++) {
      await sleep(20);
      res = await wsExec(env, 'command=reboot&stdout=true');
    }
    expect(res.status, res.body).to.equal(422);
    expect(JSON.parse(res.body).message).to.equal("pods \"p1\" is forbidden: ValidatingAdmissionPolicy 'no-reboot' with binding 'no-reboot' denied request: no reboot");
    expect(await kubectlOk(env.kubeconfigs.admin!, ['-n', NS, 'exec', 'p1', '--', 'echo', 'ok'])).to.equal('ok\n');
  });

  it('a kubelet that cannot be reached is 500; a node without an address of a preferred type is 500', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const nodes = [
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'down' }, status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: closedPort } } } },
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'nameless' }, status: { addresses: [{ type: 'Other', address: 'x' }] } },
    ];
    for (const n of nodes) expectStatus(await admin().post('/api/v1/nodes', n), 201);
    for (const p of [pod('on-down', ['c1'], 'down'), pod('on-nameless', ['c1'], 'nameless')]) expectStatus(await admin().post(PODS, p), 201);
    const logs = await admin().get(`${PODS}/on-down/log`);
    expectStatus(logs, 500);
    expect(logs.body.message).to.equal(`Get "https://127.0.0.1:${closedPort}/containerLogs/${NS}/on-down/c1": dial tcp 127.0.0.1:${closedPort}: connect: connection refused`);
    expect(logs.body.reason).to.equal(undefined);
    const exec = await wsExec(env, 'command=ls&stdout=true', undefined, 'on-down');
    expect(exec.status).to.equal(500);
    expect(JSON.parse(exec.body)).to.include({ message: `error dialing backend: dial tcp 127.0.0.1:${closedPort}: connect: connection refused`, code: 500 }).and.not.have.property('reason');
    const none = await admin().get(`${PODS}/on-nameless/log`);
    expectStatus(none, 500);
    expect(none.body.message).to.equal('Internal error occurred: no preferred addresses found; known addresses: [{Other x}]');
  });

  it('a kubelet whose serving certificate the --kubelet-certificate-authority does not sign is refused', async () => {
    const impostor = await KubeletStandIn.start();
    try {
      const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'impostor' }, status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: impostor.port } } } };
      expectStatus(await admin().post('/api/v1/nodes', node), 201);
      expectStatus(await admin().post(PODS, pod('on-impostor', ['c1'], 'impostor')), 201);
      const r = await admin().get(`${PODS}/on-impostor/log`);
      expectStatus(r, 500);
      expect(r.body.message).to.equal(`Get "https://127.0.0.1:${impostor.port}/containerLogs/${NS}/on-impostor/c1": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
      expect(impostor.requests).to.deep.equal([]);
    } finally {
      await impostor.stop();
    }
  });

  it('discovery lists the connect subresources with upstream kinds and verbs', async () => {
    const list = (await admin().get('/api/v1')).body.resources as Array<{ name: string; kind: string; verbs: string[] }>;
    const pick = (name: string) => list.find((r) => r.name === name);
    expect(pick('pods/exec')).to.include({ kind: 'PodExecOptions' });
    expect(pick('pods/exec')!.verbs).to.deep.equal(['create', 'get']);
    expect(pick('pods/log')).to.include({ kind: 'Pod' });
    expect(pick('pods/log')!.verbs).to.deep.equal(['get']);
    expect(pick('pods/portforward')).to.include({ kind: 'PodPortForwardOptions' });
    expect(pick('pods/attach')).to.include({ kind: 'PodAttachOptions' });
    expect(pick('nodes/proxy')!.verbs).to.deep.equal(['create', 'delete', 'get', 'patch', 'update']);
    expect(pick('services/proxy')).to.include({ kind: 'ServiceProxyOptions' });
  });
});
