import { expect } from 'chai';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';

const MERGE = 'application/merge-patch+json';
const NET = `/apis/${vendorGroup('networking')}/v1`;
const DISCOVERY = `/apis/${vendorGroup('discovery')}/v1`;
const NODE = `/apis/${vendorGroup('node')}/v1`;
const SCHEDULING = `/apis/${vendorGroup('scheduling')}/v1`;
const INGRESSES = `${NET}/namespaces/default/ingresses`;
const POLICIES = `${NET}/namespaces/default/networkpolicies`;
const CLASSES = `${NET}/ingressclasses`;
const SLICES = `${DISCOVERY}/namespaces/default/endpointslices`;
const RUNTIME_CLASSES = `${NODE}/runtimeclasses`;
const PRIORITY_CLASSES = `${SCHEDULING}/priorityclasses`;

const ingress = (name: string, pathType?: string) => ({
  metadata: { name },
  spec: { rules: [{ host: 'web.example.com', http: { paths: [{ path: '/', ...(pathType ? { pathType } : {}), backend: { service: { name: 'web', port: { number: 80 } } } }] } }] },
});
const names = (res: { body: { items: { metadata: { name: string } }[] } }) => res.body.items.map((i) => i.metadata.name).sort();
const causes = (res: { body: { details: { causes: { field: string; message: string }[] } } }) => res.body.details.causes.map((c) => `${c.field}: ${c.message}`);

