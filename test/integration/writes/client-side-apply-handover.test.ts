import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const APPLY = 'application/apply-patch+yaml';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const CSA = 'kubectl-client-side-apply';

interface Entry {
  manager: string;
  operation: string;
  fieldsV1: Record<string, unknown>;
}

describe('client-side to server-side apply hand-over (issue #23 item 5; upstream lastAppliedManager and lastAppliedUpdater)', () => {
  const server = useTestServer();
  const cm = (name: string, data: Record<string, string>, annotations?: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'default', ...(annotations ? { annotations } : {}) },
    data,
  });
  /** The JSON stock kubectl keeps in the annotation (Go's encoder: keys sorted, a trailing newline). */
  const kubectlAnnotation = (name: string, data: Record<string, string>) =>
    `${JSON.stringify({ apiVersion: 'v1', data, kind: 'ConfigMap', metadata: { annotations: {}, name, namespace: 'default' } })}\n`;
  /** A client-side `kubectl apply` creating the object: a POST carrying its configuration in the annotation. */
  const clientSideCreate = (name: string, data: Record<string, string>, withAnnotation = true) =>
    server().admin.post(`${CMS}?fieldManager=${CSA}`, cm(name, data, withAnnotation ? { [LAST_APPLIED]: kubectlAnnotation(name, data) } : undefined));
  const serverSideApply = (name: string, body: unknown, manager = 'kubectl') =>
    server().admin.request('PATCH', `${CMS}/${name}?fieldManager=${manager}`, { raw: JSON.stringify(body), contentType: APPLY });
  const byManager = (obj: { metadata: { managedFields: Entry[] } }) => Object.fromEntries(obj.metadata.managedFields.map((e) => [`${e.manager}/${e.operation}`, e.fieldsV1]));

  it('kubectl takes over the fields client-side apply set: accepted, value changed, ownership moved to kubectl', async () => {
    expect((await clientSideCreate('h1', { color: 'red', size: 'L' })).status).to.equal(201);
    const res = await serverSideApply('h1', cm('h1', { color: 'blue', size: 'L' }));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.deep.equal({ color: 'blue', size: 'L' });
    const owners = byManager(res.body);
    expect(owners['kubectl/Apply']).to.deep.equal({ 'f:data': { 'f:color': {}, 'f:size': {} } });
    expect((owners[`${CSA}/Update`] as { 'f:data': unknown })['f:data'], 'the changed field left client-side apply').to.deep.equal({ '.': {}, 'f:size': {} });
  });

  it('rewrites the annotation to the applied configuration, encoded as upstream (keys sorted, trailing newline)', async () => {
    await clientSideCreate('h2', { color: 'red' });
    const res = await serverSideApply('h2', { kind: 'ConfigMap', apiVersion: 'v1', metadata: { namespace: 'default', name: 'h2', labels: { tier: 'web' } }, data: { color: 'blue', a: '<&>' } });
    expect(res.status).to.equal(200);
    const expected = '{"apiVersion":"v1","data":{"a":"\\u003c\\u0026\\u003e","color":"blue"},"kind":"ConfigMap","metadata":{"labels":{"tier":"web"},"name":"h2","namespace":"default"}}\n';
    expect(res.body.metadata.annotations[LAST_APPLIED]).to.equal(expected);
    expect((await server().admin.get(`${CMS}/h2`)).body.metadata.annotations[LAST_APPLIED]).to.equal(expected);
  });

  it('a conflict on a field the annotation does not list is still 409, with only that conflict', async () => {
    await clientSideCreate('h3', { color: 'red' });
    expect((await server().admin.patch(`${CMS}/h3?fieldManager=editor`, { data: { owner: 'ops' } }, 'application/merge-patch+json')).status).to.equal(200);
    const res = await serverSideApply('h3', cm('h3', { color: 'blue', owner: 'dev' }));
    expect(res.status).to.equal(409);
    expect(res.body.message).to.equal('Apply failed with 1 conflict: conflict with "editor" using v1: .data.owner');
    expect(res.body.details.causes).to.deep.equal([{ reason: 'FieldManagerConflict', message: 'conflict with "editor" using v1', field: '.data.owner' }]);
    expect((await server().admin.get(`${CMS}/h3`)).body.data).to.deep.equal({ color: 'red', owner: 'ops' });
  });

  it('a field the annotation lists but someone else changed since is not taken over', async () => {
    await clientSideCreate('h4', { color: 'red' });
    await server().admin.patch(`${CMS}/h4?fieldManager=editor`, { data: { color: 'green' } }, 'application/merge-patch+json');
    const res = await serverSideApply('h4', cm('h4', { color: 'blue' }));
    expect(res.status).to.equal(409);
    expect(res.body.message).to.equal('Apply failed with 1 conflict: conflict with "editor" using v1: .data.color');
  });

  it('another manager than kubectl still gets the conflict, and the annotation is left alone', async () => {
    await clientSideCreate('h5', { color: 'red' });
    const res = await serverSideApply('h5', cm('h5', { color: 'blue' }), 'team-b');
    expect(res.status).to.equal(409);
    expect(res.body.message).to.equal(`Apply failed with 1 conflict: conflict with "${CSA}" using v1: .data.color`);
    const same = await serverSideApply('h5', cm('h5', { color: 'red' }), 'team-b');
    expect(same.status).to.equal(200);
    expect(same.body.metadata.annotations[LAST_APPLIED]).to.equal(kubectlAnnotation('h5', { color: 'red' }));
  });

  it('without the annotation kubectl gets the conflict, and no annotation is added', async () => {
    await clientSideCreate('h6', { color: 'red' }, false);
    const res = await serverSideApply('h6', cm('h6', { color: 'blue' }));
    expect(res.status).to.equal(409);
    expect(res.body.message).to.equal(`Apply failed with 1 conflict: conflict with "${CSA}" using v1: .data.color`);
    const same = await serverSideApply('h6', cm('h6', { color: 'red' }));
    expect(same.status).to.equal(200);
    expect(same.body.metadata.annotations).to.equal(undefined);
  });

  it('a dry run takes over and rewrites in the answer only', async () => {
    await clientSideCreate('h7', { color: 'red' });
    const res = await server().admin.request('PATCH', `${CMS}/h7?fieldManager=kubectl&dryRun=All`, { raw: JSON.stringify(cm('h7', { color: 'blue' })), contentType: APPLY });
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({ color: 'blue' });
    expect(JSON.parse(res.body.metadata.annotations[LAST_APPLIED]).data).to.deep.equal({ color: 'blue' });
    const live = (await server().admin.get(`${CMS}/h7`)).body;
    expect(live.data).to.deep.equal({ color: 'red' });
    expect(live.metadata.annotations[LAST_APPLIED]).to.equal(kubectlAnnotation('h7', { color: 'red' }));
  });
});
