/**
 * The installer's create-only capability (registry/rest/creater.ts; issue #10): a create-only
 * resource (SelfSubjectReview) and a create-only subresource with its own kind (TokenRequest as
 * `serviceaccounts/token`, registered here with a test Creater on the real ServiceAccount entry)
 * in discovery, in OpenAPI, and served over HTTP by the real installer and handler.
 */
import { expect } from 'chai';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { AdmissionChain } from '../../../lib/admission/chain.js';
import type { AdmissionAttributes } from '../../../lib/admission/interface.js';
import { tokenRequest } from '../../../lib/apis/authentication/v1/index.js';
import { field, string } from '../../../lib/apimachinery/schema/builder.js';
import { defineKind } from '../../../lib/apis/define.js';
import { objectMeta } from '../../../lib/apis/meta/v1/types.js';
import { createOnlyResources, servedResources } from '../../../lib/controlplane/resources.js';
import { UnionAuthenticator } from '../../../lib/authentication/union.js';
import { UnionAuthorizer, UnionRuleResolver } from '../../../lib/authorization/union.js';
import { groupDiscoveries } from '../../../lib/endpoints/discovery/aggregated.js';
import { apiResourceList } from '../../../lib/endpoints/discovery/documents.js';
import { serveDiscovery } from '../../../lib/endpoints/discovery/handler.js';
import { requestContextOf, withRequestInfo } from '../../../lib/endpoints/filters/request-info.js';
import { APIInstaller, newResourceNotFound } from '../../../lib/endpoints/installer.js';
import { ExtensionWriter } from '../../../lib/endpoints/openapi/names.js';
import { buildSwagger } from '../../../lib/endpoints/openapi/swagger.js';
import { buildGroupVersionDocument } from '../../../lib/endpoints/openapi/v3.js';
import type { Creater } from '../../../lib/registry/rest/creater.js';
import { withStatusErrors } from '../../../lib/server/filters/errors.js';
import type { StorageInterface } from '../../../lib/storage/interface.js';
import { servedByDefault } from './openapi/fixture.js';

/** A TokenRequest Creater for the test: answers with a token naming the service account addressed. */
const tokenCreater: Creater = {
  kind: tokenRequest,
  async create(_ctx, target, obj, opts) {
    await opts.validate(obj);
    return { ...obj, status: { token: `token-of-${target.namespace}/${target.name}`, expirationTimestamp: '2030-01-02T03:04:05Z' } };
  },
};

/** A namespaced kind of a vendor group (served under its upstream alias too) with a `token` subresource. */
const gadget = defineKind({
  group: 'example.orch.io',
  version: 'v1',
  kind: 'Gadget',
  resource: 'gadgets',
  singular: 'gadget',
  namespaced: true,
  fields: { metadata: field(1, objectMeta), spec: field(2, string) },
});

/** Every built-in resource, `serviceaccounts` and `gadgets` with the token Creater, the create-only resources; `seen` collects admission attributes. */
function installerWithToken(upstreamAliases: boolean, seen: AdmissionAttributes[] = []): APIInstaller {
  const record = { name: 'record', handles: () => true };
  const admission = new AdmissionChain([
    { ...record, admit: async (_ctx, a) => void seen.push({ ...a }) },
    { name: 'record-validation', handles: () => true, validate: async (_ctx, a) => void seen.push({ ...a, operation: 'CONNECT' }) },
  ]);
  const installer = new APIInstaller(admission, { watchList: false, responseCompression: true, upstreamAliases });
  for (const r of servedResources(() => ({}) as StorageInterface, '/registry')) {
    const kind = r.store.strategy.kind;
    const creaters = kind.resource === 'serviceaccounts' ? new Map([['token', tokenCreater]]) : undefined;
    installer.install({ kind, store: r.store, subresources: r.subresources, creaters, selectableFields: new Set() });
    if (kind.resource === 'serviceaccounts') {
      installer.install({ kind: gadget, store: r.store, subresources: new Map(), creaters: new Map([['token', tokenCreater]]), selectableFields: new Set() });
    }
  }
  const creaters = createOnlyResources(new UnionAuthenticator([], { anonymous: false }), { authorizer: new UnionAuthorizer([]), ruleResolver: new UnionRuleResolver([]) });
  // The create-only resources a server without `--runtime-config` serves (no v1beta1 or v1alpha1 reviews).
  const served = servedByDefault(creaters.map((c) => c.kind));
  for (const c of creaters) if (served(c.kind)) installer.installCreater(c);
  return installer;
}