describe('networking, discovery, node and scheduling kinds over HTTP (issue #12)', () => {
  const server = useTestServer();

  describe('discovery', () => {
    it('serves each group version with its resources, scopes, short names and the ingress status subresource', async () => {
      const net = (await server().admin.get(NET)).body;
      const byName = Object.fromEntries(net.resources.map((r: { name: string }) => [r.name, r]));
      expect(Object.keys(byName)).to.include.members(['ingressclasses', 'ingresses', 'ingresses/status', 'networkpolicies']);
      expect(byName.ingresses).to.deep.include({ kind: 'Ingress', namespaced: true, shortNames: ['ing'] });
      expect(byName.networkpolicies).to.deep.include({ kind: 'NetworkPolicy', namespaced: true, shortNames: ['netpol'] });
      expect(byName.ingressclasses).to.deep.include({ kind: 'IngressClass', namespaced: false });
      const sched = (await server().admin.get(SCHEDULING)).body;
      expect(sched.resources.find((r: { name: string }) => r.name === 'priorityclasses')).to.deep.include({ kind: 'PriorityClass', namespaced: false, shortNames: ['pc'] });
      expect((await server().admin.get(DISCOVERY)).body.resources.map((r: { name: string }) => r.name)).to.deep.equal(['endpointslices']);
      expect((await server().admin.get(NODE)).body.resources.map((r: { name: string }) => r.name)).to.deep.equal(['runtimeclasses']);
    });
  });

  describe('Ingress', () => {
    it('create, get, list, update, merge patch and delete', async () => {
      const created = await server().admin.post(INGRESSES, ingress('web', 'Prefix'));
      expect(created.status, created.text).to.equal(201);
      expect(created.body).to.deep.include({ apiVersion: `${vendorGroup('networking')}/v1`, kind: 'Ingress', status: { loadBalancer: {} } });
      expect(created.body.metadata.generation).to.equal(1);
      expect((await server().admin.get(`${INGRESSES}/web`)).body.spec.rules[0].http.paths[0].pathType).to.equal('Prefix');
      expect(names(await server().admin.get(INGRESSES))).to.deep.equal(['web']);
      const updated = await server().admin.put(`${INGRESSES}/web`, { ...created.body, spec: { ...created.body.spec, ingressClassName: 'nginx' } });
      expect(updated.status, updated.text).to.equal(200);
      expect(updated.body.metadata.generation).to.equal(2);
      const patched = await server().admin.patch(`${INGRESSES}/web`, { spec: { tls: [{ hosts: ['web.example.com'], secretName: 'web-tls' }] } }, MERGE);
      expect(patched.status, patched.text).to.equal(200);
      expect(patched.body.spec.tls).to.deep.equal([{ hosts: ['web.example.com'], secretName: 'web-tls' }]);
      expect((await server().admin.delete(`${INGRESSES}/web`)).status).to.equal(200);
      expect((await server().admin.get(`${INGRESSES}/web`)).status).to.equal(404);
    });

    it('a path without pathType is 422 with the upstream cause', async () => {
      const res = await server().admin.post(INGRESSES, ingress('no-type'));
      expect(res.status).to.equal(422);
      expect(res.body).to.include({ kind: 'Status', reason: 'Invalid' });
      expect(causes(res)).to.deep.equal(['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']);
    });

    it('the status subresource writes only status; main writes keep it', async () => {
      await server().admin.post(INGRESSES, ingress('lb', 'Exact'));
      const status = { loadBalancer: { ingress: [{ ip: '192.0.2.10' }] } };
      const res = await server().admin.patch(`${INGRESSES}/lb/status`, { status, spec: { ingressClassName: 'ignored' } }, MERGE);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.status).to.deep.equal(status);
      expect(res.body.spec.ingressClassName).to.equal(undefined);
      const main = await server().admin.patch(`${INGRESSES}/lb`, { status: { loadBalancer: { ingress: [{ ip: '192.0.2.99' }] } } }, MERGE);
      expect(main.body.status).to.deep.equal(status);
      const bad = await server().admin.patch(`${INGRESSES}/lb/status`, { status: { loadBalancer: { ingress: [{ ip: 'nope' }] } } }, MERGE);
      expect(bad.status).to.equal(422);
      expect(causes(bad)).to.deep.equal(['status.loadBalancer.ingress[0].ip: Invalid value: "nope": must be a valid IP address']);
    });

    it('selects by metadata.name and prints the upstream table', async () => {
      await server().admin.post(INGRESSES, ingress('sel-a', 'Prefix'));
      await server().admin.post(INGRESSES, ingress('sel-b', 'Prefix'));
      expect(names(await server().admin.get(`${INGRESSES}?fieldSelector=metadata.name%3Dsel-b`))).to.deep.equal(['sel-b']);
      const table = await server().admin.get(`${INGRESSES}/sel-a`, { headers: { Accept: `application/json;as=Table;v=v1;g=${vendorGroup('meta')}` } });
      expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']);
      expect(table.body.rows[0].cells.slice(0, 5)).to.deep.equal(['sel-a', '<none>', 'web.example.com', '', '80']);
    });
  });

  describe('IngressClass', () => {
    it('create with the defaulted parameters scope, get, list, patch, immutable controller, delete', async () => {
      const body = { metadata: { name: 'nginx' }, spec: { controller: 'example.com/ingress-nginx', parameters: { kind: 'Params', name: 'p' } } };
      const created = await server().admin.post(CLASSES, body);
      expect(created.status, created.text).to.equal(201);
      expect(created.body.spec.parameters).to.deep.equal({ kind: 'Params', name: 'p', scope: 'Cluster' });
      expect((await server().admin.get(`${CLASSES}/nginx`)).body.spec.controller).to.equal('example.com/ingress-nginx');
      expect(names(await server().admin.get(CLASSES))).to.include('nginx');
      const patched = await server().admin.patch(`${CLASSES}/nginx`, { metadata: { labels: { tier: 'edge' } } }, MERGE);
      expect(patched.body.metadata.labels).to.deep.equal({ tier: 'edge' });
      const res = await server().admin.patch(`${CLASSES}/nginx`, { spec: { controller: 'example.com/other' } }, MERGE);
      expect(res.status).to.equal(422);
      expect(causes(res)).to.deep.equal(['spec.controller: Invalid value: "example.com/other": field is immutable']);
      const updated = await server().admin.put(`${CLASSES}/nginx`, { ...patched.body, spec: { controller: 'example.com/ingress-nginx' } });
      expect(updated.status, updated.text).to.equal(200);
      expect((await server().admin.delete(`${CLASSES}/nginx`)).status).to.equal(200);
    });
  });

  describe('NetworkPolicy', () => {
    it('create with defaulted policy types and port protocols, get, list, update, patch, delete', async () => {
      const body = { metadata: { name: 'db' }, spec: { podSelector: { matchLabels: { role: 'db' } }, egress: [{ ports: [{ port: 53 }] }] } };
      const created = await server().admin.post(POLICIES, body);
      expect(created.status, created.text).to.equal(201);
      expect(created.body.spec.policyTypes).to.deep.equal(['Ingress', 'Egress']);
      expect(created.body.spec.egress).to.deep.equal([{ ports: [{ protocol: 'TCP', port: 53 }] }]);
      expect(names(await server().admin.get(POLICIES))).to.deep.equal(['db']);
      const updated = await server().admin.put(`${POLICIES}/db`, { ...created.body, spec: { ...created.body.spec, ingress: [{}] } });
      expect(updated.status, updated.text).to.equal(200);
      expect(updated.body.metadata.generation).to.equal(2);
      const patched = await server().admin.patch(`${POLICIES}/db`, { spec: { policyTypes: ['Egress'] } }, MERGE);
      expect(patched.body.spec.policyTypes).to.deep.equal(['Egress']);
      expect((await server().admin.delete(`${POLICIES}/db`)).status).to.equal(200);
    });

    it('an IP block exception outside its CIDR is 422', async () => {
      const res = await server().admin.post(POLICIES, { metadata: { name: 'bad' }, spec: { ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['10.1.0.0/24'] } }] }] } });
      expect(res.status).to.equal(422);
      expect(causes(res)).to.deep.equal(['spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`']);
    });
  });

  describe('EndpointSlice', () => {
    const slice = { metadata: { name: 'web-1', labels: { app: 'web' } }, addressType: 'IPv4', endpoints: [{ addresses: ['10.244.0.5'] }], ports: [{ port: 8080 }] };

    it('create with defaulted ports, get, list, update, patch, immutable addressType, delete', async () => {
      const created = await server().admin.post(SLICES, slice);
      expect(created.status, created.text).to.equal(201);
      expect(created.body.ports).to.deep.equal([{ name: '', protocol: 'TCP', port: 8080 }]);
      expect(created.body.metadata.generation).to.equal(1);
      expect((await server().admin.get(`${SLICES}/web-1`)).body.endpoints).to.deep.equal([{ addresses: ['10.244.0.5'], conditions: {} }]);
      // `default` also holds the API server Service's slice: list this one by its label.
      expect(names(await server().admin.get(`${SLICES}?labelSelector=app%3Dweb`))).to.deep.equal(['web-1']);
      const updated = await server().admin.put(`${SLICES}/web-1`, { ...created.body, endpoints: [{ addresses: ['10.244.0.6'], conditions: { ready: true } }] });
      expect(updated.status, updated.text).to.equal(200);
      expect(updated.body.metadata.generation).to.equal(2);
      const relabelled = await server().admin.patch(`${SLICES}/web-1`, { metadata: { labels: { app: 'api' } } }, MERGE);
      expect(relabelled.body.metadata.generation).to.equal(3);
      const res = await server().admin.patch(`${SLICES}/web-1`, { addressType: 'IPv6', endpoints: [{ addresses: ['2001:db8::1'] }] }, MERGE);
      expect(res.status).to.equal(422);
      expect(causes(res)).to.deep.equal(['addressType: Invalid value: "IPv6": field is immutable']);
      expect((await server().admin.delete(`${SLICES}/web-1`)).status).to.equal(200);
    });

    it('a missing addressType is 422', async () => {
      const res = await server().admin.post(SLICES, { metadata: { name: 'no-type' }, endpoints: [] });
      expect(res.status).to.equal(422);
      expect(causes(res)).to.deep.equal(['addressType: Required value']);
    });
  });

  describe('RuntimeClass', () => {
    it('create, get, list, update (with resourceVersion), patch, immutable handler, delete', async () => {
      const created = await server().admin.post(RUNTIME_CLASSES, { metadata: { name: 'gvisor' }, handler: 'runsc', overhead: { podFixed: { cpu: '250m' } } });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.metadata.generation).to.equal(undefined);
      expect((await server().admin.get(`${RUNTIME_CLASSES}/gvisor`)).body.overhead).to.deep.equal({ podFixed: { cpu: '250m' } });
      expect(names(await server().admin.get(RUNTIME_CLASSES))).to.deep.equal(['gvisor']);
      const { resourceVersion: _rv, ...metadata } = created.body.metadata;
      const unconditional = await server().admin.put(`${RUNTIME_CLASSES}/gvisor`, { ...created.body, metadata });
      expect(unconditional.status).to.equal(422);
      const updated = await server().admin.put(`${RUNTIME_CLASSES}/gvisor`, { ...created.body, scheduling: { nodeSelector: { runtime: 'gvisor' } } });
      expect(updated.status, updated.text).to.equal(200);
      const res = await server().admin.patch(`${RUNTIME_CLASSES}/gvisor`, { handler: 'runc' }, MERGE);
      expect(res.status).to.equal(422);
      expect(causes(res)).to.deep.equal(['handler: Invalid value: "runc": field is immutable']);
      expect((await server().admin.delete(`${RUNTIME_CLASSES}/gvisor`)).status).to.equal(200);
    });

    it('a PUT of a missing class creates it', async () => {
      const res = await server().admin.put(`${RUNTIME_CLASSES}/kata`, { metadata: { name: 'kata' }, handler: 'kata' });
      expect(res.status, res.text).to.equal(201);
    });
  });

  describe('PriorityClass', () => {
    it('the system classes exist after start, with the upstream values and descriptions', async () => {
      const node = (await server().admin.get(`${PRIORITY_CLASSES}/system-node-critical`)).body;
      expect(node).to.deep.include({ value: 2000001000, description: 'Used for system critical pods that must not be moved from their current node.', preemptionPolicy: 'PreemptLowerPriority' });
      const cluster = (await server().admin.get(`${PRIORITY_CLASSES}/system-cluster-critical`)).body;
      expect(cluster).to.deep.include({ value: 2000000000, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' });
      expect(cluster.globalDefault).to.equal(undefined);
    });

    it('a system class may not be deleted', async () => {
      const res = await server().admin.delete(`${PRIORITY_CLASSES}/system-node-critical`);
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal(`priorityclasses.${vendorGroup('scheduling')} "system-node-critical" is forbidden: this is a system priority class and cannot be deleted`);
    });

    it('create with the defaulted preemption policy, get, list, update, patch, immutable value, delete', async () => {
      const created = await server().admin.post(PRIORITY_CLASSES, { metadata: { name: 'high' }, value: 1000, description: 'high' });
      expect(created.status, created.text).to.equal(201);
      expect(created.body).to.deep.include({ value: 1000, preemptionPolicy: 'PreemptLowerPriority' });
      expect(created.body.metadata.generation).to.equal(1);
      expect(names(await server().admin.get(PRIORITY_CLASSES))).to.include.members(['high', 'system-cluster-critical', 'system-node-critical']);
      const updated = await server().admin.put(`${PRIORITY_CLASSES}/high`, { ...created.body, description: 'higher' });
      expect(updated.status, updated.text).to.equal(200);
      expect((await server().admin.patch(`${PRIORITY_CLASSES}/high`, { metadata: { labels: { a: 'b' } } }, MERGE)).status).to.equal(200);
      const res = await server().admin.patch(`${PRIORITY_CLASSES}/high`, { value: 2000 }, MERGE);
      expect(res.status).to.equal(422);
      expect(causes(res)).to.deep.equal(['value: Forbidden: may not be changed in an update.']);
      expect((await server().admin.delete(`${PRIORITY_CLASSES}/high`)).status).to.equal(200);
    });

    it('the system- prefix is reserved (422)', async () => {
      const res = await server().admin.post(PRIORITY_CLASSES, { metadata: { name: 'system-mine' }, value: 1 });
      expect(res.status).to.equal(422);
      expect(causes(res)).to.deep.equal([
        "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
      ]);
    });
  });
});
