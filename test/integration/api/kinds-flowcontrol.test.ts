import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  FLOWCONTROL_GROUP,
  mandatoryFlowSchemas,
  mandatoryPriorityLevels,
  suggestedFlowSchemas,
  suggestedPriorityLevels,
} from '../../../lib/apis/flowcontrol/v1/index.js';
import { APF_AUTOUPDATE_ANNOTATION, META_GROUP, upstreamAlias } from '../../../lib/apis/vendor.js';
import { startTestServer, useTestServer, type TestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';
import { eventually } from '../../framework/storage-contract.js';

const BASE = `/apis/${FLOWCONTROL_GROUP}/v1`;
const FS = `${BASE}/flowschemas`;
const PLC = `${BASE}/prioritylevelconfigurations`;
const MERGE = 'application/merge-patch+json';
const TABLE = `application/json;as=Table;g=${META_GROUP};v=v1`;

const flowSchemaNames = [...mandatoryFlowSchemas(), ...suggestedFlowSchemas()].map((o) => o.metadata.name).sort();
const priorityLevelNames = [...mandatoryPriorityLevels(), ...suggestedPriorityLevels()].map((o) => o.metadata.name).sort();

async function names(server: TestServer, path: string): Promise<string[]> {
  const res = await server.admin.get(path);
  expect(res.status).to.equal(200);
  return (res.body.items as { metadata: { name: string } }[]).map((o) => o.metadata.name).sort();
}

const tenantSchema = (name: string) => ({
  apiVersion: `${FLOWCONTROL_GROUP}/v1`,
  kind: 'FlowSchema',
  metadata: { name },
  spec: {
    priorityLevelConfiguration: { name: 'workload-low' },
    rules: [{ subjects: [{ kind: 'Group', group: { name: 'tenant-a' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['tenant-a'] }] }],
  },
  status: { conditions: [{ type: 'Dangling', status: 'True' }] },
});

const tenantLevel = (name: string, limited: Record<string, unknown> = {}) => ({
  apiVersion: `${FLOWCONTROL_GROUP}/v1`,
  kind: 'PriorityLevelConfiguration',
  metadata: { name },
  spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} }, ...limited } },
});

