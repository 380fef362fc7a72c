import { expect } from 'chai';
import { ExtensionWriter } from '../../../../lib/endpoints/openapi/names.js';
import { buildSwagger } from '../../../../lib/endpoints/openapi/swagger.js';
import { buildGroupVersionDocument } from '../../../../lib/endpoints/openapi/v3.js';
import { servedInstaller } from './fixture.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const INFO = { title: 'Orch', version: 'v1.30.0' };
const EXT = new ExtensionWriter(true);
const names = (params: { name: string }[] | undefined) => (params ?? []).map((p) => p.name);
const LIST = ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch'];
const WATCH_PATH_QUERY = [...LIST, 'pretty'].sort();
const opGVK = (group: string, kind: string) => ({ 'x-orch-group-version-kind': { group, kind, version: 'v1' }, 'x-kubernetes-group-version-kind': { group, kind, version: 'v1' } });

describe('openapi paths and parameters (issue #6 item 1)', () => {
  const installer = servedInstaller();
  const doc: Doc = buildSwagger(installer.groupVersions(), INFO, EXT);
  const paths = doc.paths;
  const ops = (path: string) => Object.keys(paths[path]).filter((k) => k !== 'parameters');

  it('lists every path of a namespaced resource (collection, item, subresources, all namespaces, legacy watch)', () => {
    expect(Object.keys(paths).filter((p) => /\/pods(\/|$)/.test(p))).to.deep.equal([
      '/api/v1/namespaces/{namespace}/pods',
      '/api/v1/namespaces/{namespace}/pods/{name}',
      '/api/v1/namespaces/{namespace}/pods/{name}/binding',
      '/api/v1/namespaces/{namespace}/pods/{name}/ephemeralcontainers',
      '/api/v1/namespaces/{namespace}/pods/{name}/eviction',
      '/api/v1/namespaces/{namespace}/pods/{name}/status',
      '/api/v1/pods',
      '/api/v1/watch/namespaces/{namespace}/pods',
      '/api/v1/watch/namespaces/{namespace}/pods/{name}',
      '/api/v1/watch/pods',
    ]);
    expect(ops('/api/v1/namespaces/{namespace}/pods')).to.deep.equal(['get', 'post', 'delete']);
    expect(ops('/api/v1/namespaces/{namespace}/pods/{name}')).to.deep.equal(['get', 'put', 'delete', 'patch']);
    expect(ops('/api/v1/namespaces/{namespace}/pods/{name}/status')).to.deep.equal(['get', 'put', 'patch']);
    expect(ops('/api/v1/namespaces/{namespace}/pods/{name}/ephemeralcontainers')).to.deep.equal(['get', 'put', 'patch']);
    expect(paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction'].post.operationId).to.equal('createCoreV1NamespacedPodEviction');
    expect(paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction'].post['x-kubernetes-group-version-kind']).to.deep.equal({ group: 'policy', kind: 'Eviction', version: 'v1' });
    expect(paths['/api/v1/namespaces/{namespace}/pods/{name}/binding'].post.operationId).to.equal('createCoreV1NamespacedPodBinding');
  });

  it('describes a subresource of its own kind with that kind (deployments/scale: autoscaling/v1 Scale)', () => {
    const scale = paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'];
    expect(ops('/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale')).to.deep.equal(['get', 'put', 'patch']);
    expect(scale.get.operationId).to.equal('readAppsV1NamespacedDeploymentScale');
    expect(scale.get.description).to.equal('read scale of the specified Deployment');
    expect(scale.put['x-kubernetes-group-version-kind']).to.deep.equal({ group: 'autoscaling', kind: 'Scale', version: 'v1' });
  });

  it('names operations, actions and tags as upstream', () => {
    const id = (path: string, m: string) => [paths[path][m].operationId, paths[path][m]['x-orch-action']];
    expect(id('/api/v1/namespaces/{namespace}/pods', 'get')).to.deep.equal(['listCoreV1NamespacedPod', 'list']);
    expect(id('/api/v1/namespaces/{namespace}/pods', 'post')).to.deep.equal(['createCoreV1NamespacedPod', 'post']);
    expect(id('/api/v1/namespaces/{namespace}/pods', 'delete')).to.deep.equal(['deleteCoreV1CollectionNamespacedPod', 'deletecollection']);
    expect(id('/api/v1/namespaces/{namespace}/pods/{name}', 'get')).to.deep.equal(['readCoreV1NamespacedPod', 'get']);
    expect(id('/api/v1/namespaces/{namespace}/pods/{name}', 'put')).to.deep.equal(['replaceCoreV1NamespacedPod', 'put']);
    expect(id('/api/v1/namespaces/{namespace}/pods/{name}', 'patch')).to.deep.equal(['patchCoreV1NamespacedPod', 'patch']);
    expect(id('/api/v1/namespaces/{namespace}/pods/{name}', 'delete')).to.deep.equal(['deleteCoreV1NamespacedPod', 'delete']);
    expect(id('/api/v1/namespaces/{namespace}/pods/{name}/status', 'patch')).to.deep.equal(['patchCoreV1NamespacedPodStatus', 'patch']);
    expect(id('/api/v1/pods', 'get')).to.deep.equal(['listCoreV1PodForAllNamespaces', 'list']);
    expect(id('/api/v1/watch/pods', 'get')).to.deep.equal(['watchCoreV1PodListForAllNamespaces', 'watchlist']);
    expect(id('/api/v1/watch/namespaces/{namespace}/pods', 'get')).to.deep.equal(['watchCoreV1NamespacedPodList', 'watchlist']);
    expect(id('/api/v1/watch/namespaces/{namespace}/pods/{name}', 'get')).to.deep.equal(['watchCoreV1NamespacedPod', 'watch']);
    expect(id('/api/v1/namespaces/{name}/finalize', 'put')).to.deep.equal(['replaceCoreV1NamespaceFinalize', 'put']);
    expect(id('/apis/rbac.authorization.orch.io/v1/clusterroles', 'get')).to.deep.equal(['listRbacAuthorizationV1ClusterRole', 'list']);
    expect(paths['/apis/apps/v1/namespaces/{namespace}/deployments'].get.tags).to.deep.equal(['apps_v1']);
  });

  it('carries the group-version-kind (one object) on every operation, also under its upstream name', () => {
    expect(paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch).to.deep.include(opGVK('', 'Pod'));
    expect(paths['/apis/coordination.orch.io/v1/namespaces/{namespace}/leases/{name}'].patch).to.deep.include(opGVK('coordination.orch.io', 'Lease'));
  });

  it('gives a namespaced resource its parameters (path level and per operation)', () => {
    const coll = paths['/api/v1/namespaces/{namespace}/pods'];
    expect(coll.parameters).to.deep.equal([
      { uniqueItems: true, type: 'string', description: 'Namespace of the objects: a name and an authorization scope.', name: 'namespace', in: 'path', required: true },
      { uniqueItems: true, type: 'string', description: '`true` indents the JSON answer.', name: 'pretty', in: 'query' },
    ]);
    expect(names(coll.get.parameters)).to.deep.equal(LIST);
    expect(names(coll.post.parameters)).to.deep.equal(['body', 'dryRun', 'fieldManager', 'fieldValidation']);
    expect(coll.post.parameters[0]).to.deep.equal({ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/io.orch.api.core.v1.Pod' } });
    expect(names(coll.delete.parameters)).to.deep.equal(['body', 'continue', 'dryRun', 'fieldSelector', 'gracePeriodSeconds', 'labelSelector', 'limit', 'orphanDependents', 'propagationPolicy', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds']);
    expect(coll.delete.parameters[0]).to.deep.equal({ name: 'body', in: 'body', schema: { $ref: '#/definitions/io.orch.apimachinery.pkg.apis.meta.v1.DeleteOptions' } });
    const item = paths['/api/v1/namespaces/{namespace}/pods/{name}'];
    expect(names(item.parameters)).to.deep.equal(['name', 'namespace', 'pretty']);
    expect(item.get.parameters).to.equal(undefined);
    expect(names(item.put.parameters)).to.deep.equal(['body', 'dryRun', 'fieldManager', 'fieldValidation']);
    expect(names(item.patch.parameters)).to.deep.equal(['body', 'dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect(item.patch.parameters.find((p: { name: string }) => p.name === 'force')).to.include({ type: 'boolean', in: 'query' });
    expect(item.patch.consumes).to.deep.equal(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);
    expect(names(item.delete.parameters)).to.deep.equal(['body', 'dryRun', 'gracePeriodSeconds', 'orphanDependents', 'propagationPolicy']);
    expect(names(paths['/api/v1/watch/namespaces/{namespace}/pods/{name}'].parameters)).to.deep.equal(['name', 'namespace', ...WATCH_PATH_QUERY]);
    expect(names(paths['/api/v1/pods'].parameters)).to.deep.equal([...WATCH_PATH_QUERY]);
  });

  it('answers with the kind, its list, Status or WatchEvent, plus 401', () => {
    const refs = (op: Doc) => Object.fromEntries(Object.entries(op.responses as Record<string, { schema?: { $ref: string } }>).map(([c, r]) => [c, r.schema?.$ref.replace('#/definitions/io.orch.', '') ?? null]));
    expect(refs(paths['/api/v1/namespaces/{namespace}/pods'].get)).to.deep.equal({ 200: 'api.core.v1.PodList', 401: null });
    expect(refs(paths['/api/v1/namespaces/{namespace}/pods'].post)).to.deep.equal({ 200: 'api.core.v1.Pod', 201: 'api.core.v1.Pod', 202: 'api.core.v1.Pod', 401: null });
    expect(refs(paths['/api/v1/namespaces/{namespace}/pods'].delete)).to.deep.equal({ 200: 'apimachinery.pkg.apis.meta.v1.Status', 401: null });
    expect(refs(paths['/api/v1/namespaces/{namespace}/pods/{name}'].delete)).to.deep.equal({ 200: 'api.core.v1.Pod', 202: 'api.core.v1.Pod', 401: null });
    expect(refs(paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].delete)).to.deep.equal({ 200: 'apimachinery.pkg.apis.meta.v1.Status', 202: 'apimachinery.pkg.apis.meta.v1.Status', 401: null });
    expect(refs(paths['/api/v1/watch/pods'].get)).to.deep.equal({ 200: 'apimachinery.pkg.apis.meta.v1.WatchEvent', 401: null });
    expect(refs(paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch)).to.deep.equal({ 200: 'api.core.v1.Pod', 201: 'api.core.v1.Pod', 401: null });
  });

  it('gives a cluster-scoped resource no namespace parameter and no all-namespaces path', () => {
    expect(Object.keys(paths).filter((p) => /\/nodes(\/|$)/.test(p))).to.deep.equal(['/api/v1/nodes', '/api/v1/nodes/{name}', '/api/v1/nodes/{name}/status', '/api/v1/watch/nodes', '/api/v1/watch/nodes/{name}']);
    expect(names(paths['/api/v1/nodes'].parameters)).to.deep.equal(['pretty']);
    expect(paths['/api/v1/nodes'].get.operationId).to.equal('listCoreV1Node');
    expect(names(paths['/api/v1/nodes/{name}'].parameters)).to.deep.equal(['name', 'pretty']);
    expect(paths['/api/v1/nodes/{name}'].patch.operationId).to.equal('patchCoreV1Node');
    expect(names(paths['/api/v1/watch/nodes/{name}'].parameters)).to.deep.equal(['name', ...WATCH_PATH_QUERY]);
  });

  it('v3: the same operations with parameter schemas, request bodies per media type and answers per media type', () => {
    const gvs = installer.groupVersions();
    const v3: Doc = buildGroupVersionDocument(gvs.find((g) => g.group === '')!, gvs, INFO, EXT);
    expect(v3.openapi).to.equal('3.0.0');
    expect(Object.keys(v3.paths)).to.deep.equal(Object.keys(paths).filter((p) => p.startsWith('/api/v1/')));
    const patch = v3.paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch;
    expect(patch).to.deep.include({ operationId: 'patchCoreV1NamespacedPod', 'x-orch-action': 'patch', ...opGVK('', 'Pod') });
    expect(patch.parameters.find((p: { name: string }) => p.name === 'fieldValidation')).to.deep.include({ in: 'query', schema: { type: 'string', uniqueItems: true } });
    expect(Object.keys(patch.requestBody.content)).to.include('application/strategic-merge-patch+json');
    expect(patch.requestBody.required).to.equal(true);
    expect(patch.responses['200'].content['application/json']).to.deep.equal({ schema: { $ref: '#/components/schemas/io.orch.api.core.v1.Pod' } });
    expect(v3.paths['/api/v1/namespaces/{namespace}/pods'].parameters[0]).to.deep.equal({
      name: 'namespace',
      in: 'path',
      description: 'Namespace of the objects: a name and an authorization scope.',
      schema: { type: 'string', uniqueItems: true },
      required: true,
    });
    expect(v3.components.securitySchemes.BearerToken).to.include({ type: 'apiKey', in: 'header', name: 'authorization' });
  });
});
