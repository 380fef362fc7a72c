import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';
const MERGE = 'application/merge-patch+json';
const JSONPATCH = 'application/json-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

const deployment = (name: string, replicas = 2) => ({
  metadata: { name, labels: { app: name } },
  spec: {
    replicas,
    selector: { matchLabels: { app: name }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'api'] }] },
    template: { metadata: { labels: { app: name, tier: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});

describe('deployments/scale (upstream ScaleREST; issue #12 item 1)', () => {
  const server = useTestServer();
  const create = async (name: string, replicas = 2) => {
    const res = await server().admin.post(DEPLOYS, deployment(name, replicas));
    expect(res.status, res.text).to.equal(201);
    return res.body;
  };
  const applyScale = (name: string, yaml: string, force = true) =>
    server().admin.request('PATCH', `${DEPLOYS}/${name}/scale?fieldManager=hpa${force ? '&force=true' : ''}`, { raw: yaml, contentType: APPLY });

  it('GET answers an autoscaling/v1 Scale built from the parent', async () => {
    const d = await create('s1', 3);
    const res = await server().admin.get(`${DEPLOYS}/s1/scale`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: 's1',
        namespace: 'default',
        uid: d.metadata.uid,
        resourceVersion: d.metadata.resourceVersion,
        creationTimestamp: d.metadata.creationTimestamp,
      },
      spec: { replicas: 3 },
      status: { replicas: 0, selector: 'app=s1,tier in (api,web)' },
    });
  });

  it('GET of a missing parent is 404 naming the subresource', async () => {
    const res = await server().admin.get(`${DEPLOYS}/absent/scale`);
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ reason: 'NotFound', message: 'deployments/scale.apps "absent" not found' });
    expect(res.body.details).to.deep.equal({ name: 'absent', group: 'apps', kind: 'deployments/scale' });
  });

  it('PUT changes only spec.replicas of the parent, bumps its generation and answers the new Scale', async () => {
    const d = await create('s2');
    const scale = (await server().admin.get(`${DEPLOYS}/s2/scale`)).body;
    const res = await server().admin.put(`${DEPLOYS}/s2/scale`, { ...scale, spec: { replicas: 5 }, status: { replicas: 9 } });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.spec).to.deep.equal({ replicas: 5 });
    expect(res.body.status).to.deep.equal({ replicas: 0, selector: 'app=s2,tier in (api,web)' });
    expect(res.body.metadata.managedFields).to.equal(undefined);
    const after = (await server().admin.get(`${DEPLOYS}/s2`)).body;
    expect(after.spec.replicas).to.equal(5);
    expect(after.metadata.generation).to.equal(d.metadata.generation + 1);
    expect(after.metadata.resourceVersion).to.equal(res.body.metadata.resourceVersion);
    expect(after.spec.template).to.deep.equal(d.spec.template);
    expect(after.status).to.deep.equal(d.status);
  });

  it('PUT with a stale resourceVersion is 409 and changes nothing', async () => {
    await create('s3');
    const scale = (await server().admin.get(`${DEPLOYS}/s3/scale`)).body;
    await server().admin.patch(`${DEPLOYS}/s3`, { metadata: { labels: { touched: 'yes' } } }, MERGE);
    const res = await server().admin.put(`${DEPLOYS}/s3/scale`, { ...scale, spec: { replicas: 7 } });
    expect(res.status).to.equal(409);
    expect(res.body).to.include({
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on deployments.apps "s3": the object has been modified; please apply your changes to the latest version and try again',
    });
    expect((await server().admin.get(`${DEPLOYS}/s3`)).body.spec.replicas).to.equal(2);
  });

  it('PUT with another uid is a 409 precondition failure', async () => {
    await create('s4');
    const scale = (await server().admin.get(`${DEPLOYS}/s4/scale`)).body;
    const res = await server().admin.put(`${DEPLOYS}/s4/scale`, { ...scale, metadata: { ...scale.metadata, uid: 'other' }, spec: { replicas: 1 } });
    expect(res.status).to.equal(409);
    expect(res.body.message).to.equal(
      `Operation cannot be fulfilled on deployments/scale.apps "s4": Precondition failed: UID in precondition: other, UID in object meta: ${scale.metadata.uid}`,
    );
  });

  it('negative replicas are 422 on Scale', async () => {
    await create('s5');
    const res = await server().admin.put(`${DEPLOYS}/s5/scale`, { metadata: { name: 's5' }, spec: { replicas: -1 } });
    expect(res.status).to.equal(422);
    expect(res.body).to.include({ reason: 'Invalid', message: 'Scale.autoscaling "s5" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0' });
    expect(res.body.details).to.deep.equal({
      name: 's5',
      group: 'autoscaling',
      kind: 'Scale',
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.replicas' }],
    });
  });

  it('a body of another kind is 400', async () => {
    await create('s6');
    const res = await server().admin.put(`${DEPLOYS}/s6/scale`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 's6' } });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('the API version in the data (apps/v1) does not match the expected API version (autoscaling/v1)');
  });

  for (const [type, body] of [
    [MERGE, { spec: { replicas: 4 } }],
    [STRATEGIC, { spec: { replicas: 4 } }],
    [JSONPATCH, [{ op: 'replace', path: '/spec/replicas', value: 4 }]],
  ] as const) {
    it(`PATCH (${type}) changes the parent's replicas`, async () => {
      const name = `p-${type.split('/')[1]!.split('+')[0]}`;
      await create(name);
      const res = await server().admin.patch(`${DEPLOYS}/${name}/scale`, body, type);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.spec.replicas).to.equal(4);
      expect((await server().admin.get(`${DEPLOYS}/${name}`)).body.spec.replicas).to.equal(4);
    });
  }

  it('records the scale write against the parent with subresource scale, taking replicas from their creator', async () => {
    await create('s7');
    const res = await server().admin.patch(`${DEPLOYS}/s7/scale?fieldManager=scaler`, { spec: { replicas: 6 } }, MERGE);
    expect(res.status).to.equal(200);
    const entries = (await server().admin.get(`${DEPLOYS}/s7`)).body.metadata.managedFields as Array<Record<string, unknown>>;
    const scaler = entries.find((e) => e.manager === 'scaler');
    expect(scaler).to.deep.equal({ manager: 'scaler', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' });
    const creator = entries.find((e) => e.manager !== 'scaler')!;
    expect((creator.fieldsV1 as Record<string, Record<string, unknown>>)['f:spec']).to.not.have.property('f:replicas');
  });

  it('server-side apply on scale conflicts with the owner of the replicas unless forced', async () => {
    await create('s10');
    const res = await applyScale('s10', 'apiVersion: autoscaling/v1\nkind: Scale\nspec:\n  replicas: 8\n', false);
    expect(res.status).to.equal(409);
    expect(res.body.details.causes).to.deep.equal([{ reason: 'FieldManagerConflict', message: 'conflict with "" using autoscaling/v1', field: '.spec.replicas' }]);
  });

  it('forced server-side apply on scale sets the replicas and owns them', async () => {
    await create('s8');
    const res = await applyScale('s8', 'apiVersion: autoscaling/v1\nkind: Scale\nmetadata:\n  name: s8\nspec:\n  replicas: 8\n');
    expect(res.status, res.text).to.equal(200);
    expect(res.body.spec.replicas).to.equal(8);
    const entries = (await server().admin.get(`${DEPLOYS}/s8`)).body.metadata.managedFields as Array<Record<string, unknown>>;
    expect(entries.find((e) => e.manager === 'hpa')).to.include({ operation: 'Apply', apiVersion: 'apps/v1', subresource: 'scale' });
  });

  it('apply on the scale of a missing parent is 404 (never creates)', async () => {
    const res = await applyScale('ghost', 'apiVersion: autoscaling/v1\nkind: Scale\nspec:\n  replicas: 1\n');
    expect(res.status).to.equal(404);
    expect(res.body.message).to.equal('deployments/scale.apps "ghost" not found');
  });

  it('answers 405 for verbs scale does not offer, and 404 for rollback (apps/v1 has none)', async () => {
    await create('s9');
    expect((await server().admin.delete(`${DEPLOYS}/s9/scale`)).status).to.equal(405);
    expect((await server().admin.post(`${DEPLOYS}/s9/rollback`, { name: 's9', rollbackTo: {} })).status).to.equal(404);
  });

  it('discovery lists deployments/scale as an autoscaling/v1 Scale, and no rollback', async () => {
    const res = await server().admin.get('/apis/apps/v1');
    const names = (res.body.resources as Array<{ name: string }>).map((r) => r.name);
    expect(names).to.include.members(['deployments', 'deployments/scale', 'deployments/status']);
    expect(names).to.not.include('deployments/rollback');
    expect(res.body.resources.find((r: { name: string }) => r.name === 'deployments/scale')).to.deep.equal({
      name: 'deployments/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
    const aggregated = await server().admin.get('/apis', { headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } });
    if (aggregated.status === 200 && aggregated.body.kind === 'APIGroupDiscoveryList') {
      const apps = aggregated.body.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'apps');
      const deploy = apps.versions[0].resources.find((r: { resource: string }) => r.resource === 'deployments');
      expect(deploy.subresources.map((s: { subresource: string }) => s.subresource)).to.deep.equal(['scale', 'status']);
      expect(deploy.subresources[0].responseKind).to.deep.equal({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    }
  });

  it('OpenAPI v2 and v3 describe the scale operations with the Scale definition', async () => {
    const v2 = (await server().admin.get('/openapi/v2')).body;
    const path = v2.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'];
    expect(path.get.operationId).to.equal('readAppsV1NamespacedDeploymentScale');
    expect(path.put.operationId).to.equal('replaceAppsV1NamespacedDeploymentScale');
    expect(path.patch.operationId).to.equal('patchAppsV1NamespacedDeploymentScale');
    expect(path.get.responses['200'].schema.$ref).to.match(/autoscaling\.v1\.Scale$/);
    const scaleDef = Object.entries(v2.definitions as Record<string, Record<string, unknown>>).find(([name]) => name.endsWith('api.autoscaling.v1.Scale'));
    expect(scaleDef, 'Scale definition').to.not.equal(undefined);
    expect(JSON.stringify(scaleDef![1])).to.include('"group":"autoscaling"');
    const v3 = (await server().admin.get('/openapi/v3/apis/apps/v1')).body;
    const op = v3.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'].put;
    expect(JSON.stringify(op.requestBody)).to.match(/autoscaling\.v1\.Scale/);
    expect(Object.keys(v3.components.schemas).some((n) => n.endsWith('api.autoscaling.v1.Scale'))).to.equal(true);
  });
});

describe('scale of the other workloads: ReplicaSet, StatefulSet, ReplicationController (issue #12 item 1)', () => {
  const server = useTestServer();
  const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  const cases: [string, string, Record<string, unknown>, string][] = [
    ['replicasets', '/apis/apps/v1/namespaces/default/replicasets', { replicas: 1, selector: { matchLabels: { app: 'rs' } }, template: template('rs') }, 'app=rs'],
    ['statefulsets', '/apis/apps/v1/namespaces/default/statefulsets', { replicas: 1, serviceName: 'sts', selector: { matchLabels: { app: 'sts' } }, template: template('sts') }, 'app=sts'],
    ['replicationcontrollers', '/api/v1/namespaces/default/replicationcontrollers', { replicas: 1, selector: { app: 'rc' }, template: template('rc') }, 'app=rc'],
  ];
  for (const [resource, path, spec, selector] of cases) {
    it(`${resource}/scale reads the selector and changes only spec.replicas`, async () => {
      const created = await server().admin.post(path, { metadata: { name: 'scaled' }, spec });
      expect(created.status, created.text).to.equal(201);
      const scale = (await server().admin.get(`${path}/scaled/scale`)).body;
      expect(scale).to.deep.include({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 1 } });
      expect(scale.status).to.deep.equal({ replicas: 0, selector });
      const res = await server().admin.request('PATCH', `${path}/scaled/scale`, { raw: JSON.stringify({ spec: { replicas: 4 } }), contentType: MERGE });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.spec).to.deep.equal({ replicas: 4 });
      const parent = (await server().admin.get(`${path}/scaled`)).body;
      expect(parent.spec.replicas).to.equal(4);
      expect(parent.spec.template.metadata.labels).to.deep.equal(template(selector.slice(4)).metadata.labels);
    });
  }
});