describe('flowcontrol.apiserver/v1 kinds over HTTP (issue #12)', () => {
  const server = useTestServer();

  describe('the default configuration (upstream priority-and-fairness-config-producer)', () => {
    it('every mandatory and suggested object exists after start, annotated autoupdate "true"', async () => {
      expect(await names(server(), FS)).to.deep.equal(flowSchemaNames);
      expect(await names(server(), PLC)).to.deep.equal(priorityLevelNames);
      const exempt = (await server().admin.get(`${FS}/exempt`)).body;
      expect(exempt.metadata.annotations).to.deep.equal({ [APF_AUTOUPDATE_ANNOTATION]: 'true' });
      expect(exempt.metadata.generation).to.equal(1);
      expect(exempt.metadata.managedFields[0].manager).to.equal('api-priority-and-fairness-config-producer-v1');
      expect(exempt.spec).to.deep.equal(mandatoryFlowSchemas()[0]!.spec);
    });

    it('reports the post-start hook in /readyz', async () => {
      const res = await server().admin.get('/readyz?verbose');
      expect(res.text).to.include('[+]poststarthook/priority-and-fairness-config-producer ok');
    });

    it('rejects a change of a mandatory spec with 422; allows the exempt level its spec.exempt', async () => {
      const catchAll = (await server().admin.get(`${FS}/catch-all`)).body;
      const res = await server().admin.put(`${FS}/catch-all`, { ...catchAll, spec: { ...catchAll.spec, matchingPrecedence: 9999 } });
      expect(res.status).to.equal(422);
      expect(res.body.details.causes).to.have.length(1);
      expect(res.body.details.causes[0]).to.include({ reason: 'FieldValueInvalid', field: 'spec' });
      expect(res.body.details.causes[0].message).to.match(/spec of 'catch-all' must equal the fixed value$/);
      const tuned = await server().admin.patch(`${PLC}/exempt`, { spec: { exempt: { nominalConcurrencyShares: 10 } } }, MERGE);
      expect(tuned.status).to.equal(200);
      expect(tuned.body.spec.exempt).to.deep.equal({ nominalConcurrencyShares: 10, lendablePercent: 0 });
    });

    it('prints flow schemas and priority levels as upstream tables (MissingPL from the Dangling condition the config consumer writes)', async () => {
      await eventually(async () => (await server().admin.get(`${FS}/probes`)).body.status?.conditions?.length > 0, 10_000, 'the Dangling condition of probes');
      const fs = await server().admin.get(`${FS}/probes`, { headers: { Accept: TABLE } });
      expect(fs.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL']);
      expect(fs.body.rows[0].cells.slice(0, 4).concat(fs.body.rows[0].cells[5])).to.deep.equal(['probes', 'exempt', 2, '<none>', 'False']);
      const pl = await server().admin.get(`${PLC}/catch-all`, { headers: { Accept: TABLE } });
      expect(pl.body.rows[0].cells.slice(0, 6)).to.deep.equal(['catch-all', 'Limited', 5, '<none>', '<none>', '<none>']);
    });
  });

  it('discovery lists both resources and their status subresources, cluster-scoped, without short names', async () => {
    const res = await server().admin.get(BASE);
    expect(res.status).to.equal(200);
    const resources = res.body.resources as { name: string; namespaced: boolean; kind: string; shortNames?: string[]; verbs: string[] }[];
    expect(resources.map((r) => r.name)).to.deep.equal(['flowschemas', 'flowschemas/status', 'prioritylevelconfigurations', 'prioritylevelconfigurations/status']);
    for (const r of resources) {
      expect(r.namespaced, r.name).to.equal(false);
      expect(r, r.name).to.not.have.property('shortNames');
    }
    expect(resources[0]).to.include({ kind: 'FlowSchema', singularName: 'flowschema' });
    expect(resources[0]!.verbs).to.have.members(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    expect((await server().admin.get(`/apis/${upstreamAlias(FLOWCONTROL_GROUP)}/v1/flowschemas/exempt`)).status).to.equal(200);
  });

  describe('FlowSchema', () => {
    it('create applies the defaults, drops the status and starts at generation 1', async () => {
      const res = await server().admin.post(FS, tenantSchema('tenant-a'));
      expect(res.status).to.equal(201);
      expect(res.body.spec.matchingPrecedence).to.equal(1000);
      expect(res.body.status).to.deep.equal({});
      expect(res.body.metadata.generation).to.equal(1);
      expect(res.body.metadata).to.not.have.property('namespace');
    });

    it('get, list with a metadata.name field selector, update (generation bumps) and merge patch', async () => {
      await server().admin.post(FS, tenantSchema('tenant-b'));
      expect((await server().admin.get(`${FS}/tenant-b`)).body.spec.priorityLevelConfiguration).to.deep.equal({ name: 'workload-low' });
      const listed = await server().admin.get(`${FS}?fieldSelector=metadata.name%3Dtenant-b`);
      expect(listed.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)).to.deep.equal(['tenant-b']);
      const current = (await server().admin.get(`${FS}/tenant-b`)).body;
      const put = await server().admin.put(`${FS}/tenant-b`, { ...current, spec: { ...current.spec, matchingPrecedence: 500 } });
      expect(put.status).to.equal(200);
      expect(put.body.metadata.generation).to.equal(2);
      const patched = await server().admin.patch(`${FS}/tenant-b`, { spec: { distinguisherMethod: { type: 'ByUser' } } }, MERGE);
      expect(patched.status).to.equal(200);
      expect(patched.body.spec).to.include({ matchingPrecedence: 500 });
      expect(patched.body.spec.distinguisherMethod).to.deep.equal({ type: 'ByUser' });
      expect(patched.body.metadata.generation).to.equal(3);
    });

    it('the status subresource changes only status and keeps the generation', async () => {
      const created = (await server().admin.post(FS, tenantSchema('tenant-c'))).body;
      // Unconditional writes: the priority-and-fairness config consumer writes this status too.
      delete created.metadata.resourceVersion;
      const res = await server().admin.put(`${FS}/tenant-c/status`, {
        ...created,
        spec: { ...created.spec, matchingPrecedence: 42 },
        status: { conditions: [{ type: 'Dangling', status: 'False', reason: 'Found', message: 'exists', lastTransitionTime: '2024-05-01T10:00:00Z' }] },
      });
      expect(res.status).to.equal(200);
      expect(res.body.spec.matchingPrecedence).to.equal(1000);
      expect(res.body.status.conditions[0]).to.include({ type: 'Dangling', status: 'False' });
      expect(res.body.metadata.generation).to.equal(1);
      const main = await server().admin.put(`${FS}/tenant-c`, { ...res.body, metadata: { ...res.body.metadata, resourceVersion: undefined }, status: {} });
      expect(main.body.status.conditions).to.have.length(1);
    });

    it('answers 422 with upstream causes', async () => {
      const bad = tenantSchema('tenant-bad');
      bad.spec.rules[0]!.subjects = [{ kind: 'Robot' } as never];
      (bad.spec as Record<string, unknown>).matchingPrecedence = 1;
      const res = await server().admin.post(FS, bad);
      expect(res.status).to.equal(422);
      expect(res.body).to.include({ kind: 'Status', reason: 'Invalid' });
      expect(res.body.details.causes).to.deep.equal([
        { reason: 'FieldValueInvalid', message: "Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1", field: 'spec.matchingPrecedence' },
        { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"', field: 'spec.rules[0].subjects[0].kind' },
      ]);
    });

    it('delete answers 200 with a Success Status (no deleted object, as upstream); the name is free again', async () => {
      await server().admin.post(FS, tenantSchema('tenant-d'));
      const res = await server().admin.delete(`${FS}/tenant-d`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ kind: 'Status', status: 'Success' });
      expect(res.body.details).to.include({ name: 'tenant-d', group: FLOWCONTROL_GROUP, kind: 'flowschemas' });
      expect((await server().admin.get(`${FS}/tenant-d`)).status).to.equal(404);
    });
  });

  describe('PriorityLevelConfiguration', () => {
    it(`create applies the v1 defaults: 30 shares when unspecified, 0 lendable, queuing 64 / 8 / 50${covers('001 § Limits › Default limited concurrency shares')}`, async () => {
      const res = await server().admin.post(PLC, tenantLevel('tenants'));
      expect(res.status).to.equal(201);
      expect(res.body.spec.limited).to.deep.equal({ nominalConcurrencyShares: 30, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } }, lendablePercent: 0 });
      expect(res.body.metadata.generation).to.equal(1);
    });

    it(`an explicit 0 shares stays 0${covers('001 § Limits › Default limited concurrency shares')}`, async () => {
      const res = await server().admin.post(PLC, tenantLevel('jail', { nominalConcurrencyShares: 0 }));
      expect(res.status).to.equal(201);
      expect(res.body.spec.limited.nominalConcurrencyShares).to.equal(0);
      expect((await server().admin.get(`${PLC}/jail`)).body.spec.limited.nominalConcurrencyShares).to.equal(0);
    });

    it('update, patch, status and delete', async () => {
      const created = (await server().admin.post(PLC, tenantLevel('batch'))).body;
      const put = await server().admin.put(`${PLC}/batch`, { ...created, spec: { ...created.spec, limited: { ...created.spec.limited, lendablePercent: 20 } } });
      expect(put.status).to.equal(200);
      expect(put.body.metadata.generation).to.equal(2);
      const patched = await server().admin.patch(`${PLC}/batch`, { spec: { limited: { borrowingLimitPercent: 100 } } }, MERGE);
      expect(patched.body.spec.limited).to.include({ lendablePercent: 20, borrowingLimitPercent: 100 });
      const status = await server().admin.patch(`${PLC}/batch/status`, { status: { conditions: [{ type: 'ConcurrencyShared', status: 'True' }] } }, MERGE);
      expect(status.status).to.equal(200);
      expect(status.body.status.conditions).to.deep.equal([{ type: 'ConcurrencyShared', status: 'True', lastTransitionTime: null }]);
      expect((await server().admin.delete(`${PLC}/batch`)).status).to.equal(200);
    });

    it('answers 422 for a hand larger than the queues, and for type Exempt on another name', async () => {
      const res = await server().admin.post(PLC, tenantLevel('wide', { limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 5 } } }));
      expect(res.status).to.equal(422);
      expect(res.body.details.causes).to.deep.equal([
        { reason: 'FieldValueInvalid', message: 'Invalid value: 5: should not be greater than queues (4)', field: 'spec.limited.limitResponse.queuing.handSize' },
      ]);
      const exempt = await server().admin.post(PLC, { metadata: { name: 'free' }, spec: { type: 'Exempt' } });
      expect(exempt.status).to.equal(422);
      expect(exempt.body.details.causes[0]).to.include({ field: 'spec.type', message: 'Invalid value: "Exempt": type must be \'Exempt\' if and only if name is \'exempt\'' });
    });
  });
});

