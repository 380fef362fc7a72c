/**
 * `pods/portforward` and the proxies through the real server (issue #20; spec 000 § Verb
 * mapping): stock kubectl 1.30 `port-forward` (SPDY/3.1, upgraded through the server to the
 * kubelet stand-in) carries a TCP round trip; `nodes/proxy/<path>` reaches the kubelet with the
 * server's client certificate; `pods/proxy` and `services/proxy` reach a plain HTTP server on a
 * non-loopback address of this machine (upstream refuses loopback pod IPs) through the pod IP
 * and through the Service's Endpoints; a user without `get` on `nodes/proxy` is refused (403).
 */
import { expect } from 'chai';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { type ConnectEnv, NS, expectStatus, pod, portForward, roundTrip, startConnectEnv, stopKubectlChildren } from './fixtures.js';

const PODS = `/api/v1/namespaces/${NS}/pods`;

/** A non-loopback IPv4 address of this machine; throws when there is none (the proxy tests need one). */
function hostAddress(): string {
  const found = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal);
  if (!found) throw new Error('no non-loopback IPv4 address on this machine: the pods/proxy and services/proxy tests need one');
  return found.address;
}

describe('pods/portforward, nodes/proxy, pods/proxy, services/proxy (issue #20; spec 000 § Verb mapping)', function () {
  this.timeout(60_000);
  let env: ConnectEnv;
  let backend: Server;
  let backendPort = 0;
  const ip = hostAddress();
  const admin = () => env.server.admin;

  before(async () => {
    env = await startConnectEnv(['nobody']);
    backend = createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json', 'x-backend': 'yes' }).end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization ?? null })));
    await new Promise<void>((resolve) => backend.listen(0, ip, () => resolve()));
    backendPort = (backend.address() as AddressInfo).port;
    const p = pod('web', ['c1'], 'n1');
    ((p.spec as { containers: Array<{ ports: unknown }> }).containers[0]!).ports = [{ containerPort: backendPort, name: 'http' }];
    expectStatus(await admin().post(PODS, p), 201);
    const created = (await admin().get(`${PODS}/web`)).body;
    expectStatus(await admin().put(`${PODS}/web/status`, { ...created, status: { ...created.status, phase: 'Running', podIP: ip, podIPs: [{ ip }] } }), 200);
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ name: 'http', port: 80, targetPort: backendPort }] } };
    expectStatus(await admin().post(`/api/v1/namespaces/${NS}/services`, svc), 201);
    const eps = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'web' }, subsets: [{ addresses: [{ ip, targetRef: { kind: 'Pod', name: 'web', namespace: NS } }], ports: [{ name: 'http', port: backendPort }] }] };
    const existing = await admin().get(`/api/v1/namespaces/${NS}/endpoints/web`);
    if (existing.status === 200) expectStatus(await admin().put(`/api/v1/namespaces/${NS}/endpoints/web`, { ...eps, metadata: existing.body.metadata }), 200);
    else expectStatus(await admin().post(`/api/v1/namespaces/${NS}/endpoints`, eps), 201);
  });
  after(async () => {
    stopKubectlChildren();
    await new Promise<void>((resolve) => (backend ? backend.close(() => resolve()) : resolve()));
    await env?.stop();
  });

  it('kubectl port-forward (SPDY/3.1) carries a TCP round trip through the server to the kubelet', async () => {
    const pf = await portForward(env.kubeconfigs.admin!, ['-n', NS, 'port-forward', 'pod/web', ':8080']);
    try {
      expect(await roundTrip(pf.port, 'ping')).to.equal('ping');
    } finally {
      pf.stop();
    }
    const seen = env.kubelet.seen(`/portForward/${NS}/web`).at(-1)!;
    expect(seen.headers.upgrade).to.equal('SPDY/3.1');
    expect(seen.clientCN).to.equal('apiserver-kubelet-client');
  });

  it('nodes/proxy/<path> reaches the kubelet with the query; a user without nodes/proxy is 403', async () => {
    const r = await admin().get('/api/v1/nodes/n1/proxy/metrics/cadvisor?x=1');
    expectStatus(r, 200);
    expect(r.body).to.deep.equal({ path: '/metrics/cadvisor', query: 'x=1' });
    expect(env.kubelet.seen('/metrics/cadvisor').at(-1)!.clientCN).to.equal('apiserver-kubelet-client');
    expect((await admin().get('/api/v1/nodes/n1/proxy/')).body).to.deep.equal({ path: '/', query: '' });
    const denied = await admin().as({ token: 'nobody-token' }).get('/api/v1/nodes/n1/proxy/metrics');
    expectStatus(denied, 403);
    expect(denied.body.message).to.equal('nodes "n1" is forbidden: User "nobody" cannot get resource "nodes/proxy" in API group "" at the cluster scope');
    expectStatus(await admin().get('/api/v1/nodes/nope/proxy/metrics'), 404);
  });

  it('pods/proxy reaches the pod IP on its first port; the root without a slash redirects (301)', async () => {
    const r = await admin().get(`${PODS}/web/proxy/hello/?a=b`);
    expectStatus(r, 200);
    expect(r.headers['x-backend']).to.equal('yes');
    expect(r.body).to.deep.equal({ method: 'GET', url: '/hello/?a=b', auth: null });
    const post = await admin().post(`${PODS}/http:web:${backendPort}/proxy/p`, { x: 1 });
    expect(post.body, post.text).to.include({ method: 'POST', url: '/p' });
    const redirect = await admin().get(`${PODS}/web/proxy`);
    expectStatus(redirect, 301);
    expect(redirect.headers.location).to.equal(`${PODS}/web/proxy/`);
    const bad = await admin().get(`${PODS}/ftp:web:80/proxy/`);
    expectStatus(bad, 400);
    expect(bad.body.message).to.equal('invalid pod request "ftp:web:80"');
  });

  it('services/proxy reaches an endpoint of the named or numbered port; an unknown port is 503', async () => {
    const r = await admin().get(`/api/v1/namespaces/${NS}/services/web:http/proxy/x`);
    expectStatus(r, 200);
    expect(r.body).to.deep.equal({ method: 'GET', url: '/x', auth: null });
    expect((await admin().get(`/api/v1/namespaces/${NS}/services/web:80/proxy/y`)).body.url).to.equal('/y');
    const none = await admin().get(`/api/v1/namespaces/${NS}/services/web:81/proxy/`);
    expectStatus(none, 503);
    expect(none.body.message).to.equal('no service port 81 found for service "web"');
  });
});
