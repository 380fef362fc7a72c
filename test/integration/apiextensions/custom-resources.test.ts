/**
 * Custom resources served from a CustomResourceDefinition (issue #14 items 2, 3, 5 and 6):
 * every verb, field validation levels, dryRun, pruning and defaulting, schema and rule
 * validation, patches (strategic merge refused), server-side apply with list-map keys, selectors,
 * Table output from printer columns, the status and scale subresources, no protobuf, a second
 * served version, a schema change without restart, and deletion of a CRD with its objects.
 */
import { expect } from 'chai';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { CRDS, createCRD, deleteCRD, hasCondition } from '../../framework/crd.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const GROUP = 'stable.example.com';
const V1 = `/apis/${GROUP}/v1/namespaces/default/crontabs`;
const V1BETA1 = `/apis/${GROUP}/v1beta1/namespaces/default/crontabs`;
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';
const TABLE = `application/json;as=Table;v=v1;g=${vendorGroup('meta')}`;

const schema = (extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-orch-validations': [{ rule: 'self.minReplicas <= self.replicas', message: 'replicas must be at least minReplicas' }],
      properties: {
        cronSpec: { type: 'string', maxLength: 64 },
        image: { type: 'string' },
        replicas: { type: 'integer', default: 1, minimum: 0 },
        minReplicas: { type: 'integer', default: 0 },
        selector: { type: 'string' },
        mode: { type: 'string', enum: ['Fast', 'Slow'], default: 'Fast' },
        ports: {
          type: 'array',
          'x-orch-list-type': 'map',
          'x-orch-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
        },
        target: { 'x-orch-int-or-string': true },
        ...extra,
      },
    },
    status: { type: 'object', properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' } } },
  },
});

