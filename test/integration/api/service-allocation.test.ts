/**
 * Service networking (issue #12 item 2) against the real server and etcd: cluster IP and node
 * port allocation on create, upstream's 422s for requested values, releases on delete and on type
 * changes, dry-run, rollback of a failed create, the range repair, and the API server Service with
 * its Endpoints and EndpointSlice.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { API_SERVER_SERVICE_NAME, ENDPOINT_SLICE_SERVICE_NAME_LABEL, ENDPOINT_SLICE_SKIP_MIRROR_LABEL, vendorGroup } from '../../../lib/apis/vendor.js';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import { useEtcd } from '../../framework/etcd.js';
import { useTestServer } from '../../framework/test-server.js';

// Response bodies are read field by field, as JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type O = Record<string, any>;
const NS = 'default';
const SVCS = `/api/v1/namespaces/${NS}/services`;
const MERGE = 'application/merge-patch+json';
const ADVERTISED = '10.20.30.40';

const svc = (name: string, spec: O = {}): O => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } });
const inRange = (ip: string) => /^10\.0\.0\.(\d+)$/.test(ip) && Number(ip.split('.')[3]) >= 1 && Number(ip.split('.')[3]) <= 254;

/** Polls `fn` until it returns true (or fails after `ms`). */
async function eventually(fn: () => Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('Service networking (issue #12 item 2)', () => {
  const server = useTestServer({ serviceNetworking: { advertiseAddress: ADVERTISED, repairIntervalMs: 300, endpointIntervalMs: 300 } });
  const post = (body: O, query = '') => server().admin.post(`${SVCS}${query}`, body);
  const created = async (body: O): Promise<O> => {
    const res = await post(body);
    expect(res.status, res.text).to.equal(201);
    return res.body;
  };
  const causes = (res: O) => (res.body.details?.causes ?? []).map((c: O) => `${c.field}: ${c.message}`);

  describe('cluster IPs', () => {
    it('a ClusterIP Service gets an address of the range, SingleStack IPv4', async () => {
      const s = (await created(svc('ip-auto'))).spec;
      expect(inRange(s.clusterIP), s.clusterIP).to.equal(true);
      expect(s.clusterIPs).to.deep.equal([s.clusterIP]);
      expect(s.ipFamilies).to.deep.equal(['IPv4']);
      expect(s.ipFamilyPolicy).to.equal('SingleStack');
    });

    it('a NodePort and a LoadBalancer Service get one too; an ExternalName Service none', async () => {
      expect(inRange((await created(svc('ip-np', { type: 'NodePort' }))).spec.clusterIP)).to.equal(true);
      expect(inRange((await created(svc('ip-lb', { type: 'LoadBalancer' }))).spec.clusterIP)).to.equal(true);
      const ext = (await created(svc('ip-ext', { type: 'ExternalName', externalName: 'db.example.com' }))).spec;
      expect(ext).to.not.have.any.keys('clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy');
    });

    it('headless: None is kept; with a selector SingleStack, without one RequireDualStack with both families', async () => {
      const withSelector = (await created(svc('headless-sel', { clusterIP: 'None', selector: { app: 'x' } }))).spec;
      expect(withSelector).to.deep.include({ clusterIP: 'None', clusterIPs: ['None'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
      const bare = (await created(svc('headless-bare', { clusterIP: 'None' }))).spec;
      expect(bare).to.deep.include({ clusterIP: 'None', clusterIPs: ['None'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' });
    });

    it('PreferDualStack on a single-stack cluster gets the one family', async () => {
      const s = (await created(svc('prefer', { ipFamilyPolicy: 'PreferDualStack' }))).spec;
      expect(s.ipFamilies).to.deep.equal(['IPv4']);
      expect(s.clusterIPs).to.have.length(1);
    });

    it('RequireDualStack, an unconfigured family or an address of it are 422 with upstream messages', async () => {
      const dual = await post(svc('dual', { ipFamilyPolicy: 'RequireDualStack' }));
      expect(dual.status).to.equal(422);
      expect(dual.body.message).to.equal('Service "dual" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services');
      const v6 = await post(svc('v6', { ipFamilies: ['IPv6'] }));
      expect(causes(v6)).to.deep.equal(['spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster']);
      const v6ip = await post(svc('v6ip', { clusterIP: 'fd00::10' }));
      expect(causes(v6ip)).to.deep.equal(['spec.clusterIPs[0]: Invalid value: []string{"fd00::10"}: IPv6 is not configured on this cluster']);
    });

    it('a requested address is taken; taking it again or one outside the range is 422', async () => {
      expect((await created(svc('req-a', { clusterIP: '10.0.0.2' }))).spec.clusterIPs).to.deep.equal(['10.0.0.2']);
      const again = await post(svc('req-b', { clusterIP: '10.0.0.2' }));
      expect(again.status).to.equal(422);
      expect(again.body.message).to.equal(
        'Service "req-b" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.2"}: failed to allocate IP 10.0.0.2: provided IP is already allocated',
      );
      const outside = await post(svc('req-c', { clusterIP: '10.9.9.9' }));
      expect(causes(outside)).to.deep.equal([
        'spec.clusterIPs: Invalid value: []string{"10.9.9.9"}: failed to allocate IP 10.9.9.9: the provided IP (10.9.9.9) is not in the valid range. The range of valid IPs is 10.0.0.0/24',
      ]);
    });

    it('no two Services share an address', async () => {
      const ips = await Promise.all(Array.from({ length: 12 }, async (_, i) => (await created(svc(`many-${i}`))).spec.clusterIP as string));
      expect(new Set(ips).size).to.equal(ips.length);
    });
  });

  describe('node ports', () => {
    it('NodePort ports get ports of the range; a port number listed twice shares one', async () => {
      const s = (await created(svc('np-auto', { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80, protocol: 'UDP' }, { name: 'c', port: 81 }] }))).spec;
      const [a, b, c] = s.ports.map((p: O) => p.nodePort);
      expect(a).to.be.within(30000, 32767);
      expect(b).to.equal(a);
      expect(c).to.be.within(30000, 32767).and.not.equal(a);
    });

    it('a requested port is taken; taking it again or one outside the range is 422', async () => {
      expect((await created(svc('np-a', { type: 'NodePort', ports: [{ port: 80, nodePort: 30020 }] }))).spec.ports[0].nodePort).to.equal(30020);
      const again = await post(svc('np-b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30020 }] }));
      expect(again.status).to.equal(422);
      expect(again.body.message).to.equal('Service "np-b" is invalid: spec.ports[0].nodePort: Invalid value: 30020: provided port is already allocated');
      const outside = await post(svc('np-c', { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] }));
      expect(causes(outside)).to.deep.equal(['spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767']);
    });

    it('a failed node port gives back the cluster IP taken before it', async () => {
      const res = await post(svc('np-rollback', { type: 'NodePort', clusterIP: '10.0.0.3', ports: [{ port: 80, nodePort: 30020 }] }));
      expect(res.status).to.equal(422);
      expect((await created(svc('np-rollback-2', { clusterIP: '10.0.0.3' }))).spec.clusterIP).to.equal('10.0.0.3');
    });

    it('LoadBalancer: node ports, and a health check node port with externalTrafficPolicy Local; none when allocateLoadBalancerNodePorts is false', async () => {
      const local = (await created(svc('lb-local', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }))).spec;
      expect(local.ports[0].nodePort).to.be.within(30000, 32767);
      expect(local.healthCheckNodePort).to.be.within(30000, 32767).and.not.equal(local.ports[0].nodePort);
      const none = (await created(svc('lb-none', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false }))).spec;
      expect(none.ports[0]).to.not.have.property('nodePort');
    });
  });

  describe('release', () => {
    it('a deleted Service gives back its address and node ports, and takes its Endpoints along', async () => {
      await created(svc('rel', { type: 'NodePort', clusterIP: '10.0.0.4', ports: [{ port: 80, nodePort: 30021 }] }));
      expect((await server().admin.post(`/api/v1/namespaces/${NS}/endpoints`, { metadata: { name: 'rel' }, subsets: [] })).status).to.equal(201);
      expect((await server().admin.delete(`${SVCS}/rel`)).status).to.equal(200);
      expect((await server().admin.get(`/api/v1/namespaces/${NS}/endpoints/rel`)).status).to.equal(404);
      await created(svc('rel-again', { type: 'NodePort', clusterIP: '10.0.0.4', ports: [{ port: 80, nodePort: 30021 }] }));
    });

    // The update starts from the watch cache's object without copying it (tryUpdateReadsOnly): the
    // reset of the new status must not reach the stored one, which a read from the cache shows.
    it('a dry-run type change away from LoadBalancer leaves the stored status as it was', async () => {
      await created(svc('lb-keep', { type: 'LoadBalancer' }));
      const ingress = [{ ip: '192.0.2.7' }];
      const st = await server().admin.patch(`${SVCS}/lb-keep/status`, { status: { loadBalancer: { ingress } } }, MERGE);
      expect(st.status, st.text).to.equal(200);
      const dry = await server().admin.patch(`${SVCS}/lb-keep?dryRun=All`, { spec: { type: 'ClusterIP', externalTrafficPolicy: null, allocateLoadBalancerNodePorts: null } }, MERGE);
      expect(dry.status, dry.text).to.equal(200);
      expect(dry.body.status.loadBalancer).to.deep.equal({});
      const cached = await server().admin.get(`${SVCS}/lb-keep?resourceVersion=0`);
      expect(cached.body.spec.type).to.equal('LoadBalancer');
      expect(cached.body.status.loadBalancer).to.deep.equal({ ingress: [{ ...ingress[0], ipMode: 'VIP' }] });
    });

    it('a type change to ClusterIP releases the node ports; to ExternalName the address; back allocates again', async () => {
      const np = await created(svc('morph', { type: 'NodePort', clusterIP: '10.0.0.5', ports: [{ port: 80, nodePort: 30022 }] }));
      const toClusterIP = await server().admin.put(`${SVCS}/morph`, { ...np, spec: { ...np.spec, type: 'ClusterIP', externalTrafficPolicy: undefined } });
      expect(toClusterIP.status, toClusterIP.text).to.equal(200);
      expect(toClusterIP.body.spec.ports[0]).to.not.have.property('nodePort');
      await created(svc('morph-port', { type: 'NodePort', ports: [{ port: 80, nodePort: 30022 }] }));
      const toExternal = await server().admin.patch(`${SVCS}/morph`, { spec: { type: 'ExternalName', externalName: 'x.example.com' } }, MERGE);
      expect(toExternal.status, toExternal.text).to.equal(200);
      expect(toExternal.body.spec).to.not.have.any.keys('clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy');
      await created(svc('morph-ip', { clusterIP: '10.0.0.5' }));
      const back = await server().admin.patch(`${SVCS}/morph`, { spec: { type: 'NodePort', externalName: null } }, MERGE);
      expect(back.status, back.text).to.equal(200);
      expect(inRange(back.body.spec.clusterIP)).to.equal(true);
      expect(back.body.spec.clusterIP).to.not.equal('10.0.0.5');
      expect(back.body.spec.ports[0].nodePort).to.be.within(30000, 32767).and.not.equal(30022);
    });

    it('a PUT that creates allocates as a POST does', async () => {
      const res = await server().admin.put(`${SVCS}/put-new`, svc('put-new', { type: 'NodePort', clusterIP: '10.0.0.11' }));
      expect(res.status, res.text).to.equal(201);
      expect(res.body.spec.clusterIPs).to.deep.equal(['10.0.0.11']);
      expect(res.body.spec.ports[0].nodePort).to.be.within(30000, 32767);
      expect((await post(svc('put-new-2', { clusterIP: '10.0.0.11' }))).status).to.equal(422);
    });

    it('an update that leaves the allocated values out keeps them (re-applying a manifest)', async () => {
      const first = (await created(svc('keep', { type: 'NodePort' }))).spec;
      const res = await server().admin.put(`${SVCS}/keep`, svc('keep', { type: 'NodePort' }));
      expect(res.status, res.text).to.equal(200);
      expect(res.body.spec.clusterIP).to.equal(first.clusterIP);
      expect(res.body.spec.ports[0].nodePort).to.equal(first.ports[0].nodePort);
    });
  });

  describe('dry-run and failed writes', () => {
    it('a dry-run takes nothing', async () => {
      const dry = await post(svc('dry', { type: 'NodePort', clusterIP: '10.0.0.6', ports: [{ port: 80, nodePort: 30023 }] }), '?dryRun=All');
      expect(dry.status, dry.text).to.equal(201);
      expect(dry.body.spec.clusterIPs).to.deep.equal(['10.0.0.6']);
      await created(svc('dry-real', { type: 'NodePort', clusterIP: '10.0.0.6', ports: [{ port: 80, nodePort: 30023 }] }));
      const auto = await post(svc('dry-auto', { type: 'NodePort' }), '?dryRun=All');
      expect(auto.status).to.equal(201);
      expect(auto.body.spec.ipFamilies).to.deep.equal(['IPv4']);
    });

    it('a dry-run create shows what upstream shows for "any": the network address and node ports from 32769 (spec 000 § Modifying-request query parameters)', async () => {
      const dry = await post(svc('dry-any', { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] }), '?dryRun=All');
      expect(dry.status, dry.text).to.equal(201);
      expect(dry.body.spec.clusterIPs).to.deep.equal(['10.0.0.0']);
      expect(dry.body.spec.ports.map((p: O) => p.nodePort)).to.deep.equal([32769, 32770]);
      expect((await server().admin.get(`${SVCS}/dry-any`)).status).to.equal(404);
    });

    it('a dry-run checks a requested node port against the taken ones, a requested address only against the range (as upstream)', async () => {
      await created(svc('dry-taken', { type: 'NodePort', clusterIP: '10.0.0.14', ports: [{ port: 80, nodePort: 30031 }] }));
      const sameIP = await post(svc('dry-same-ip', { clusterIP: '10.0.0.14' }), '?dryRun=All');
      expect(sameIP.status, sameIP.text).to.equal(201);
      const samePort = await post(svc('dry-same-port', { type: 'NodePort', ports: [{ port: 80, nodePort: 30031 }] }), '?dryRun=All');
      expect(samePort.status).to.equal(422);
      expect(causes(samePort)).to.deep.equal(['spec.ports[0].nodePort: Invalid value: 30031: provided port is already allocated']);
      const outside = await post(svc('dry-outside', { clusterIP: '10.9.9.9' }), '?dryRun=All');
      expect(outside.status).to.equal(422);
    });

    it('a dry-run update to NodePort, or from ExternalName with a requested address, reserves nothing', async () => {
      await created(svc('dry-upd'));
      const toNodePort = await server().admin.patch(`${SVCS}/dry-upd?dryRun=All`, { spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30029 }] } }, MERGE);
      expect(toNodePort.status, toNodePort.text).to.equal(200);
      expect(toNodePort.body.spec.ports[0].nodePort).to.equal(30029);
      expect((await server().admin.get(`${SVCS}/dry-upd`)).body.spec.type).to.equal('ClusterIP');
      await created(svc('dry-upd-port', { type: 'NodePort', ports: [{ port: 80, nodePort: 30029 }] }));

      await created(svc('dry-ext', { type: 'ExternalName', externalName: 'db.example.com' }));
      const toClusterIP = await server().admin.patch(`${SVCS}/dry-ext?dryRun=All`, { spec: { type: 'ClusterIP', externalName: null, clusterIP: '10.0.0.12' } }, MERGE);
      expect(toClusterIP.status, toClusterIP.text).to.equal(200);
      expect(toClusterIP.body.spec.clusterIPs).to.deep.equal(['10.0.0.12']);
      await created(svc('dry-ext-ip', { clusterIP: '10.0.0.12' }));
    });

    it('a dry-run update that drops a node port or a delete releases nothing', async () => {
      const np = await created(svc('dry-keep', { type: 'NodePort', clusterIP: '10.0.0.13', ports: [{ port: 80, nodePort: 30030 }] }));
      const toClusterIP = await server().admin.put(`${SVCS}/dry-keep?dryRun=All`, { ...np, spec: { ...np.spec, type: 'ClusterIP', externalTrafficPolicy: undefined, ports: [{ port: 80 }] } });
      expect(toClusterIP.status, toClusterIP.text).to.equal(200);
      expect(toClusterIP.body.spec.ports[0]).to.not.have.property('nodePort');
      expect((await server().admin.delete(`${SVCS}/dry-keep?dryRun=All`)).status).to.equal(200);
      expect((await post(svc('dry-keep-port', { type: 'NodePort', ports: [{ port: 80, nodePort: 30030 }] }))).status).to.equal(422);
      expect((await post(svc('dry-keep-ip', { clusterIP: '10.0.0.13' }))).status).to.equal(422);
    });

    it('a create that fails after allocating (validation, name taken) gives back what it took', async () => {
      const invalid = await post(svc('Bad_Name', { clusterIP: '10.0.0.7' }));
      expect(invalid.status).to.equal(422);
      await created(svc('fail-1', { clusterIP: '10.0.0.7' }));
      const taken = await post(svc('fail-1', { clusterIP: '10.0.0.8', type: 'NodePort', ports: [{ port: 80, nodePort: 30024 }] }));
      expect(taken.status).to.equal(409);
      await created(svc('fail-2', { clusterIP: '10.0.0.8', type: 'NodePort', ports: [{ port: 80, nodePort: 30024 }] }));
    });
  });

  describe('repair', () => {
    let storage: Etcd3Storage;
    let close: () => void;
    before(async () => {
      const { endpoint } = await useEtcd();
      const client = newEtcdClient([endpoint]);
      storage = new Etcd3Storage(client);
      close = () => client.close();
    });
    after(() => close());

    it('frees the address and port of a Service removed behind the server (after three runs)', async () => {
      await created(svc('leak', { type: 'NodePort', clusterIP: '10.0.0.9', ports: [{ port: 80, nodePort: 30025 }] }));
      await storage.delete(`${server().prefix}/core/services/${NS}/leak`, {});
      expect((await post(svc('leak-early', { clusterIP: '10.0.0.9' }))).status).to.equal(422);
      await eventually(async () => (await post(svc('leak-ip', { clusterIP: '10.0.0.9' }))).status === 201, 15_000, 'the leaked IP to be freed');
      await eventually(async () => (await post(svc('leak-port', { type: 'NodePort', ports: [{ port: 80, nodePort: 30025 }] }))).status === 201, 15_000, 'the leaked port to be freed');
    });

    it('records the addresses and ports of Services that the ranges lack', async () => {
      await created(svc('lost', { type: 'NodePort', clusterIP: '10.0.0.10', ports: [{ port: 80, nodePort: 30026 }] }));
      for (const name of ['serviceips', 'servicenodeports']) {
        await storage.guaranteedUpdate(`${server().prefix}/ranges/${name}`, {}, (cur) => ({ ...cur, data: '' }));
      }
      await eventually(async () => (await post(svc('lost-ip', { clusterIP: '10.0.0.10' }))).status === 422, 10_000, 'the IP to be recorded again');
      await eventually(async () => (await post(svc('lost-port', { type: 'NodePort', ports: [{ port: 80, nodePort: 30026 }] }))).status === 422, 10_000, 'the port to be recorded again');
    });
  });

  describe('the API server Service', () => {
    it(`default/${API_SERVER_SERVICE_NAME}: the first address, port 443 https to the secure port, upstream's labels`, async () => {
      const res = await server().admin.get(`${SVCS}/${API_SERVER_SERVICE_NAME}`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.metadata.labels).to.deep.equal({ component: 'apiserver', provider: API_SERVER_SERVICE_NAME });
      const port = Number(new URL(server().url).port);
      expect(res.body.spec).to.deep.include({ clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'], type: 'ClusterIP', sessionAffinity: 'None', ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] });
      expect(res.body.spec.ports).to.deep.equal([{ name: 'https', protocol: 'TCP', port: 443, targetPort: port }]);
    });

    it('its Endpoints and EndpointSlice hold the advertised address', async () => {
      const port = Number(new URL(server().url).port);
      let endpoints: O = {};
      await eventually(async () => {
        endpoints = (await server().admin.get(`/api/v1/namespaces/${NS}/endpoints/${API_SERVER_SERVICE_NAME}`)).body;
        return endpoints.subsets?.[0]?.addresses?.length === 1;
      }, 10_000, 'the endpoints');
      expect(endpoints.metadata.labels).to.deep.equal({ [ENDPOINT_SLICE_SKIP_MIRROR_LABEL]: 'true' });
      expect(endpoints.subsets).to.deep.equal([{ addresses: [{ ip: ADVERTISED }], ports: [{ name: 'https', port, protocol: 'TCP' }] }]);
      const slice = (await server().admin.get(`/apis/${vendorGroup('discovery')}/v1/namespaces/${NS}/endpointslices/${API_SERVER_SERVICE_NAME}`)).body;
      expect(slice.metadata.labels).to.deep.equal({ [ENDPOINT_SLICE_SERVICE_NAME_LABEL]: API_SERVER_SERVICE_NAME });
      expect(slice.addressType).to.equal('IPv4');
      expect(slice.endpoints).to.deep.equal([{ addresses: [ADVERTISED], conditions: { ready: true } }]);
      expect(slice.ports).to.deep.equal([{ name: 'https', protocol: 'TCP', port }]);
    });
  });
});

describe('Service networking on a dual-stack cluster (issue #12 item 2)', () => {
  const server = useTestServer({ serviceNetworking: { serviceClusterIPRange: '10.0.0.0/24,fd00::/108', advertiseAddress: ADVERTISED } });
  const put = (name: string, spec: O) => server().admin.put(`${SVCS}/${name}`, svc(name, spec));

  it('SingleStack gets the primary family; RequireDualStack and PreferDualStack get both, primary first', async () => {
    const single = await server().admin.post(SVCS, svc('ds-single'));
    expect(single.body.spec).to.deep.include({ ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
    const required = (await server().admin.post(SVCS, svc('ds-required', { ipFamilyPolicy: 'RequireDualStack' }))).body.spec;
    expect(required.ipFamilies).to.deep.equal(['IPv4', 'IPv6']);
    expect(inRange(required.clusterIPs[0])).to.equal(true);
    expect(required.clusterIPs[1]).to.match(/^fd00::[0-9a-f]{1,4}$/);
    const v6first = (await server().admin.post(SVCS, svc('ds-v6', { ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv6'] }))).body.spec;
    expect(v6first.ipFamilies).to.deep.equal(['IPv6', 'IPv4']);
    expect(v6first.clusterIP).to.equal(v6first.clusterIPs[0]).and.match(/^fd00::/);
  });

  it('a requested secondary address is taken; downgrading to SingleStack releases it, upgrading allocates one', async () => {
    const created = (await server().admin.post(SVCS, svc('ds-moves', { ipFamilyPolicy: 'RequireDualStack', clusterIPs: ['10.0.0.12', 'fd00::50'], clusterIP: '10.0.0.12' }))).body;
    expect(created.spec.clusterIPs).to.deep.equal(['10.0.0.12', 'fd00::50']);
    const down = await put('ds-moves', { ...created.spec, ipFamilyPolicy: 'SingleStack' });
    expect(down.status, down.text).to.equal(200);
    expect(down.body.spec).to.deep.include({ clusterIPs: ['10.0.0.12'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
    expect((await server().admin.post(SVCS, svc('ds-taker', { clusterIP: 'fd00::50' }))).status).to.equal(201);
    const up = await put('ds-moves', { ...down.body.spec, ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv4', 'IPv6'] });
    expect(up.status, up.text).to.equal(200);
    expect(up.body.spec.clusterIPs[0]).to.equal('10.0.0.12');
    expect(up.body.spec.clusterIPs[1]).to.match(/^fd00::/).and.not.equal('fd00::50');
  });
});

