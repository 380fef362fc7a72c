/**
 * Two API server replicas on one etcd and one key prefix (issue #12 item 2): concurrent Service
 * creates split across both never share a cluster IP or node port (the ranges are
 * compare-and-swapped in etcd), both replicas' addresses are in the API server Service's
 * Endpoints, and an address goes when its replica stops or its lease expires.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatMicroTime } from '../../../lib/apimachinery/schema/decode.js';
import { API_SERVER_SERVICE_NAME, SYSTEM_NAMESPACE, vendorGroup } from '../../../lib/apis/vendor.js';
import { endpointLeaseName } from '../../../lib/controllers/endpoint-reconciler/leases.js';
import { eventually } from '../../framework/storage-contract.js';
import { startTestServer, type TestServer } from '../../framework/test-server.js';

// Response bodies are read field by field, as JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type O = Record<string, any>;
const NS = 'default';
const SVCS = `/api/v1/namespaces/${NS}/services`;
const ENDPOINTS = `/api/v1/namespaces/${NS}/endpoints/${API_SERVER_SERVICE_NAME}`;
const SLICE = `/apis/${vendorGroup('discovery')}/v1/namespaces/${NS}/endpointslices/${API_SERVER_SERVICE_NAME}`;
const LEASES = `/apis/${vendorGroup('coordination')}/v1/namespaces/${SYSTEM_NAMESPACE}/leases`;
const A = '10.1.0.1';
const B = '10.1.0.2';
/** Short lease and interval: a dead replica's address goes within seconds. */
const TIMINGS = { endpointLeaseMs: 2000, endpointIntervalMs: 250 };

async function addresses(s: TestServer): Promise<string[]> {
  const res = await s.admin.get(ENDPOINTS);
  if (res.status !== 200) return [];
  return ((res.body.subsets?.[0]?.addresses ?? []) as O[]).map((a) => a.ip as string).sort();
}

async function sliceAddresses(s: TestServer): Promise<string[]> {
  const res = await s.admin.get(SLICE);
  if (res.status !== 200) return [];
  return ((res.body.endpoints ?? []) as O[]).flatMap((e) => e.addresses as string[]).sort();
}

describe('Service networking across two replicas on one etcd (issue #12 item 2)', function () {
  this.timeout(60_000);
  let a: TestServer;
  let b: TestServer | undefined;

  before(async () => {
    a = await startTestServer({ serviceNetworking: { advertiseAddress: A, ...TIMINGS } });
    b = await startTestServer({ prefix: a.prefix, serviceNetworking: { advertiseAddress: B, ...TIMINGS } });
  });
  after(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('32 concurrent creates split across both replicas get distinct cluster IPs and node ports', async () => {
    const results = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        (i % 2 === 0 ? a : b!).admin.post(SVCS, { metadata: { name: `race-${i}` }, spec: { type: 'NodePort', ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] } }),
      ),
    );
    for (const r of results) expect(r.status, r.text).to.equal(201);
    const ips = results.map((r) => r.body.spec.clusterIP as string);
    const ports = results.flatMap((r) => (r.body.spec.ports as O[]).map((p) => p.nodePort as number));
    expect(new Set(ips).size, 'cluster IPs').to.equal(32);
    expect(new Set(ports).size, 'node ports').to.equal(64);
    const listed = (await b!.admin.get(SVCS)).body.items as O[];
    expect(listed.filter((s) => s.metadata.name.startsWith('race-')).map((s) => s.spec.clusterIP).sort()).to.deep.equal([...ips].sort());
  });

  it('an address one replica took cannot be requested through the other', async () => {
    const first = await a.admin.post(SVCS, { metadata: { name: 'pinned-a' }, spec: { clusterIP: '10.0.0.2', type: 'NodePort', ports: [{ port: 80, nodePort: 30010 }] } });
    expect(first.status, first.text).to.equal(201);
    const second = await b!.admin.post(SVCS, { metadata: { name: 'pinned-b' }, spec: { clusterIP: '10.0.0.2', ports: [{ port: 80 }] } });
    expect(second.status).to.equal(422);
    expect(second.body.details.causes[0].message).to.equal('Invalid value: []string{"10.0.0.2"}: failed to allocate IP 10.0.0.2: provided IP is already allocated');
  });

  it("both replicas' addresses are in the Endpoints and the EndpointSlice", async () => {
    await eventually(async () => (await addresses(a)).join() === [A, B].join(), 10_000, 'both addresses in the Endpoints');
    await eventually(async () => (await sliceAddresses(b!)).join() === [A, B].join(), 10_000, 'both addresses in the EndpointSlice');
    const leases = ((await a.admin.get(LEASES)).body.items as O[]).map((l) => l.spec.holderIdentity).sort();
    expect(leases).to.include.members([A, B]);
  });

  it('a lease that is not renewed expires and its address goes', async () => {
    const ghost = '10.1.0.9';
    const res = await a.admin.post(LEASES, {
      metadata: { name: endpointLeaseName(ghost) },
      spec: { holderIdentity: ghost, leaseDurationSeconds: 1, renewTime: formatMicroTime(new Date()) },
    });
    expect(res.status, res.text).to.equal(201);
    await eventually(async () => (await addresses(a)).includes(ghost), 5_000, 'the unexpired lease to count');
    await eventually(async () => !(await addresses(a)).includes(ghost), 5_000, 'the expired lease to go');
    await eventually(async () => (await a.admin.get(`${LEASES}/${endpointLeaseName(ghost)}`)).status === 404, 5_000, 'the expired lease to be deleted');
  });

  it("stopping a replica removes its address; the other's stays", async () => {
    await b!.stop();
    b = undefined;
    await eventually(async () => (await addresses(a)).join() === A, TIMINGS.endpointLeaseMs + 5_000, 'the stopped replica to leave the Endpoints');
    await eventually(async () => (await sliceAddresses(a)).join() === A, 5_000, 'the stopped replica to leave the EndpointSlice');
    await sleep(TIMINGS.endpointLeaseMs + 500);
    expect(await addresses(a)).to.deep.equal([A]);
  });
});
