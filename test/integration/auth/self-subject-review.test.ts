/**
 * SelfSubjectReview (spec 001 § Client credential plugin, last paragraph; issue #10 item 8): any
 * authenticated user may create one and gets its own attributes back; it is create-only and never
 * stored; it is served under the vendor group and its upstream alias, listed by discovery and
 * OpenAPI.
 */
import { expect } from 'chai';
import { decodeProtobuf, encodeProtobuf } from '../../../lib/apimachinery/serializers/protobuf/index.js';
import { selfSubjectReview } from '../../../lib/apis/authentication/v1/index.js';
import { aliasKindOf } from '../../../lib/apis/group-alias.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const VENDOR = '/apis/authentication.orch.io/v1/selfsubjectreviews';
const ALIAS = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
/** What `kubectl auth whoami` sends (client-go's typed create of an empty SelfSubjectReview). */
const WHOAMI_BODY = { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null }, status: { userInfo: {} } };
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const METHOD_NOT_ALLOWED =
  '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server does not allow this method on the requested resource","reason":"MethodNotAllowed","details":{},"code":405}\n';

describe('SelfSubjectReview (spec 001 § Client credential plugin; issue #10 item 8)', () => {
  const server = useTestServer({ tokens: 'tok,alice,uid-1,"g1,g2"\n' });

  it(`answers the admin certificate user with 201 and its user info, nothing else${covers('001 § Methods › Client certificate')}`, async () => {
    const res = await server().admin.post(VENDOR, { apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' });
    expect(res.status, res.text).to.equal(201);
    expect(Object.keys(res.body)).to.deep.equal(['kind', 'apiVersion', 'metadata', 'status']);
    expect(res.body.metadata.creationTimestamp).to.match(RFC3339);
    expect(res.body.status).to.deep.equal({ userInfo: { username: 'orch-admin', groups: ['system:masters', 'system:authenticated'] } });
  });

  it('answers a static-token user with its name, uid and groups (system:authenticated added), as system:basic-user allows any authenticated user', async () => {
    const res = await server().admin.post(VENDOR, {}, { creds: { token: 'tok' } });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.status.userInfo).to.deep.equal({ username: 'alice', uid: 'uid-1', groups: ['g1', 'g2', 'system:authenticated'] });
  });

  it('forbids an anonymous request (system:basic-user is bound to system:authenticated only)', async () => {
    const res = await server().anonymous.post(VENDOR, {});
    expect(res.status).to.equal(403);
    expect(res.body).to.include({
      reason: 'Forbidden',
      message:
        'selfsubjectreviews.authentication.orch.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectreviews" in API group "authentication.orch.io" at the cluster scope',
    });
  });

  it('answers for the impersonated user when the caller impersonates', async () => {
    const res = await server().admin.post(VENDOR, {}, { headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': 'devs' } });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.status.userInfo.username).to.equal('bob');
    expect(res.body.status.userInfo.groups).to.include('devs');
  });

  it('serves `kubectl auth whoami`\'s request under the upstream alias, answering in the alias spelling', async () => {
    const res = await server().admin.post(ALIAS, WHOAMI_BODY, { creds: { token: 'tok' } });
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.include({ kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' });
    expect(res.body.status.userInfo.username).to.equal('alice');
  });

  it('rejects the alias apiVersion on the vendor path and an unknown field under Strict validation (400)', async () => {
    const wrong = await server().admin.post(VENDOR, WHOAMI_BODY);
    expect(wrong.status).to.equal(400);
    expect(wrong.body.message).to.equal('the API version in the data (authentication.k8s.io/v1) does not match the expected API version (authentication.orch.io/v1)');
    const strict = await server().admin.post(`${VENDOR}?fieldValidation=Strict`, { spec: {} });
    expect(strict.status).to.equal(400);
    expect(strict.body.message).to.equal('SelfSubjectReview in version "v1" cannot be handled as a SelfSubjectReview: strict decoding error: unknown field "spec"');
  });

  it('takes and answers protobuf in the upstream media type under the alias', async () => {
    const PB = 'application/vnd.kubernetes.protobuf';
    const alias = aliasKindOf(selfSubjectReview)!;
    const pk = { apiVersion: alias.apiVersion, kind: alias.kind, schema: alias.schema };
    const res = await server().admin.request('POST', ALIAS, { raw: encodeProtobuf({ metadata: {} }, pk), contentType: PB, headers: { Accept: PB } });
    expect(res.status, res.text).to.equal(201);
    expect(res.headers['content-type']).to.equal(PB);
    const decoded = decodeProtobuf(res.bytes, (apiVersion, kind) => (apiVersion === alias.apiVersion && kind === alias.kind ? alias.schema : undefined));
    expect(decoded.apiVersion).to.equal('authentication.k8s.io/v1');
    expect(decoded.object.status).to.deep.equal({ userInfo: { username: 'orch-admin', groups: ['system:masters', 'system:authenticated'] } });
  });

  it('answers 405 for every other method on the collection, as upstream\'s router', async () => {
    for (const [method, path] of [
      ['GET', VENDOR],
      ['GET', `${VENDOR}?watch=true`],
      ['DELETE', VENDOR],
      ['PUT', VENDOR],
      ['GET', ALIAS],
    ] as const) {
      const res = await server().admin.request(method, path, method === 'PUT' ? { body: {} } : {});
      expect(res.status, `${method} ${path}`).to.equal(405);
      expect(res.text).to.equal(METHOD_NOT_ALLOWED);
    }
  });

  it('answers 404 below the collection, through the legacy /watch/ prefix and in a namespace (no such routes upstream)', async () => {
    for (const [method, path] of [
      ['GET', `${VENDOR}/x`],
      ['DELETE', `${VENDOR}/x`],
      ['POST', `${VENDOR}/x`],
      ['GET', '/apis/authentication.orch.io/v1/watch/selfsubjectreviews'],
      ['POST', '/apis/authentication.orch.io/v1/namespaces/default/selfsubjectreviews'],
    ] as const) {
      const res = await server().admin.request(method, path, method === 'POST' ? { body: {} } : {});
      expect(res.status, `${method} ${path}`).to.equal(404);
      expect(res.body).to.include({ reason: 'NotFound', message: 'the server could not find the requested resource' });
    }
  });

  it('lists the resource in discovery with the one verb create, under both spellings of the group', async () => {
    for (const group of ['authentication.orch.io', 'authentication.k8s.io']) {
      const res = await server().admin.get(`/apis/${group}/v1`);
      expect(res.status).to.equal(200);
      expect(res.body.resources).to.deep.include({ name: 'selfsubjectreviews', singularName: 'selfsubjectreview', namespaced: false, kind: 'SelfSubjectReview', verbs: ['create'] });
      expect((await server().admin.get(`/apis/${group}`)).body.preferredVersion).to.deep.equal({ groupVersion: `${group}/v1`, version: 'v1' });
    }
    const aggregated = await server().admin.get('/apis', { headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } });
    const group = aggregated.body.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'authentication.k8s.io');
    expect(group.versions[0].resources).to.deep.include({
      resource: 'selfsubjectreviews',
      responseKind: { group: '', version: '', kind: 'SelfSubjectReview' },
      scope: 'Cluster',
      singularResource: 'selfsubjectreview',
      verbs: ['create'],
    });
  });

  it('documents the POST path in OpenAPI v2 and v3', async () => {
    const v2 = await server().admin.get('/openapi/v2');
    expect(v2.status).to.equal(200);
    for (const path of [VENDOR, ALIAS]) expect(Object.keys(v2.body.paths[path])).to.deep.equal(['post', 'parameters']);
    expect(v2.body.paths[ALIAS].post.operationId).to.equal('createAuthenticationK8sIoV1SelfSubjectReview');
    const v3 = await server().admin.get('/openapi/v3/apis/authentication.orch.io/v1');
    expect(v3.status).to.equal(200);
    expect(v3.body.paths[VENDOR].post.operationId).to.equal('createAuthenticationV1SelfSubjectReview');
    expect(v3.body.components.schemas).to.have.property('io.orch.api.authentication.v1.UserInfo');
  });
});