const crontabs = (v1Schema = schema()) => ({
  apiVersion: `${vendorGroup('apiextensions')}/v1`,
  kind: 'CustomResourceDefinition',
  metadata: { name: `crontabs.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'], categories: ['all'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: v1Schema },
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' } },
        selectableFields: [{ jsonPath: '.spec.mode' }],
        additionalPrinterColumns: [
          { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          { name: 'Mode', type: 'string', jsonPath: '.spec.mode', priority: 1 },
        ],
      },
      {
        name: 'v1beta1',
        served: true,
        storage: false,
        deprecated: true,
        deprecationWarning: `${GROUP}/v1beta1 CronTab is deprecated; use ${GROUP}/v1`,
        schema: { openAPIV3Schema: schema() },
        // Upstream moves what every version has alike to the definition's top level: the selectable fields too.
        selectableFields: [{ jsonPath: '.spec.mode' }],
      },
    ],
  },
});

const crontab = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: `${GROUP}/v1`,
  kind: 'CronTab',
  metadata: { name },
  spec: { cronSpec: '* * * * */5', image: 'img', ...spec },
});

describe('custom resources (issue #14)', function () {
  this.timeout(60_000);
  // The CRD selects by spec.mode: selectable fields are an alpha feature in v1.30.
  const server = useTestServer({ featureGates: { CustomResourceFieldSelectors: true } });
  const admin = () => server().admin;

  before(async () => {
    await createCRD(admin(), crontabs());
  });

  it('creates with defaults, reads back, lists and gets through the short discovery facts', async () => {
    const res = await admin().post(V1, crontab('a', { replicas: 3 }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec).to.deep.equal({ cronSpec: '* * * * */5', image: 'img', minReplicas: 0, mode: 'Fast', replicas: 3 });
    expect(res.body.metadata.generation).to.equal(1);
    expect(Object.keys(res.body)).to.deep.equal(['apiVersion', 'kind', 'metadata', 'spec']);
    const got = await admin().get(`${V1}/a`);
    expect(got.body.spec.replicas).to.equal(3);
    const list = await admin().get(V1);
    expect(list.body.kind).to.equal('CronTabList');
    expect(list.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)).to.include('a');
    const d = await admin().get(`/apis/${GROUP}/v1`);
    const r = d.body.resources.find((x: { name: string }) => x.name === 'crontabs');
    expect(r).to.include({ singularName: 'crontab', namespaced: true, kind: 'CronTab' });
    expect(r.shortNames).to.deep.equal(['ct']);
    expect(r.categories).to.deep.equal(['all']);
    expect(d.body.resources.map((x: { name: string }) => x.name)).to.deep.equal(['crontabs', 'crontabs/scale', 'crontabs/status']);
  });

  it('prunes unknown fields: silently, with warnings, or 400 under Strict', async () => {
    const ignored = await admin().post(`${V1}?fieldValidation=Ignore`, { ...crontab('prune-a', { bogus: 1 }), extra: true });
    expect(ignored.status, ignored.text).to.equal(201);
    expect(ignored.body.spec.bogus).to.equal(undefined);
    expect(ignored.body.extra).to.equal(undefined);
    const warned = await admin().post(`${V1}?fieldValidation=Warn`, crontab('prune-b', { bogus: 1 }));
    expect(warned.status, warned.text).to.equal(201);
    expect(String(warned.headers.warning)).to.contain('unknown field \\"spec.bogus\\"');
    const strict = await admin().post(`${V1}?fieldValidation=Strict`, crontab('prune-c', { bogus: 1 }));
    expect(strict.status).to.equal(400);
    expect(strict.body.message).to.equal('CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.bogus"');
    expect((await admin().get(`${V1}/prune-c`)).status).to.equal(404);
  });

  it('refuses values against the schema and the expression rules with 422', async () => {
    const typed = await admin().post(V1, crontab('bad-type', { replicas: 'three' }));
    expect(typed.status).to.equal(422);
    expect(typed.body.reason).to.equal('Invalid');
    // The scale subresource's own check of the replicas follows the schema's, as upstream's.
    expect(typed.body.message).to.equal(
      `CronTab.${GROUP} "bad-type" is invalid: [spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string", .spec.replicas: Invalid value: 0: .spec.replicas accessor error: three is of the type string, expected int64, <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`,
    );
    const enumBad = await admin().post(V1, crontab('bad-enum', { mode: 'Medium' }));
    expect(enumBad.status).to.equal(422);
    expect(enumBad.body.message).to.contain('spec.mode: Unsupported value: "Medium": supported values: "Fast", "Slow"');
    const rule = await admin().post(V1, crontab('bad-rule', { replicas: 1, minReplicas: 2 }));
    expect(rule.status).to.equal(422);
    expect(rule.body.message).to.contain('spec: Invalid value: "object": replicas must be at least minReplicas');
    expect(rule.body.details.causes[0]).to.deep.include({ field: 'spec', reason: 'FieldValueInvalid' });
    for (const name of ['bad-type', 'bad-enum', 'bad-rule']) expect((await admin().get(`${V1}/${name}`)).status).to.equal(404);
  });

  it('dryRun validates and answers without storing', async () => {
    const res = await admin().post(`${V1}?dryRun=All`, crontab('dry'));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.mode).to.equal('Fast');
    expect((await admin().get(`${V1}/dry`)).status).to.equal(404);
  });

  it(`patches with merge and JSON patch, refuses strategic merge with 415, bumps generation on spec changes${covers('000 § Patch content types (header `Content-Type`) › application/strategic-merge-patch+json')}`, async () => {
    await admin().post(V1, crontab('p', { replicas: 2 }));
    const merged = await admin().patch(`${V1}/p`, { spec: { image: 'img2' } }, MERGE);
    expect(merged.status, merged.text).to.equal(200);
    expect(merged.body.spec.image).to.equal('img2');
    expect(merged.body.metadata.generation).to.equal(2);
    const jp = await admin().patch(`${V1}/p`, [{ op: 'replace', path: '/spec/replicas', value: 4 }], JSON_PATCH);
    expect(jp.status, jp.text).to.equal(200);
    expect(jp.body.spec.replicas).to.equal(4);
    const labels = await admin().patch(`${V1}/p`, { metadata: { labels: { tier: 'x' } } }, MERGE);
    expect(labels.body.metadata.generation).to.equal(3);
    const smp = await admin().patch(`${V1}/p`, { spec: { image: 'x' } }, STRATEGIC);
    expect(smp.status).to.equal(415);
    expect(smp.body.message).to.equal(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });

  it(`server-side apply merges a map-keyed list by its keys and records managers per item${covers('000 § Merge strategy markers (schema extensions) › listType', '000 § Merge strategy markers (schema extensions) › listMapKey')}`, async () => {
    const a = await admin().patch(`${V1}/apply?fieldManager=one`, { ...crontab('apply', { ports: [{ name: 'http', port: 80 }] }) }, APPLY);
    expect(a.status, a.text).to.equal(201);
    const b = await admin().patch(`${V1}/apply?fieldManager=two`, { apiVersion: `${GROUP}/v1`, kind: 'CronTab', metadata: { name: 'apply' }, spec: { ports: [{ name: 'https', port: 443 }] } }, APPLY);
    expect(b.status, b.text).to.equal(200);
    expect(b.body.spec.ports).to.deep.equal([
      { name: 'http', port: 80 },
      { name: 'https', port: 443 },
    ]);
    const two = b.body.metadata.managedFields.find((m: { manager: string }) => m.manager === 'two');
    expect(two.fieldsV1['f:spec']['f:ports']).to.have.property('k:{"name":"https"}');
    const conflict = await admin().patch(`${V1}/apply?fieldManager=two`, { apiVersion: `${GROUP}/v1`, kind: 'CronTab', metadata: { name: 'apply' }, spec: { ports: [{ name: 'http', port: 81 }] } }, APPLY);
    expect(conflict.status).to.equal(409);
    expect(conflict.body.message).to.contain('conflict with "one"');
  });

  it('selects by label and by metadata.name, refusing other field labels', async () => {
    await admin().post(V1, { ...crontab('sel-a'), metadata: { name: 'sel-a', labels: { app: 'x' } } });
    await admin().post(V1, { ...crontab('sel-b'), metadata: { name: 'sel-b', labels: { app: 'y' } } });
    const byLabel = await admin().get(`${V1}?labelSelector=app%3Dx`);
    expect(byLabel.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)).to.deep.equal(['sel-a']);
    const byName = await admin().get(`${V1}?fieldSelector=metadata.name%3Dsel-b`);
    expect(byName.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)).to.deep.equal(['sel-b']);
    const bad = await admin().get(`${V1}?fieldSelector=spec.image%3Dx`);
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.match(/^"spec\.image" is not a known field selector: only "metadata\.name", "metadata\.namespace"/);
    // A selectable field of the version (spec.mode, defaulted to Fast).
    await admin().post(V1, crontab('sel-slow', { mode: 'Slow' }));
    const byMode = await admin().get(`${V1}?fieldSelector=spec.mode%3DSlow`);
    expect(byMode.status, byMode.text).to.equal(200);
    expect(byMode.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)).to.deep.equal(['sel-slow']);
  });

  it('lists the group in aggregated discovery, v1 before v1beta1, with its subresources', async () => {
    const res = await admin().get('/apis', { headers: { Accept: `application/json;g=${vendorGroup('apidiscovery')};v=v2;as=APIGroupDiscoveryList` } });
    expect(res.status, res.text).to.equal(200);
    const group = res.body.items.find((g: { metadata: { name: string } }) => g.metadata.name === GROUP);
    expect(group.versions.map((v: { version: string }) => v.version)).to.deep.equal(['v1', 'v1beta1']);
    const crontabsV1 = group.versions[0].resources.find((r: { resource: string }) => r.resource === 'crontabs');
    expect(crontabsV1).to.deep.include({ scope: 'Namespaced', singularResource: 'crontab', shortNames: ['ct'], categories: ['all'] });
    expect(crontabsV1.subresources.map((x: { subresource: string }) => x.subresource)).to.deep.equal(['scale', 'status']);
  });

  it('answers a Table with the printer columns', async () => {
    await admin().post(V1, crontab('t', { replicas: 5 }));
    const res = await admin().get(`${V1}/t`, { headers: { Accept: TABLE } });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.columnDefinitions.map((c: { name: string; priority: number }) => [c.name, c.priority])).to.deep.equal([
      ['Name', 0],
      ['Spec', 0],
      ['Replicas', 0],
      ['Mode', 1],
    ]);
    expect(res.body.rows[0].cells).to.deep.equal(['t', '* * * * */5', 5, 'Fast']);
  });

  it('main writes keep the status; status writes change only the status', async () => {
    const created = await admin().post(V1, { ...crontab('st'), status: { replicas: 9 } });
    expect(created.body.status).to.equal(undefined);
    const st = await admin().put(`${V1}/st/status`, { ...created.body, spec: { ...created.body.spec, image: 'ignored' }, status: { replicas: 2, labelSelector: 'app=st' } });
    expect(st.status, st.text).to.equal(200);
    expect(st.body.status).to.deep.equal({ labelSelector: 'app=st', replicas: 2 });
    expect(st.body.spec.image).to.equal('img');
    expect(st.body.metadata.generation).to.equal(1);
    const main = await admin().put(`${V1}/st`, { ...st.body, status: { replicas: 7 } });
    expect(main.body.status.replicas).to.equal(2);
  });

  it('serves the scale subresource from the replica and selector paths', async () => {
    const created = await admin().post(V1, crontab('sc', { replicas: 2 }));
    await admin().put(`${V1}/sc/status`, { ...created.body, status: { replicas: 1, labelSelector: 'app=sc' } });
    const scale = await admin().get(`${V1}/sc/scale`);
    expect(scale.status, scale.text).to.equal(200);
    expect(scale.body).to.deep.include({ kind: 'Scale', apiVersion: 'autoscaling/v1' });
    expect(scale.body.spec).to.deep.equal({ replicas: 2 });
    expect(scale.body.status).to.deep.equal({ replicas: 1, selector: 'app=sc' });
    const patched = await admin().patch(`${V1}/sc/scale`, { spec: { replicas: 6 } }, MERGE);
    expect(patched.status, patched.text).to.equal(200);
    expect((await admin().get(`${V1}/sc`)).body.spec.replicas).to.equal(6);
  });

  it('has no protobuf form: 406 for an Accept of protobuf only, 415 for a protobuf body', async () => {
    await admin().post(V1, crontab('pb'));
    const accept = await admin().get(`${V1}/pb`, { headers: { Accept: `application/vnd.${'orch'}.protobuf` } });
    expect(accept.status).to.equal(406);
    const body = await admin().request('POST', V1, { body: Buffer.from([0x6b, 0x38, 0x73, 0x00]), contentType: `application/vnd.${'orch'}.protobuf` });
    expect(body.status).to.equal(415);
  });

  it('serves a second version: objects read in either version, with its deprecation warning', async () => {
    await admin().post(V1, crontab('multi', { replicas: 2 }));
    const res = await admin().get(`${V1BETA1}/multi`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.apiVersion).to.equal(`${GROUP}/v1beta1`);
    expect(res.body.spec.replicas).to.equal(2);
    expect(String(res.headers.warning)).to.contain(`${GROUP}/v1beta1 CronTab is deprecated; use ${GROUP}/v1`);
    const created = await admin().post(V1BETA1, { ...crontab('from-beta'), apiVersion: `${GROUP}/v1beta1` });
    expect(created.status, created.text).to.equal(201);
    expect((await admin().get(`${V1}/from-beta`)).body.apiVersion).to.equal(`${GROUP}/v1`);
  });

  it('applies a schema change to later writes and reads, with a watch going on across it', async () => {
    const first = await admin().post(V1, crontab('evolve'));
    const watch = await admin().watch(`${V1}?watch=true&resourceVersion=${first.body.metadata.resourceVersion}`);
    const crd = (await admin().get(`${CRDS}/crontabs.${GROUP}`)).body;
    crd.spec.versions[0].schema.openAPIV3Schema = schema({ color: { type: 'string', default: 'blue' } });
    const updated = await admin().put(`${CRDS}/crontabs.${GROUP}`, crd);
    expect(updated.status, updated.text).to.equal(200);
    // Reads apply the new default; a write through the new schema keeps a new field.
    let read: { spec: { color?: string } } | undefined;
    for (let i = 0; i < 100 && read?.spec.color !== 'blue'; i++) {
      read = (await admin().get(`${V1}/evolve`)).body;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(read?.spec.color).to.equal('blue');
    const next = await admin().patch(`${V1}/evolve`, { spec: { color: 'red' } }, MERGE);
    expect(next.body.spec.color).to.equal('red');
    const ev = await watch.until((e) => e.type === 'MODIFIED' && e.object.metadata.name === 'evolve');
    expect(ev.object.spec.color).to.equal('red');
    watch.close();
  });

  it('refuses a CRD whose names another CRD of the group holds (NamesAccepted false)', async () => {
    const other = crontabs();
    other.metadata.name = `crontabs2.${GROUP}`;
    other.spec.names = { ...other.spec.names, plural: 'crontabs2', shortNames: ['ct2'] };
    const res = await admin().post(CRDS, other);
    expect(res.status, res.text).to.equal(201);
    let crd = res.body;
    for (let i = 0; i < 100 && !(crd.status?.conditions ?? []).some((c: { type: string }) => c.type === 'NamesAccepted'); i++) {
      await new Promise((r) => setTimeout(r, 20));
      crd = (await admin().get(`${CRDS}/crontabs2.${GROUP}`)).body;
    }
    const accepted = crd.status.conditions.find((c: { type: string }) => c.type === 'NamesAccepted');
    // Upstream checks kind, then list kind: the last conflict found is the one reported.
    expect(accepted).to.include({ status: 'False', reason: 'ListKindConflict', message: '"CronTabList" is already in use' });
    expect(hasCondition(crd, 'Established')).to.equal(false);
    await deleteCRD(admin(), `crontabs2.${GROUP}`);
  });

  it('deleting a namespace deletes its custom objects', async () => {
    await admin().post('/api/v1/namespaces', { metadata: { name: 'crd-ns-gone' } });
    const inNs = `/apis/${GROUP}/v1/namespaces/crd-ns-gone/crontabs`;
    expect((await admin().post(inNs, crontab('inside'))).status).to.equal(201);
    expect((await admin().delete('/api/v1/namespaces/crd-ns-gone')).status).to.equal(200);
    let ns = await admin().get('/api/v1/namespaces/crd-ns-gone');
    for (let i = 0; i < 200 && ns.status !== 404; i++) {
      await new Promise((r) => setTimeout(r, 25));
      ns = await admin().get('/api/v1/namespaces/crd-ns-gone');
    }
    expect(ns.status).to.equal(404);
    expect((await admin().get(`${inNs}/inside`)).status).to.equal(404);
  });

  it('deleting the CRD refuses new objects, deletes every object, then the CRD and its routes', async () => {
    await admin().post('/api/v1/namespaces', { metadata: { name: 'crd-other' } });
    const held = await admin().post(`/apis/${GROUP}/v1/namespaces/crd-other/crontabs`, { ...crontab('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    expect(held.status, held.text).to.equal(201);
    await admin().post(V1, crontab('doomed'));
    const del = await admin().delete(`${CRDS}/crontabs.${GROUP}`);
    expect(del.status, del.text).to.equal(200);
    expect(hasCondition(del.body, 'Terminating')).to.equal(true);
    // The held object keeps the CRD terminating: reads work, creates are refused.
    let refused = await admin().post(V1, crontab('late'));
    for (let i = 0; i < 100 && refused.status === 201; i++) {
      await admin().delete(`${V1}/late`);
      await new Promise((r) => setTimeout(r, 20));
      refused = await admin().post(V1, crontab('late'));
    }
    expect(refused.status).to.equal(405);
    expect(refused.body.message).to.equal('create not allowed while custom resource definition is terminating');
    let doomed = await admin().get(`${V1}/doomed`);
    for (let i = 0; i < 200 && doomed.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 25));
      doomed = await admin().get(`${V1}/doomed`);
    }
    expect(doomed.status).to.equal(404);
    const stillHeld = await admin().get(`/apis/${GROUP}/v1/namespaces/crd-other/crontabs/held`);
    expect(stillHeld.body.metadata.deletionTimestamp).to.be.a('string');
    expect((await admin().get(`${CRDS}/crontabs.${GROUP}`)).status).to.equal(200);
    await admin().patch(`/apis/${GROUP}/v1/namespaces/crd-other/crontabs/held`, { metadata: { finalizers: null } }, MERGE);
    await deleteCRD(admin(), `crontabs.${GROUP}`);
    // The routes go when the server's informer sees the deletion.
    let group = await admin().get(`/apis/${GROUP}/v1`);
    for (let i = 0; i < 100 && group.status !== 404; i++) {
      await new Promise((r) => setTimeout(r, 20));
      group = await admin().get(`/apis/${GROUP}/v1`);
    }
    expect(group.status).to.equal(404);
    // Created again, the CRD serves an empty collection: every object went with the old one.
    await createCRD(admin(), crontabs());
    expect((await admin().get(`/apis/${GROUP}/v1/crontabs`)).body.items).to.deep.equal([]);
  });
});