function gvOf(installer: APIInstaller, group: string) {
  return installer.groupVersions().find((gv) => gv.group === group)!;
}

describe('create-only resources and subresources in discovery (issue #10; spec 000 § Other paths)', () => {
  const installer = installerWithToken(true);

  it('lists serviceaccounts/token in /api/v1 with the group and version of its own kind, as upstream', () => {
    const list = apiResourceList(gvOf(installer, '')) as { resources: Record<string, unknown>[] };
    const token = list.resources.find((r) => r.name === 'serviceaccounts/token')!;
    expect(JSON.stringify(token)).to.equal(
      '{"name":"serviceaccounts/token","singularName":"","namespaced":true,"group":"authentication.orch.io","version":"v1","kind":"TokenRequest","verbs":["create"]}',
    );
    const sa = list.resources.find((r) => r.name === 'serviceaccounts')!;
    expect(sa.verbs).to.have.length(8);
    expect(sa.storageVersionHash).to.be.a('string');
  });

  it('lists a create-only resource with the one verb create and no storage version hash, under the vendor group and its alias', () => {
    for (const group of ['authentication.orch.io', 'authentication.k8s.io']) {
      expect(apiResourceList(gvOf(installer, group))).to.deep.equal({
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: `${group}/v1`,
        resources: [
          { name: 'selfsubjectreviews', singularName: 'selfsubjectreview', namespaced: false, kind: 'SelfSubjectReview', verbs: ['create'] },
          { name: 'tokenreviews', singularName: 'tokenreview', namespaced: false, kind: 'TokenReview', verbs: ['create'] },
        ],
      });
    }
  });

  it('nests the token subresource under serviceaccounts in aggregated discovery with its own response kind', () => {
    const [core] = groupDiscoveries(installer.groupVersions(), true);
    const sa = core!.versions[0]!.resources.find((r) => r.resource === 'serviceaccounts')!;
    expect(sa.subresources).to.deep.equal([{ subresource: 'token', responseKind: { group: 'authentication.orch.io', version: 'v1', kind: 'TokenRequest' }, verbs: ['create'] }]);
  });

  it('lists the create-only resource in aggregated discovery with scope Cluster and verbs [create]', () => {
    const groups = groupDiscoveries(installer.groupVersions(), false);
    for (const name of ['authentication.orch.io', 'authentication.k8s.io']) {
      const g = groups.find((x) => x.metadata.name === name)!;
      expect(g.versions).to.deep.equal([
        {
          version: 'v1',
          resources: [
            { resource: 'selfsubjectreviews', responseKind: { group: '', version: '', kind: 'SelfSubjectReview' }, scope: 'Cluster', singularResource: 'selfsubjectreview', verbs: ['create'] },
            { resource: 'tokenreviews', responseKind: { group: '', version: '', kind: 'TokenReview' }, scope: 'Cluster', singularResource: 'tokenreview', verbs: ['create'] },
          ],
          freshness: 'Current',
        },
      ]);
    }
  });

  it('names the upstream alias of a subresource kind\'s group when its parent is served under an upstream alias', () => {
    const groups = groupDiscoveries(installer.groupVersions(), false);
    const responseKind = (group: string) => groups.find((g) => g.metadata.name === group)!.versions[0]!.resources[0]!.subresources![0]!.responseKind;
    expect(responseKind('example.orch.io')).to.deep.equal({ group: 'authentication.orch.io', version: 'v1', kind: 'TokenRequest' });
    expect(responseKind('example.k8s.io')).to.deep.equal({ group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' });
    const legacy = apiResourceList(gvOf(installer, 'example.k8s.io')) as { resources: Record<string, unknown>[] };
    expect(legacy.resources[1]).to.include({ name: 'gadgets/token', group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' });
  });
});

describe('create-only resources and subresources in OpenAPI (issue #10; spec 000 § Other paths)', () => {
  const installer = installerWithToken(true);
  const swagger = buildSwagger(installer.groupVersions(), { title: 'Orch', version: 'v1.30.0' }, new ExtensionWriter(true)) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
    definitions: Record<string, Record<string, unknown>>;
  };

  it('has one POST path for a create-only resource, its parameters hoisted to the path as upstream', () => {
    const paths = Object.keys(swagger.paths).filter((p) => p.includes('/selfsubjectreviews'));
    expect(paths).to.deep.equal(['/apis/authentication.k8s.io/v1/selfsubjectreviews', '/apis/authentication.orch.io/v1/selfsubjectreviews']);
    const item = swagger.paths['/apis/authentication.orch.io/v1/selfsubjectreviews']!;
    expect(Object.keys(item)).to.deep.equal(['post', 'parameters']);
    const post = item.post!;
    expect(post).to.include({ operationId: 'createAuthenticationV1SelfSubjectReview', description: 'create a SelfSubjectReview', 'x-orch-action': 'post' });
    expect(post['x-orch-group-version-kind']).to.deep.equal({ group: 'authentication.orch.io', kind: 'SelfSubjectReview', version: 'v1' });
    expect(post.parameters).to.deep.equal([{ name: 'body', in: 'body', schema: { $ref: '#/definitions/io.orch.api.authentication.v1.SelfSubjectReview' }, required: true }]);
    expect(Object.keys(post.responses as object)).to.deep.equal(['200', '201', '202', '401']);
    expect((item.parameters as unknown as { name: string }[]).map((p) => p.name)).to.deep.equal(['dryRun', 'fieldManager', 'fieldValidation', 'pretty']);
  });

  it('has the POST path of serviceaccounts/token with the operation of its own kind', () => {
    const item = swagger.paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token']!;
    expect(Object.keys(item)).to.deep.equal(['post', 'parameters']);
    expect(item.post).to.include({ operationId: 'createCoreV1NamespacedServiceAccountToken', description: 'create token of a ServiceAccount', 'x-orch-action': 'post' });
    expect(item.post!['x-orch-group-version-kind']).to.deep.equal({ group: 'authentication.orch.io', kind: 'TokenRequest', version: 'v1' });
    expect(item.post!.parameters).to.deep.equal([{ name: 'body', in: 'body', schema: { $ref: '#/definitions/io.orch.api.authentication.v1.TokenRequest' }, required: true }]);
    expect((item.parameters as unknown as { name: string }[]).map((p) => p.name)).to.deep.equal(['name', 'namespace', 'dryRun', 'fieldManager', 'fieldValidation', 'pretty']);
  });

  it('defines the kinds with their group-version-kinds in both spellings, and no list kind of a create-only resource', () => {
    const gvks = (name: string) => swagger.definitions[`io.orch.api.authentication.v1.${name}`]!['x-orch-group-version-kind'];
    expect(gvks('TokenRequest')).to.deep.equal([
      { group: 'authentication.orch.io', kind: 'TokenRequest', version: 'v1' },
      { group: 'authentication.k8s.io', kind: 'TokenRequest', version: 'v1' },
    ]);
    expect(gvks('SelfSubjectReview')).to.deep.equal([
      { group: 'authentication.orch.io', kind: 'SelfSubjectReview', version: 'v1' },
      { group: 'authentication.k8s.io', kind: 'SelfSubjectReview', version: 'v1' },
    ]);
    expect(swagger.definitions).to.have.property('io.orch.api.authentication.v1.UserInfo');
    expect(swagger.definitions).to.not.have.property('io.orch.api.authentication.v1.SelfSubjectReviewList');
    expect(swagger.definitions['io.orch.api.authentication.v1.TokenRequestSpec']!.required).to.deep.equal(['audiences']);
  });

  it('v3: the core document carries the token path and the TokenRequest schema', () => {
    const doc = buildGroupVersionDocument(gvOf(installer, ''), installer.groupVersions(), { title: 'Orch', version: 'v1.30.0' }, new ExtensionWriter(true)) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { schemas: Record<string, unknown> };
    };
    const post = doc.paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token']!.post!;
    expect(post.operationId).to.equal('createCoreV1NamespacedServiceAccountToken');
    expect(post).to.not.have.property('parameters');
    expect(doc.components.schemas).to.have.property('io.orch.api.authentication.v1.TokenRequest');
  });
});

describe('create-only subresource served by the installer (issue #10)', () => {
  const seen: AdmissionAttributes[] = [];
  let server: Server;
  let base: string;

  before(async () => {
    const installer = installerWithToken(true, seen);
    const app = new Koa();
    app.silent = true;
    app.use(withStatusErrors(() => {}));
    app.use(withRequestInfo(new AbortController().signal));
    app.use(async (koa) => {
      const req = requestContextOf(koa);
      req.user = { name: 'tester', groups: ['system:authenticated'] };
      if (req.requestInfo.isResourceRequest) return installer.dispatch(koa, req);
      if (await serveDiscovery(koa, installer, koa.path, 'localhost')) return;
      throw newResourceNotFound();
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const TOKEN = '/api/v1/namespaces/ns1/serviceaccounts/sa1/token';
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { method, headers: { 'Content-Type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, text, body: text.startsWith('{') ? JSON.parse(text) : undefined };
  };

  it('answers 201 with the Creater\'s object in the spelling the body used, defaults applied, no managed fields (as upstream\'s TokenRequest answers)', async () => {
    seen.length = 0;
    const res = await call('POST', `${TOKEN}?fieldManager=tester`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'] } });
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.include({ kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1' });
    expect(res.body.spec).to.deep.equal({ audiences: ['api'], expirationSeconds: 3600, boundObjectRef: null });
    expect(res.body.status).to.deep.equal({ token: 'token-of-ns1/sa1', expirationTimestamp: '2030-01-02T03:04:05Z' });
    expect(res.body.metadata.namespace).to.equal('ns1');
    expect(res.body.metadata).to.not.have.property('managedFields');
    const vendor = await call('POST', TOKEN, { apiVersion: 'authentication.orch.io/v1', kind: 'TokenRequest', spec: {} });
    expect(vendor.status, vendor.text).to.equal(201);
    expect(vendor.body.apiVersion).to.equal('authentication.orch.io/v1');
  });

  it('runs mutating, then validating admission with the parent resource and the Creater\'s kind', async () => {
    seen.length = 0;
    expect((await call('POST', `${TOKEN}?dryRun=All`, { kind: 'TokenRequest', spec: {} })).status).to.equal(201);
    expect(seen.map((a) => a.operation)).to.deep.equal(['CREATE', 'CONNECT']);
    expect(seen[0]).to.include({ group: '', version: 'v1', kind: 'TokenRequest', resource: 'serviceaccounts', subresource: 'token', namespace: 'ns1', name: 'sa1', dryRun: true });
  });

  it('rejects a body of another kind or namespace with 400', async () => {
    const wrongKind = await call('POST', TOKEN, { apiVersion: 'v1', kind: 'ServiceAccount' });
    expect(wrongKind.status).to.equal(400);
    expect(wrongKind.body.message).to.equal('the API version in the data (v1) does not match the expected API version (authentication.orch.io/v1)');
    const otherNamespace = await call('POST', TOKEN, { kind: 'TokenRequest', metadata: { namespace: 'ns2' }, spec: {} });
    expect(otherNamespace.status).to.equal(400);
    expect(otherNamespace.body.message).to.equal('the namespace of the provided object does not match the namespace sent on the request');
  });

  it('answers 405 for every other method on the subresource, as upstream\'s router', async () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const res = await call(method, TOKEN, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(res.status, method).to.equal(405);
      expect(res.text).to.equal(
        '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server does not allow this method on the requested resource","reason":"MethodNotAllowed","details":{},"code":405}\n',
      );
    }
  });

  it('answers 404 for paths upstream registers nothing at', async () => {
    for (const path of ['/api/v1/serviceaccounts/sa1/token', `${TOKEN}/more`, '/api/v1/watch/namespaces/ns1/serviceaccounts/sa1/token', '/api/v1/namespaces/ns1/serviceaccounts/sa1/other']) {
      const res = await call('POST', path, { kind: 'TokenRequest' });
      expect(res.status, path).to.equal(404);
      expect(res.body.reason).to.equal('NotFound');
    }
  });
});
