import { expect } from 'chai';
import { APISERVICE_AUTOMANAGED_LABEL, canonicalGroup, META_GROUP, vendorGroup } from '../../../lib/apis/vendor.js';
import { apiServicePriority } from '../../../lib/apis/apiregistration/v1/priorities.js';
import { startTestServer, useTestServer } from '../../framework/test-server.js';

const GROUP = vendorGroup('apiregistration');
const APISERVICES = `/apis/${GROUP}/v1/apiservices`;
const MERGE = 'application/merge-patch+json';
const TABLE = `application/json;as=Table;g=${META_GROUP};v=v1`;

type O = Record<string, unknown>;

const aggregated = (name = 'v1beta1.metrics.example.com'): O => ({
  metadata: { name },
  spec: { service: { namespace: 'monitoring', name: 'metrics-server' }, group: 'metrics.example.com', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 10 },
});

describe('apiregistration/v1 APIService over HTTP (issue #12)', () => {
  // The availability controller (issue #20) would write the status this suite writes itself.
  const server = useTestServer({ aggregator: { availabilityController: false } });

  it('discovery lists apiservices and apiservices/status, cluster-scoped, category api-extensions', async () => {
    const res = await server().admin.get(`/apis/${GROUP}/v1`);
    expect(res.body.resources.map((r: O) => r.name)).to.deep.equal(['apiservices', 'apiservices/status']);
    expect(res.body.resources[0]).to.deep.include({ kind: 'APIService', namespaced: false, categories: ['api-extensions'] });
  });

  it('has a local, Available APIService for every served group version with an upstream priority, none for aliases', async () => {
    const admin = server().admin;
    const groups = (await admin.get('/apis')).body.groups as { name: string; versions: { version: string }[] }[];
    const served = [{ group: '', version: 'v1' }, ...groups.filter((g) => canonicalGroup(g.name) === g.name).flatMap((g) => g.versions.map((v) => ({ group: g.name, version: v.version })))];
    const expected = served.filter((gv) => apiServicePriority(gv.group, gv.version)).map((gv) => `${gv.version}.${gv.group}`);
    expect(expected).to.include.members(['v1.', 'v1.apps', 'v1.batch', `v1.${vendorGroup('admissionregistration')}`, `v1.${vendorGroup('rbac.authorization')}`]);
    const items = (await admin.get(APISERVICES)).body.items as O[];
    expect(items.map((i) => (i.metadata as O).name)).to.have.members(expected);
    const core = items.find((i) => (i.metadata as O).name === 'v1.')!;
    expect((core.metadata as O).labels).to.deep.equal({ [APISERVICE_AUTOMANAGED_LABEL]: 'onstart' });
    expect(core.spec).to.deep.equal({ service: null, version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 });
    const conditions = (core.status as O).conditions as O[];
    expect(conditions).to.have.length(1);
    expect(conditions[0]).to.include({ type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available' });
    const apps = items.find((i) => (i.metadata as O).name === 'v1.apps')!;
    expect(apps.spec).to.deep.equal({ service: null, group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
  });

  it('creates (no status for an aggregated one), gets, lists, updates, patches, writes status and deletes an APIService', async () => {
    const admin = server().admin;
    const created = await admin.post(APISERVICES, aggregated());
    expect(created.status, created.text).to.equal(201);
    expect(created.body.spec.service).to.deep.equal({ namespace: 'monitoring', name: 'metrics-server', port: 443 });
    expect(created.body.status).to.deep.equal({});
    expect(created.body.metadata).not.to.have.property('generation');
    const path = `${APISERVICES}/v1beta1.metrics.example.com`;
    expect((await admin.get(path)).body.metadata.uid).to.equal(created.body.metadata.uid);
    const list = await admin.get(`${APISERVICES}?fieldSelector=metadata.name=v1beta1.metrics.example.com`);
    expect(list.body.items).to.have.length(1);
    const updated = await admin.put(path, { ...created.body, spec: { ...created.body.spec, versionPriority: 20 } });
    expect(updated.status, updated.text).to.equal(200);
    expect(updated.body.spec.versionPriority).to.equal(20);
    const patched = await admin.patch(path, { spec: { insecureSkipTLSVerify: true } }, MERGE);
    expect(patched.body.spec.insecureSkipTLSVerify).to.equal(true);
    const status = { conditions: [{ type: 'Available', status: 'False', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'MissingEndpoints', message: 'no endpoints' }] };
    const written = await admin.put(`${path}/status`, { ...patched.body, spec: { ...patched.body.spec, versionPriority: 1 }, status });
    expect(written.status, written.text).to.equal(200);
    expect(written.body.status).to.deep.equal(status);
    expect(written.body.spec.versionPriority).to.equal(20);
    const mainWrite = await admin.put(path, { ...written.body, status: {} });
    expect(mainWrite.body.status).to.deep.equal(status);
    const table = await admin.get(path, { headers: { Accept: TABLE } });
    expect(table.body.columnDefinitions.map((c: O) => c.name)).to.deep.equal(['Name', 'Service', 'Available', 'Age']);
    expect(table.body.rows[0].cells.slice(0, 3)).to.deep.equal(['v1beta1.metrics.example.com', 'monitoring/metrics-server', 'False (MissingEndpoints)']);
    expect((await admin.delete(path)).status).to.equal(200);
    expect((await admin.get(path)).status).to.equal(404);
  });

  it('answers 422 with the upstream causes', async () => {
    const res = await server().admin.post(APISERVICES, { ...aggregated('v1.metrics.example.com'), spec: { ...(aggregated().spec as O), service: { namespace: 'm', name: 's', port: 0 }, groupPriorityMinimum: 0 } });
    expect(res.status).to.equal(422);
    expect(res.body.details.causes).to.deep.equal([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "v1.metrics.example.com": must be `spec.version+"."+spec.group`: "v1beta1.metrics.example.com"', field: 'metadata.name' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be positive and less than 20000', field: 'spec.groupPriorityMinimum' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive', field: 'spec.service.port' },
    ]);
  });

  it('at start, several servers together restore changed APIServices they manage, delete the ones no longer served and leave the others alone', async function () {
    this.timeout(60_000);
    const admin = server().admin;
    const stale = { metadata: { name: 'v1.stale.example.com', labels: { [APISERVICE_AUTOMANAGED_LABEL]: 'onstart' } }, spec: { service: null, group: 'stale.example.com', version: 'v1', groupPriorityMinimum: 100, versionPriority: 1 } };
    expect((await admin.post(APISERVICES, stale)).status).to.equal(201);
    expect((await admin.patch(`${APISERVICES}/v1.apps`, { spec: { versionPriority: 99 } }, MERGE)).status).to.equal(200);
    expect((await admin.delete(`${APISERVICES}/v1.batch`)).status).to.equal(200);
    const mine = { metadata: { name: 'v1.batch' }, spec: { service: null, group: 'batch', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1 } };
    expect((await admin.post(APISERVICES, mine)).status).to.equal(201);
    expect((await admin.post(APISERVICES, aggregated())).status).to.equal(201);

    const replicas = await Promise.all([0, 1].map(() => startTestServer({ prefix: server().prefix, aggregator: { availabilityController: false } })));
    try {
      const names = ((await admin.get(APISERVICES)).body.items as O[]).map((i) => (i.metadata as O).name);
      expect(names).not.to.include('v1.stale.example.com');
      expect(names).to.include('v1beta1.metrics.example.com');
      expect(new Set(names).size).to.equal(names.length);
      expect((await admin.get(`${APISERVICES}/v1.apps`)).body.spec.versionPriority).to.equal(15);
      expect((await admin.get(`${APISERVICES}/v1.batch`)).body.spec).to.include({ groupPriorityMinimum: 1, versionPriority: 1 });
      for (const r of replicas) expect((await r.admin.get('/readyz')).status).to.equal(200);
    } finally {
      await Promise.all(replicas.map((r) => r.stop()));
    }
  });
});
