/**
 * The aggregation layer end to end (issue #20 capability 1; spec 000 § Other paths, § Content
 * negotiation, § Table representation; spec 001 § Authenticating proxy flags): a real server
 * proxying `wardle.example.com/v1alpha1` to a small extension server started here
 * (test/framework/extension-apiserver.ts), which accepts only the proxy client certificate.
 */
import { request as httpsRequest } from 'node:https';
import { expect } from 'chai';
import { META_GROUP, SYSTEM_NAMESPACE, UPSTREAM_PROTOBUF_MEDIA_TYPE, upstreamAlias, vendorGroup } from '../../../lib/apis/vendor.js';
import {
  APISERVICES_PATH,
  ExtensionAPIServer,
  WARDLE_APISERVICE,
  WARDLE_GROUP,
  WARDLE_NAMESPACE,
  WARDLE_SERVICE,
  WARDLE_VERSION,
  availableCondition,
  nonLoopbackIPv4,
  registerWardle,
  wardleEndpoints,
} from '../../framework/extension-apiserver.js';
import { kubectl } from '../../framework/kubectl.js';
import { type ProxyPKI, createProxyPKI } from '../../framework/proxy-pki.js';
import { eventually } from '../../framework/storage-contract.js';
import { type TestServer, startTestServer } from '../../framework/test-server.js';

const NS = WARDLE_NAMESPACE;
const SERVICE = WARDLE_SERVICE;
const APISERVICE = WARDLE_APISERVICE;
const BASE = `/apis/${WARDLE_GROUP}/${WARDLE_VERSION}/namespaces/${NS}/flunders`;
const APISERVICES = APISERVICES_PATH;
const AGGREGATED = `application/json;g=${vendorGroup('apidiscovery')};v=v2;as=APIGroupDiscoveryList`;

