import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';
const APPLY = 'application/apply-patch+yaml';

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  time?: string;
  fieldsType: string;
  fieldsV1: Record<string, unknown>;
}

describe('server-side apply and managed fields (spec 000 § Field ownership, § Managed-field entry; issue #5 item 2)', () => {
  const server = useTestServer();
  const apply = (path: string, body: unknown, manager: string, extra = '') =>
    server().admin.request('PATCH', `${path}?fieldManager=${manager}${extra}`, { raw: JSON.stringify(body), contentType: APPLY });
  const entries = async (path: string): Promise<Entry[]> => (await server().admin.get(path)).body.metadata.managedFields;
  const cm = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

  it(`apply on a missing object creates it (201) and records an Apply entry with fieldsV1${covers('000 § Type and object metadata › managedFields', '000 § Managed-field entry (element of `metadata.managedFields`) › manager', '000 § Managed-field entry (element of `metadata.managedFields`) › operation', '000 § Managed-field entry (element of `metadata.managedFields`) › apiVersion', '000 § Managed-field entry (element of `metadata.managedFields`) › time', '000 § Managed-field entry (element of `metadata.managedFields`) › fieldsType', '000 § Managed-field entry (element of `metadata.managedFields`) › fieldsV1', '000 § Patch content types (header `Content-Type`) › application/apply-patch+yaml', '000 § Field ownership › Field not owned by anyone')}`, async () => {
    const res = await apply(`${CMS}/a1`, cm('a1', { x: '1' }), 'alice');
    expect(res.status).to.equal(201);
    const [e] = res.body.metadata.managedFields as Entry[];
    expect(e).to.deep.include({ manager: 'alice', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1' });
    expect(e!.time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(e!.fieldsV1).to.deep.equal({ 'f:data': { 'f:x': {} } });
  });

  it(`another manager applying a different value conflicts (409, one cause per field), nothing changes${covers('000 § Field ownership › Field owned by manager A with value v', '000 § Patch content types (header `Content-Type`) › application/apply-patch+yaml')}`, async () => {
    await apply(`${CMS}/a2`, cm('a2', { x: '1', y: '1' }), 'alice');
    const res = await apply(`${CMS}/a2`, cm('a2', { x: '2', y: '2' }), 'bob');
    expect(res.status).to.equal(409);
    expect(res.body).to.include({ kind: 'Status', reason: 'Conflict', code: 409 });
    expect(res.body.message).to.equal('Apply failed with 2 conflicts: conflicts with "alice":\n- .data.x\n- .data.y');
    expect(res.body.details.causes).to.deep.equal([
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.x' },
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.y' },
    ]);
    expect((await server().admin.get(`${CMS}/a2`)).body.data).to.deep.equal({ x: '1', y: '1' });
  });

  it(`force=true takes the value and sole ownership from the other manager${covers('000 § Field ownership › Same / B applies with query force=true', '000 § Modifying-request query parameters › force')}`, async () => {
    await apply(`${CMS}/a3`, cm('a3', { x: '1', y: '1' }), 'alice');
    const res = await apply(`${CMS}/a3`, cm('a3', { x: '2' }), 'bob', '&force=true');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({ x: '2', y: '1' });
    const byManager = Object.fromEntries((await entries(`${CMS}/a3`)).map((e) => [e.manager, e.fieldsV1]));
    expect(byManager.bob).to.deep.equal({ 'f:data': { 'f:x': {} } });
    expect(byManager.alice).to.deep.equal({ 'f:data': { 'f:y': {} } });
  });

  it(`applying the same value as the live one shares ownership without conflict${covers('000 § Field ownership › Same / B applies the same value as the live one')}`, async () => {
    await apply(`${CMS}/a4`, cm('a4', { x: '1' }), 'alice');
    const res = await apply(`${CMS}/a4`, cm('a4', { x: '1' }), 'bob');
    expect(res.status).to.equal(200);
    const managers = (await entries(`${CMS}/a4`)).map((e) => e.manager).sort();
    expect(managers).to.deep.equal(['alice', 'bob']);
    expect((await apply(`${CMS}/a4`, cm('a4', { x: '9' }), 'bob')).status, 'a shared field changed by one owner conflicts').to.equal(409);
  });

  it(`a field the applier omits is removed when nobody else owns it, kept when co-owned${covers('000 § Field ownership › Field owned by A')}`, async () => {
    await apply(`${CMS}/a5`, cm('a5', { solo: '1', shared: '1' }), 'alice');
    await apply(`${CMS}/a5`, cm('a5', { shared: '1' }), 'bob');
    const res = await apply(`${CMS}/a5`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a5' } }, 'alice');
    expect(res.body.data).to.deep.equal({ shared: '1' });
  });

  it(`a PUT moves ownership of the fields it changes to its manager, as an Update, never conflicting${covers('000 § Field ownership › Any field / update', '000 § Managed-field entry (element of `metadata.managedFields`) › operation')}`, async () => {
    await apply(`${CMS}/a6`, cm('a6', { x: '1', y: '1' }), 'alice');
    const live = (await server().admin.get(`${CMS}/a6`)).body;
    const put = await server().admin.put(`${CMS}/a6?fieldManager=editor`, { ...live, data: { x: '2', y: '1' } });
    expect(put.status).to.equal(200);
    const byManager = Object.fromEntries((put.body.metadata.managedFields as Entry[]).map((e) => [e.manager, e]));
    expect(byManager.editor!.operation).to.equal('Update');
    expect(byManager.editor!.fieldsV1).to.deep.equal({ 'f:data': { 'f:x': {} } });
    expect(byManager.alice!.fieldsV1).to.deep.equal({ 'f:data': { 'f:y': {} } });
    expect((await apply(`${CMS}/a6`, cm('a6', { x: '3', y: '1' }), 'alice')).status).to.equal(409);
  });

  it(`without fieldManager a non-apply write is managed by the User-Agent prefix${covers('000 § Modifying-request query parameters › fieldManager')}`, async () => {
    const res = await server().admin.post(CMS, cm('a7', { x: '1' }), { headers: { 'User-Agent': 'my-tool/1.2 (linux)' } });
    expect((res.body.metadata.managedFields as Entry[]).map((e) => [e.manager, e.operation])).to.deep.equal([['my-tool', 'Update']]);
  });

  it('merges the Update entries of one manager at one apiVersion into one', async () => {
    await server().admin.post(`${CMS}?fieldManager=ed`, cm('a8', { x: '1' }));
    await server().admin.patch(`${CMS}/a8?fieldManager=ed`, { data: { y: '2' } }, 'application/merge-patch+json');
    const mine = (await entries(`${CMS}/a8`)).filter((e) => e.manager === 'ed');
    expect(mine).to.have.length(1);
    expect(mine[0]!.fieldsV1).to.deep.equal({ 'f:data': { '.': {}, 'f:x': {}, 'f:y': {} } });
  });

  it('resets managed fields when a non-apply write sends a single empty entry, not when it sends []', async () => {
    await apply(`${CMS}/a9`, cm('a9', { x: '1' }), 'alice');
    const live = (await server().admin.get(`${CMS}/a9`)).body;
    const keep = await server().admin.put(`${CMS}/a9?fieldManager=ed`, { ...live, metadata: { ...live.metadata, managedFields: [] } });
    expect((keep.body.metadata.managedFields as Entry[]).map((e) => e.manager)).to.include('alice');
    const reset = await server().admin.put(`${CMS}/a9?fieldManager=ed`, { ...keep.body, metadata: { ...keep.body.metadata, managedFields: [{}] } });
    expect(reset.body.metadata.managedFields).to.equal(undefined);
  });

  it(`merges map-lists by key: two managers own their own containers of one Deployment${covers('000 § Merge strategy markers (schema extensions) › listType', '000 § Merge strategy markers (schema extensions) › listMapKey')}`, async () => {
    const dep = (containers: unknown[]) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd1' },
      spec: { selector: { matchLabels: { app: 'd1' } }, template: { metadata: { labels: { app: 'd1' } }, spec: { containers } } },
    });
    expect((await apply(`${DEPLOYS}/d1`, dep([{ name: 'web', image: 'nginx:1' }]), 'team-web')).status).to.equal(201);
    const res = await apply(`${DEPLOYS}/d1`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd1' }, spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'envoy:1' }] } } } }, 'team-mesh');
    expect(res.status).to.equal(200);
    expect(res.body.spec.template.spec.containers.map((c: { name: string }) => c.name)).to.deep.equal(['web', 'sidecar']);
    const mesh = (res.body.metadata.managedFields as Entry[]).find((e) => e.manager === 'team-mesh')!;
    expect(JSON.stringify(mesh.fieldsV1)).to.include('k:{\\"name\\":\\"sidecar\\"}');
  });

  it(`rejects an apply without fieldManager (422), force on other patches (422) and managedFields in the body (400)${covers('000 § Modifying-request query parameters › fieldManager', '000 § Modifying-request query parameters › force')}`, async () => {
    const noManager = await server().admin.request('PATCH', `${CMS}/a10`, { raw: JSON.stringify(cm('a10', {})), contentType: APPLY });
    expect(noManager.status).to.equal(422);
    expect(noManager.body.message).to.equal('PatchOptions.meta.orch.io "" is invalid: fieldManager: Required value: is required for apply patch');
    const force = await server().admin.patch(`${CMS}/a10?force=true`, { data: {} }, 'application/merge-patch+json');
    expect(force.status).to.equal(422);
    const withMF = await apply(`${CMS}/a10`, { ...cm('a10', {}), metadata: { name: 'a10', managedFields: [{ manager: 'x' }] } }, 'alice');
    expect(withMF.status).to.equal(400);
    expect(withMF.body.message).to.include('metadata.managedFields must be nil');
  });

  it('an undeclared field is refused at every validation level with upstream\'s typed-object text (400, not its 500); nothing is stored', async () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'undeclared', namespace: 'default', labelz: {} }, data: { a: '1' }, wat: 1 };
    for (const level of ['Ignore', 'Warn', 'Strict']) {
      const res = await apply(`${CMS}/undeclared`, body, 'alice', `&fieldValidation=${level}`);
      expect(res.status, level).to.equal(400);
      expect(res.body).to.deep.include({
        reason: 'BadRequest',
        message: 'failed to create typed patch object (default/undeclared; /v1, Kind=ConfigMap): errors:\n  .metadata.labelz: field not declared in schema\n  .wat: field not declared in schema',
      });
    }
    expect((await server().admin.get(`${CMS}/undeclared`)).status).to.equal(404);
  });

  it('a null item of a keyed list or of a set is upstream\'s typed-object error, 400 (upstream answers 500): the configuration is merged as written, nulls included', async () => {
    const pod = await server().admin.request('PATCH', '/api/v1/namespaces/default/pods/null-item?fieldManager=alice', {
      raw: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'null-item' }, spec: { containers: [null] } }),
      contentType: APPLY,
    });
    expect(pod.status).to.equal(400);
    expect(pod.body).to.deep.include({
      reason: 'BadRequest',
      message: 'failed to create typed patch object (/null-item; /v1, Kind=Pod): .spec.containers: element 0: associative list with keys may not have a null element',
    });
    const fin = await apply(`${CMS}/null-fin`, { ...cm('null-fin', {}), metadata: { name: 'null-fin', finalizers: [null] } }, 'alice');
    expect(fin.status).to.equal(400);
    expect(fin.body.message).to.equal(
      "failed to create typed patch object (/null-fin; /v1, Kind=ConfigMap): .metadata.finalizers: element 0: associative list without keys has an element that's an explicit null",
    );
  });

  it('a repeated key: at Strict, 400 in go-yaml\'s words with the line of each repeated value; at Warn, the same text as a warning, the last value kept', async () => {
    const yaml = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: dup-yaml', '  labels: {x: "1", x: "2"}', 'data:', '  a: "1"', '  a: "2"', ''].join('\n');
    const strict = await server().admin.request('PATCH', `${CMS}/dup-yaml?fieldManager=alice&fieldValidation=Strict`, { raw: yaml, contentType: APPLY });
    expect(strict.status).to.equal(400);
    expect(strict.body.message).to.equal(
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 5: key "x" already set in map\n  line 8: key "a" already set in map',
    );
    expect((await server().admin.get(`${CMS}/dup-yaml`)).status).to.equal(404);
    const json = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup-json"},"data":{"a":"1","a":"2"}}';
    const warned = await server().admin.request('PATCH', `${CMS}/dup-json?fieldManager=alice`, { raw: json, contentType: APPLY });
    expect(warned.status).to.equal(201);
    expect(warned.headers.warning).to.equal('299 - "error converting YAML to JSON: yaml: unmarshal errors:   line 1: key \\"a\\" already set in map"');
    expect(warned.body.data).to.deep.equal({ a: '2' });
  });

  it(`dryRun apply answers the merged object and stores nothing${covers('000 § Modifying-request query parameters › dryRun')}`, async () => {
    const res = await apply(`${CMS}/a11`, cm('a11', { x: '1' }), 'alice', '&dryRun=All');
    expect(res.status).to.equal(201);
    expect(res.body.data).to.deep.equal({ x: '1' });
    expect((await server().admin.get(`${CMS}/a11`)).status).to.equal(404);
  });
});