describe('flowcontrol default configuration across restarts (upstream ensurer)', function () {
  this.timeout(120_000);

  it('restores mandatory objects, updates suggested ones marked "true", leaves "false" ones alone, deletes retired defaults', async () => {
    let s = await startTestServer();
    const prefix = s.prefix;
    try {
      const merge = (path: string, body: unknown) => s.admin.patch(path, body, MERGE);
      expect((await s.admin.delete(`${PLC}/catch-all`)).status).to.equal(200);
      expect((await merge(`${FS}/exempt`, { metadata: { annotations: { [APF_AUTOUPDATE_ANNOTATION]: 'false' } } })).status).to.equal(200);
      expect((await merge(`${PLC}/exempt`, { spec: { exempt: { nominalConcurrencyShares: 10, lendablePercent: 20 } } })).status).to.equal(200);
      expect((await merge(`${FS}/global-default`, { spec: { matchingPrecedence: 9901 } })).status).to.equal(200);
      const kept = { metadata: { annotations: { [APF_AUTOUPDATE_ANNOTATION]: 'false' } }, spec: { limited: { nominalConcurrencyShares: 50 } } };
      expect((await merge(`${PLC}/workload-low`, kept)).status).to.equal(200);
      const noAnnotation = await s.admin.get(`${FS}/service-accounts`);
      const edited = { ...noAnnotation.body, metadata: { ...noAnnotation.body.metadata, annotations: {} }, spec: { ...noAnnotation.body.spec, matchingPrecedence: 8000 } };
      expect((await s.admin.put(`${FS}/service-accounts`, edited)).status).to.equal(200);
      const retired = { ...tenantSchema('retired-default'), metadata: { name: 'retired-default', annotations: { [APF_AUTOUPDATE_ANNOTATION]: 'true' } } };
      expect((await s.admin.post(FS, retired)).status).to.equal(201);
      expect((await s.admin.post(FS, tenantSchema('mine'))).status).to.equal(201);
      const untouched = [`${FS}/probes`, `${FS}/system-node-high`, `${PLC}/system`, `${PLC}/exempt`];
      const versionsOf = () => Promise.all(untouched.map(async (path) => (await s.admin.get(path)).body.metadata.resourceVersion as string));
      // The first server's config consumer writes each FlowSchema's Dangling condition after its
      // own start (and again for a reload that came before it saw its write): the versions compared
      // are those once these writes are done, which then stay put.
      const settled = async (paths: string[]) => (await Promise.all(paths.map(async (path) => (await s.admin.get(path)).body.status?.conditions?.length > 0))).every(Boolean);
      await eventually(() => settled(untouched.filter((path) => path.startsWith(FS))), 20_000, 'the Dangling conditions of the untouched FlowSchemas');
      let versions = await versionsOf();
      await eventually(async () => {
        await sleep(1100);
        const again = await versionsOf();
        const same = again.every((v, i) => v === versions[i]);
        versions = again;
        return same;
      }, 20_000, 'no more writes to the untouched objects');
      await s.stop();

      s = await startTestServer({ prefix });
      expect((await s.admin.get(`${PLC}/catch-all`)).body.spec.limited.nominalConcurrencyShares).to.equal(5);
      expect((await s.admin.get(`${FS}/exempt`)).body.metadata.annotations[APF_AUTOUPDATE_ANNOTATION]).to.equal('true');
      expect((await s.admin.get(`${PLC}/exempt`)).body.spec.exempt).to.deep.equal({ nominalConcurrencyShares: 10, lendablePercent: 20 });
      expect((await s.admin.get(`${FS}/global-default`)).body.spec.matchingPrecedence).to.equal(9900);
      const workloadLow = (await s.admin.get(`${PLC}/workload-low`)).body;
      expect(workloadLow.spec.limited.nominalConcurrencyShares).to.equal(50);
      expect(workloadLow.metadata.annotations[APF_AUTOUPDATE_ANNOTATION]).to.equal('false');
      const serviceAccounts = (await s.admin.get(`${FS}/service-accounts`)).body;
      expect(serviceAccounts.spec.matchingPrecedence).to.equal(8000);
      expect(serviceAccounts.metadata.annotations[APF_AUTOUPDATE_ANNOTATION]).to.equal('false');
      expect((await s.admin.get(`${FS}/retired-default`)).status).to.equal(404);
      expect((await s.admin.get(`${FS}/mine`)).status).to.equal(200);
      // objects already as built in are not written again
      const after = await Promise.all(untouched.map(async (path) => (await s.admin.get(path)).body.metadata.resourceVersion as string));
      expect(after).to.deep.equal(versions);
    } finally {
      await s.stop();
    }
  });

  it('two fresh servers starting at once create each default object once', async () => {
    const prefix = `/${randomUUID()}/registry`;
    const [a, b] = await Promise.all([startTestServer({ prefix }), startTestServer({ prefix })]);
    try {
      expect(await names(a, FS)).to.deep.equal(flowSchemaNames);
      expect(await names(b, PLC)).to.deep.equal(priorityLevelNames);
      const catchAll = (await a.admin.get(`${FS}/catch-all`)).body;
      expect(catchAll.metadata.generation).to.equal(1);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