describe('aggregation layer (spec 000 § Other paths; spec 001 § Authenticating proxy flags; issue #20)', function () {
  this.timeout(60_000);
  let pki: ProxyPKI;
  let ext: ExtensionAPIServer;
  let server: TestServer;
  const ip = nonLoopbackIPv4();

  const endpoints = () => wardleEndpoints(ip, ext.port);
  const waitFor = async (name: string, reason: string) => {
    await eventually(async () => (await availableCondition(server.admin, name))?.reason === reason, 20_000, `apiservice ${name} ${reason}`);
    return (await availableCondition(server.admin, name))!;
  };

  before(async () => {
    pki = await createProxyPKI(['aggregator']);
    ext = await ExtensionAPIServer.start(ip, `${SERVICE}.${NS}.svc`, pki.caPem, ['aggregator']);
    server = await startTestServer({
      tokens: 'alice-token,alice,uid-alice,"dev,qa"\n',
      authorization: { modes: ['AlwaysAllow'] },
      authentication: {
        requestHeaderClientCaFile: pki.caFile,
        requestHeaderAllowedNames: ['aggregator'],
        requestHeaderUsernameHeaders: ['X-Remote-User'],
        requestHeaderGroupHeaders: ['X-Remote-Group'],
        requestHeaderExtraHeadersPrefix: ['X-Remote-Extra-'],
      },
      aggregator: { proxyClient: { certPem: pki.identities.aggregator!.cert, keyPem: pki.identities.aggregator!.key }, availabilityRecheckMs: 200 },
    });
    await registerWardle(server.admin, ext, ip);
  });

  after(async () => {
    await server?.stop();
    await ext?.stop();
    await pki?.remove();
  });

  it('marks the APIService Available once its service answers discovery (reason Passed)', async () => {
    const c = await waitFor(APISERVICE, 'Passed');
    expect(c).to.include({ status: 'True', message: 'all checks passed' });
  });

  it('proxies a list with the proxy client certificate and the user in X-Remote-* headers, dropping the credential', async () => {
    const res = await server.anonymous.get(BASE, { headers: { Authorization: 'Bearer alice-token', 'X-Remote-User': 'mallory', 'X-Remote-Extra-Scopes': 'forged' } });
    expect(res.status).to.equal(200);
    expect(res.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.deep.equal(['first', 'second']);
    const seen = ext.last(BASE)!;
    expect(seen.clientCN).to.equal('aggregator');
    expect(seen.headers['x-remote-user']).to.equal('alice');
    expect(seen.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === 'x-remote-group')).to.have.length(3);
    expect(seen.headers['x-remote-group']).to.equal('dev, qa, system:authenticated');
    expect(seen.headers).not.to.have.property('authorization');
    expect(seen.headers).not.to.have.property('x-remote-extra-scopes');
  });

  it('sends an impersonated user with its extra, and no impersonation headers', async () => {
    const res = await server.admin.get(`${BASE}/first`, { headers: { 'Impersonate-User': 'jane', 'Impersonate-Group': 'team', 'Impersonate-Extra-Scopes': 'view' } });
    expect(res.status).to.equal(200);
    const seen = ext.last(`${BASE}/first`)!;
    expect(seen.headers['x-remote-user']).to.equal('jane');
    expect(seen.headers['x-remote-group']).to.equal('team, system:authenticated');
    expect(seen.headers['x-remote-extra-scopes']).to.equal('view');
    expect(Object.keys(seen.headers).filter((h) => h.startsWith('impersonate-'))).to.deep.equal([]);
  });

  it('streams a watch both ways: the initial event, then one sent later', async () => {
    const w = await server.admin.watch(`${BASE}?watch=true`);
    try {
      expect(w.status).to.equal(200);
      expect(await w.next()).to.nested.include({ type: 'ADDED', 'object.metadata.name': 'first' });
      await eventually(() => ext.openWatches === 1, 10_000, 'watch open at the extension');
      ext.emit('MODIFIED', 'later', NS);
      expect(await w.next()).to.nested.include({ type: 'MODIFIED', 'object.metadata.name': 'later' });
    } finally {
      w.close();
    }
  });

  it('streams a request body up and the answer back unchanged', async () => {
    const raw = '{"apiVersion":"wardle.example.com/v1alpha1","kind":"Flunder","metadata":{"name":"new"}}';
    const res = await server.admin.request('POST', BASE, { raw, contentType: 'application/json' });
    expect(res.status).to.equal(201);
    expect(res.text).to.equal(raw);
    expect(ext.last(BASE)!.body).to.equal(raw);
  });

  it('pipes an upgrade request through both ways, with the user headers', async () => {
    const u = new URL(server.url);
    const echoed = await new Promise<string>((resolve, reject) => {
      const req = httpsRequest({ host: u.hostname, port: u.port, path: `${BASE}/first/echo`, ca: server.admin.ca, headers: { Authorization: 'Bearer alice-token', Connection: 'Upgrade', Upgrade: 'echo' } });
      req.on('upgrade', (res, socket) => {
        expect(res.statusCode).to.equal(101);
        socket.once('data', (d: Buffer) => {
          socket.destroy();
          resolve(d.toString('utf8'));
        });
        socket.write('ping');
      });
      req.on('response', (res) => reject(new Error(`no upgrade: ${res.statusCode}`)));
      req.on('error', reject);
      req.end();
    });
    expect(echoed).to.equal('ping');
    const seen = ext.last(`${BASE}/first/echo`)!;
    expect(seen.clientCN).to.equal('aggregator');
    expect(seen.headers).to.include({ upgrade: 'echo', 'x-remote-user': 'alice' });
    expect(seen.headers).not.to.have.property('authorization');
  });

  describe('content negotiation is the extension server’s (spec 000 § Content negotiation, § Table representation)', () => {
    it('a Table request with a JSON fallback gets the JSON list the extension answers', async () => {
      const accept = `application/json;as=Table;v=v1;g=${upstreamAlias(META_GROUP)!},application/json`;
      const res = await server.admin.get(BASE, { headers: { Accept: accept } });
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/json');
      expect(res.body.kind).to.equal('FlunderList');
      expect(ext.last(BASE)!.headers.accept).to.equal(accept);
    });

    it('a protobuf-only request is the extension’s 406', async () => {
      const res = await server.admin.get(BASE, { headers: { Accept: UPSTREAM_PROTOBUF_MEDIA_TYPE } });
      expect(res.status).to.equal(406);
      expect(res.body).to.include({ kind: 'Status', reason: 'NotAcceptable' });
    });

    it('a strategic merge patch is the extension’s 415, a merge patch its 200', async () => {
      const smp = await server.admin.patch(`${BASE}/first`, { spec: {} }, 'application/strategic-merge-patch+json');
      expect(smp.status).to.equal(415);
      expect(smp.body).to.include({ reason: 'UnsupportedMediaType' });
      const merge = await server.admin.patch(`${BASE}/first`, { spec: {} }, 'application/merge-patch+json');
      expect(merge.status).to.equal(200);
    });
  });

  describe('discovery', () => {
    it('/apis lists the remote group by its priority: after every group of this server, before the upstream aliases', async () => {
      const res = await server.admin.get('/apis');
      const names: string[] = res.body.groups.map((g: { name: string }) => g.name);
      const at = names.indexOf(WARDLE_GROUP);
      expect(at).to.be.greaterThan(0);
      expect(names[at + 1]).to.equal(upstreamAlias(vendorGroup('apiregistration')));
      expect(res.body.groups[at].preferredVersion).to.deep.equal({ groupVersion: `${WARDLE_GROUP}/${WARDLE_VERSION}`, version: WARDLE_VERSION });
    });

    it('/apis/<group> is the APIGroup of the remote versions; /apis/<group>/<version> is the extension’s own list', async () => {
      const group = await server.admin.get(`/apis/${WARDLE_GROUP}`);
      expect(group.status).to.equal(200);
      expect(group.body).to.deep.include({ kind: 'APIGroup', name: WARDLE_GROUP, versions: [{ groupVersion: `${WARDLE_GROUP}/${WARDLE_VERSION}`, version: WARDLE_VERSION }] });
      const list = await server.admin.get(`/apis/${WARDLE_GROUP}/${WARDLE_VERSION}`);
      expect(list.body.resources.map((r: { name: string }) => r.name)).to.deep.equal(['flunders', 'flunders/status']);
    });

    it('aggregated discovery carries the remote version with its resources, subresources nested', async () => {
      const res = await server.admin.get('/apis', { headers: { Accept: AGGREGATED } });
      expect(res.status).to.equal(200);
      const item = res.body.items.find((i: { metadata: { name: string } }) => i.metadata.name === WARDLE_GROUP);
      expect(item.versions).to.have.length(1);
      expect(item.versions[0]).to.deep.include({ version: WARDLE_VERSION, freshness: 'Current' });
      expect(item.versions[0].resources[0]).to.deep.include({
        resource: 'flunders',
        scope: 'Namespaced',
        singularResource: 'flunder',
        shortNames: ['fl'],
        responseKind: { group: '', version: '', kind: 'Flunder' },
        subresources: [{ subresource: 'status', responseKind: { group: '', version: '', kind: 'Flunder' }, verbs: ['get', 'patch', 'update'] }],
      });
    });

    it('a higher groupPriorityMinimum lists a group earlier, even while it is unavailable', async () => {
      const name = 'v1beta1.early.example.com';
      const created = await server.admin.post(APISERVICES, {
        metadata: { name },
        spec: { service: { namespace: NS, name: 'missing' }, group: 'early.example.com', version: 'v1beta1', insecureSkipTLSVerify: true, groupPriorityMinimum: 19000, versionPriority: 1 },
      });
      expect(created.status).to.equal(201);
      const names: string[] = (await server.admin.get('/apis')).body.groups.map((g: { name: string }) => g.name);
      expect(names.slice(0, 2)).to.deep.equal([vendorGroup('apiregistration'), 'early.example.com']);
    });
  });

  it('a stock kubectl 1.30 lists the aggregated resource', async () => {
    const res = await kubectl(server.kubeconfig, ['get', 'flunders', '-n', NS]);
    expect(res.stderr).to.equal('');
    expect(res.code).to.equal(0);
    expect(res.stdout).to.match(/^NAME\s+AGE/);
    expect(res.stdout).to.match(/\nfirst\s/);
    expect(res.stdout).to.match(/\nsecond\s/);
  });

  it('publishes extension-apiserver-authentication in the system namespace', async () => {
    const res = await server.admin.get(`/api/v1/namespaces/${SYSTEM_NAMESPACE}/configmaps/extension-apiserver-authentication`);
    expect(res.status).to.equal(200);
    const data = res.body.data as Record<string, string>;
    expect(data['client-ca-file']).to.include('-----BEGIN CERTIFICATE-----');
    expect(data['requestheader-client-ca-file']!.trim()).to.equal(pki.caPem.trim());
    expect(data).to.deep.include({
      'requestheader-allowed-names': '["aggregator"]',
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
    });
  });

  describe('unavailable APIServices', () => {
    it('a missing Service is ServiceNotFound, and a request for it is 503 service unavailable', async () => {
      const c = await waitFor('v1beta1.early.example.com', 'ServiceNotFound');
      expect(c).to.include({ status: 'False', message: `service/missing in "${NS}" is not present` });
      const res = await server.admin.get('/apis/early.example.com/v1beta1/things');
      expect(res.status).to.equal(503);
      expect(res.body).to.include({ kind: 'Status', reason: 'ServiceUnavailable', message: 'service unavailable', code: 503 });
    });

    it('Endpoints without an address for the port are MissingEndpoints; deleted ones EndpointsNotFound; requests then 503', async () => {
      const empty = { ...endpoints(), subsets: [{ addresses: [{ ip }], ports: [{ name: 'other', port: ext.port }] }] };
      const current = await server.admin.get(`/api/v1/namespaces/${NS}/endpoints/${SERVICE}`);
      expect((await server.admin.put(`/api/v1/namespaces/${NS}/endpoints/${SERVICE}`, { ...empty, metadata: current.body.metadata })).status).to.equal(200);
      const missing = await waitFor(APISERVICE, 'MissingEndpoints');
      expect(missing).to.include({ status: 'False', message: `endpoints for service/${SERVICE} in "${NS}" have no addresses with port name "https"` });
      expect((await server.admin.delete(`/api/v1/namespaces/${NS}/endpoints/${SERVICE}`)).status).to.equal(200);
      const gone = await waitFor(APISERVICE, 'EndpointsNotFound');
      expect(gone).to.include({ status: 'False', message: `cannot find endpoints for service/${SERVICE} in "${NS}"` });
      const res = await server.admin.get(BASE);
      expect(res.status).to.equal(503);
      expect(res.body).to.include({ reason: 'ServiceUnavailable', message: 'service unavailable' });
    });

    it('a server that does not answer discovery is FailedDiscoveryCheck', async () => {
      expect((await server.admin.post(`/api/v1/namespaces/${NS}/endpoints`, { ...endpoints(), subsets: [{ addresses: [{ ip }], ports: [{ name: 'https', port: 1 }] }] })).status).to.equal(201);
      const c = await waitFor(APISERVICE, 'FailedDiscoveryCheck');
      expect(c.status).to.equal('False');
      const url = `https://${ip}:1/apis/${WARDLE_GROUP}/${WARDLE_VERSION}`;
      expect(c.message).to.equal(`failing or missing response from ${url}: Get "${url}": dial tcp ${ip}:1: connect: connection refused`);
    });

    it('the condition turns True again when the endpoints come back', async () => {
      const current = await server.admin.get(`/api/v1/namespaces/${NS}/endpoints/${SERVICE}`);
      expect((await server.admin.put(`/api/v1/namespaces/${NS}/endpoints/${SERVICE}`, { ...endpoints(), metadata: current.body.metadata })).status).to.equal(200);
      await waitFor(APISERVICE, 'Passed');
      expect((await server.admin.get(BASE)).status).to.equal(200);
    });

    it('counts each turn to unavailable by its reason, and gauges every APIService (aggregator_unavailable_apiservice{,_total})', async () => {
      const res = await server.admin.get('/metrics');
      expect(res.status).to.equal(200);
      const text = res.text;
      const sample = (series: string) => text.split('\n').find((l) => l.startsWith(`${series} `))?.split(' ')[1];
      // Passed → MissingEndpoints counts once; EndpointsNotFound and FailedDiscoveryCheck followed an unavailable state.
      expect(sample(`aggregator_unavailable_apiservice_total{name="${APISERVICE}",reason="MissingEndpoints"}`)).to.equal('1');
      expect(text).to.not.include(`aggregator_unavailable_apiservice_total{name="${APISERVICE}",reason="EndpointsNotFound"}`);
      expect(sample(`aggregator_unavailable_apiservice{name="${APISERVICE}"}`)).to.equal('0');
      expect(sample('aggregator_unavailable_apiservice{name="v1beta1.early.example.com"}')).to.equal('1');
      expect(sample('aggregator_unavailable_apiservice{name="v1."}')).to.equal('0');
      expect(text).to.match(/^# HELP aggregator_unavailable_apiservice_total \[ALPHA\] Counter of APIServices which are marked as unavailable broken down by APIService name and reason\.$/m);
    });
  });
});
