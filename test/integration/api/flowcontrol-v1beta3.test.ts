/**
 * `flowcontrol.apiserver.<vendor>/v1beta3` FlowSchema and PriorityLevelConfiguration served over
 * the v1 storage (issue #15 item 1): every verb, conversion both ways (the zero-shares round-trip
 * annotation), upstream's deprecation warning on every request, discovery (v1 preferred) and
 * OpenAPI.
 */
import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const FC = 'flowcontrol.apiserver.orch.io';
const V1 = `/apis/${FC}/v1`;
const B3 = `/apis/${FC}/v1beta3`;
const KEY = 'flowcontrol.orch.io/v1beta3-preserve-zero-concurrency-shares';
/** Upstream's spelling of the annotation, which stock clients write. */
const UPSTREAM_KEY = 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares';
const PL_WARNING = `299 - "${FC}/v1beta3 PriorityLevelConfiguration is deprecated in v1.29+, unavailable in v1.32+; use ${FC}/v1 PriorityLevelConfiguration"`;
const FS_WARNING = `299 - "${FC}/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use ${FC}/v1 FlowSchema"`;

const plc = (apiVersion: string, name: string, limited: object, annotations?: Record<string, string>) => ({
  apiVersion,
  kind: 'PriorityLevelConfiguration',
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec: { type: 'Limited', limited: { ...limited, limitResponse: { type: 'Reject' } } },
});
const fs = (apiVersion: string, name: string, level: string) => ({
  apiVersion,
  kind: 'FlowSchema',
  metadata: { name },
  spec: { priorityLevelConfiguration: { name: level }, matchingPrecedence: 900, rules: [{ subjects: [{ kind: 'User', user: { name: 'alice' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }] }] },
});

describe('flowcontrol v1beta3 over v1 storage (issue #15 item 1)', () => {
  const server = useTestServer();
  const admin = () => server().admin;

  it(`v1beta3 CRUD with the deprecation warning on every request; v1 requests carry none${covers('001 § Removed API versions (migration map) › 1.32')}`, async () => {
    const created = await admin().post(`${B3}/prioritylevelconfigurations`, plc(`${FC}/v1beta3`, 'b3-crud', { nominalConcurrencyShares: 5 }));
    expect(created.status, created.text).to.equal(201);
    expect(created.headers.warning).to.equal(PL_WARNING);
    expect(created.body.apiVersion).to.equal(`${FC}/v1beta3`);
    const got = await admin().get(`${B3}/prioritylevelconfigurations/b3-crud`);
    expect(got.headers.warning).to.equal(PL_WARNING);
    expect(got.body.spec.limited).to.deep.equal({ nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' }, lendablePercent: 0 });
    const updated = await admin().put(`${B3}/prioritylevelconfigurations/b3-crud`, { ...got.body, spec: { ...got.body.spec, limited: { ...got.body.spec.limited, nominalConcurrencyShares: 6 } } });
    expect(updated.status, updated.text).to.equal(200);
    expect(updated.body.metadata.generation).to.equal(2);
    const patched = await admin().patch(`${B3}/prioritylevelconfigurations/b3-crud`, { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json');
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.headers.warning).to.equal(PL_WARNING);
    const list = await admin().get(`${B3}/prioritylevelconfigurations`);
    expect(list.body.apiVersion).to.equal(`${FC}/v1beta3`);
    expect(list.body.items.map((i: { apiVersion: string }) => i.apiVersion)).to.include(`${FC}/v1beta3`);
    const status = await admin().get(`${B3}/prioritylevelconfigurations/b3-crud/status`);
    expect(status.status).to.equal(200);
    expect(status.headers.warning).to.equal(PL_WARNING);
    const v1 = await admin().get(`${V1}/prioritylevelconfigurations/b3-crud`);
    expect(v1.headers.warning).to.equal(undefined);
    expect(v1.body.spec.limited.nominalConcurrencyShares).to.equal(6);
    const deleted = await admin().delete(`${B3}/prioritylevelconfigurations/b3-crud`);
    expect(deleted.status, deleted.text).to.equal(200);
    expect((await admin().get(`${V1}/prioritylevelconfigurations/b3-crud`)).status).to.equal(404);
  });

  it('FlowSchema: written in v1beta3, read in v1; written in v1, read in v1beta3 with the warning', async () => {
    const created = await admin().post(`${B3}/flowschemas`, fs(`${FC}/v1beta3`, 'b3-fs', 'global-default'));
    expect(created.status, created.text).to.equal(201);
    expect(created.headers.warning).to.equal(FS_WARNING);
    const v1 = (await admin().get(`${V1}/flowschemas/b3-fs`)).body;
    expect(v1.apiVersion).to.equal(`${FC}/v1`);
    expect(v1.spec).to.deep.equal(created.body.spec);
    expect((await admin().post(`${V1}/flowschemas`, fs(`${FC}/v1`, 'v1-fs', 'global-default'))).status).to.equal(201);
    const b3 = await admin().get(`${B3}/flowschemas/v1-fs`);
    expect(b3.headers.warning).to.equal(FS_WARNING);
    expect(b3.body.apiVersion).to.equal(`${FC}/v1beta3`);
    expect(b3.body.spec).to.deep.equal((await admin().get(`${V1}/flowschemas/v1-fs`)).body.spec);
  });

  it('zero shares: v1 0 reads in v1beta3 with the round-trip annotation; written back it stays 0 and the annotation is not stored', async () => {
    expect((await admin().post(`${V1}/prioritylevelconfigurations`, plc(`${FC}/v1`, 'zero', { nominalConcurrencyShares: 0 }))).status).to.equal(201);
    const b3 = (await admin().get(`${B3}/prioritylevelconfigurations/zero`)).body;
    expect(b3.metadata.annotations).to.deep.equal({ [KEY]: '' });
    expect(b3.spec.limited.nominalConcurrencyShares).to.equal(0);
    const put = await admin().put(`${B3}/prioritylevelconfigurations/zero`, b3);
    expect(put.status, put.text).to.equal(200);
    expect(put.body.metadata.annotations).to.deep.equal({ [KEY]: '' });
    const v1 = (await admin().get(`${V1}/prioritylevelconfigurations/zero`)).body;
    expect(v1.metadata.annotations).to.equal(undefined);
    expect(v1.spec.limited.nominalConcurrencyShares).to.equal(0);
  });

  it(`zero shares written in v1beta3 without the annotation are defaulted to 30 (v1beta3 defaulting)${covers('001 § Removed API versions (migration map) › 1.32')}`, async () => {
    const created = await admin().post(`${B3}/prioritylevelconfigurations`, plc(`${FC}/v1beta3`, 'b3-zero', { nominalConcurrencyShares: 0 }));
    expect(created.status, created.text).to.equal(201);
    expect(created.body.spec.limited.nominalConcurrencyShares).to.equal(30);
    expect((await admin().get(`${V1}/prioritylevelconfigurations/b3-zero`)).body.spec.limited.nominalConcurrencyShares).to.equal(30);
  });

  for (const [spelling, key] of [['ours', KEY], ['upstream', UPSTREAM_KEY]]) {
    it(`zero shares written in v1beta3 with the preserve-zero annotation (${spelling} spelling) stay 0; v1 reads 0 without the annotation`, async () => {
      const name = `b3-keep-${spelling}`;
      const created = await admin().post(`${B3}/prioritylevelconfigurations`, plc(`${FC}/v1beta3`, name, { nominalConcurrencyShares: 0 }, { [key]: '' }));
      expect(created.status, created.text).to.equal(201);
      expect(created.body.spec.limited.nominalConcurrencyShares).to.equal(0);
      const v1 = (await admin().get(`${V1}/prioritylevelconfigurations/${name}`)).body;
      expect(v1.spec.limited.nominalConcurrencyShares).to.equal(0);
      expect(v1.metadata.annotations).to.equal(undefined);
    });

    it(`a v1 write carrying the preserve-zero annotation (${spelling} spelling) is 422 Forbidden, as upstream`, async () => {
      const res = await admin().post(`${V1}/prioritylevelconfigurations`, plc(`${FC}/v1`, `v1-annotated-${spelling}`, { nominalConcurrencyShares: 5 }, { [key]: '' }));
      expect(res.status, res.text).to.equal(422);
      expect(res.body.message).to.equal(`PriorityLevelConfiguration.${FC} "v1-annotated-${spelling}" is invalid: metadata.annotations: Forbidden: annotation '${key}' is forbidden`);
    });
  }

  it('an update in v1beta3 setting zero shares without the annotation is defaulted to 30; with it the 0 stays', async () => {
    const created = (await admin().post(`${B3}/prioritylevelconfigurations`, plc(`${FC}/v1beta3`, 'b3-update', { nominalConcurrencyShares: 7 }))).body;
    expect(created.metadata.annotations).to.equal(undefined);
    created.spec.limited.nominalConcurrencyShares = 0;
    const put = await admin().put(`${B3}/prioritylevelconfigurations/b3-update`, created);
    expect(put.status, put.text).to.equal(200);
    expect(put.body.spec.limited.nominalConcurrencyShares).to.equal(30);
    const again = { ...put.body, metadata: { ...put.body.metadata, annotations: { [UPSTREAM_KEY]: '' } } };
    again.spec.limited.nominalConcurrencyShares = 0;
    const kept = await admin().put(`${B3}/prioritylevelconfigurations/b3-update`, again);
    expect(kept.status, kept.text).to.equal(200);
    expect((await admin().get(`${V1}/prioritylevelconfigurations/b3-update`)).body.spec.limited.nominalConcurrencyShares).to.equal(0);
  });

  it('v1beta3 validation is v1\'s, with v1beta3 field paths', async () => {
    const bad = await admin().post(`${B3}/prioritylevelconfigurations`, plc(`${FC}/v1beta3`, 'bad', { nominalConcurrencyShares: -1 }));
    expect(bad.status, bad.text).to.equal(422);
    expect(bad.body.message).to.equal(`PriorityLevelConfiguration.${FC} "bad" is invalid: spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer`);
    expect(bad.headers.warning).to.equal(PL_WARNING);
  });

  it(`discovery lists v1 (preferred) then v1beta3; the upstream alias serves v1beta3 too${covers('001 § API versions and groups › Beta')}`, async () => {
    const group = (await admin().get(`/apis/${FC}`)).body;
    expect(group.versions.map((v: { version: string }) => v.version)).to.deep.equal(['v1', 'v1beta3']);
    expect(group.preferredVersion.version).to.equal('v1');
    const resources = (await admin().get(B3)).body.resources.map((r: { name: string }) => r.name);
    expect(resources).to.deep.equal(['flowschemas', 'flowschemas/status', 'prioritylevelconfigurations', 'prioritylevelconfigurations/status']);
    const alias = await admin().get('/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas/exempt');
    expect(alias.status).to.equal(200);
    expect(alias.body.apiVersion).to.equal('flowcontrol.apiserver.k8s.io/v1beta3');
  });

  it('OpenAPI defines the v1beta3 kinds with v1beta3 definitions', async () => {
    const doc = (await admin().get('/openapi/v2')).body;
    expect(doc.definitions).to.include.keys('io.orch.api.flowcontrol.v1beta3.PriorityLevelConfiguration', 'io.orch.api.flowcontrol.v1beta3.LimitedPriorityLevelConfiguration');
    expect(doc.paths).to.include.keys(`${B3}/flowschemas/{name}`);
    const v3 = (await admin().get(`/openapi/v3/apis/${FC}/v1beta3`)).body;
    expect(Object.keys(v3.components.schemas)).to.not.include('io.orch.api.flowcontrol.v1.FlowSchema');
  });
});
