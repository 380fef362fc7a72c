/**
 * The pre-release versions upstream v1.30 ships off by default (issue #15 item 1):
 * `admissionregistration.<vendor>/v1beta1` and `v1alpha1` ValidatingAdmissionPolicy (with
 * `status`) and ValidatingAdmissionPolicyBinding over the v1 storage, `authentication.<vendor>/
 * v1beta1` and `v1alpha1` SelfSubjectReview. Off by default: 404 and absent from discovery. On
 * when `--runtime-config` enables them: CRUD in each version, read back through v1 and the other
 * way, v1 validation on the converted object, upstream's deprecation warnings, discovery listing
 * v1 (preferred), then v1beta1, then v1alpha1.
 */
import { expect } from 'chai';
import { decodeProtobuf } from '../../../lib/apimachinery/serializers/protobuf/index.js';
import { validatingAdmissionPolicyV1alpha1 } from '../../../lib/apis/admissionregistration/v1alpha1/index.js';
import { OPENAPI_DEFINITION_PREFIX, vendorGroup } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const AR = vendorGroup('admissionregistration');
const AUTHN = vendorGroup('authentication');
const VAPS = 'validatingadmissionpolicies';
const VAPBS = 'validatingadmissionpolicybindings';
const SSRS = 'selfsubjectreviews';
const path = (group: string, version: string, resource = '') => `/apis/${group}/${version}${resource ? `/${resource}` : ''}`;
const warning = (text: string) => `299 - "${text}"`;

const policy = (version: string, name: string) => ({
  apiVersion: `${AR}/${version}`,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec: {
    matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] },
    validations: [{ expression: 'object.metadata.name.size() < 20', message: 'short names only' }],
  },
});

const binding = (version: string, name: string, paramRef: object) => ({
  apiVersion: `${AR}/${version}`,
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name },
  spec: { policyName: 'p', paramRef, validationActions: ['Deny'] },
});

interface GroupDoc {
  versions: Array<{ groupVersion: string; version: string }>;
  preferredVersion: { version: string };
}

describe('pre-release versions off by default (issue #15 item 1)', function () {
  this.timeout(60_000);

  describe('without --runtime-config', () => {
    const server = useTestServer();

    it(`answers 404 for the v1beta1 and v1alpha1 versions and lists only v1 in discovery${covers('001 § API versions and groups › Beta', '001 § API versions and groups › Alpha', '001 § API versions and groups › Stable')}`, async () => {
      const admin = server().admin;
      for (const v of ['v1beta1', 'v1alpha1']) {
        expect((await admin.get(path(AR, v))).status, `${AR}/${v}`).to.equal(404);
        expect((await admin.get(path(AR, v, VAPS))).status, `${AR}/${v} ${VAPS}`).to.equal(404);
        expect((await admin.get(path(AR, v, VAPBS))).status, `${AR}/${v} ${VAPBS}`).to.equal(404);
        expect((await admin.post(path(AR, v, VAPS), policy(v, 'off'))).status).to.equal(404);
        expect((await admin.get(path(AUTHN, v))).status, `${AUTHN}/${v}`).to.equal(404);
        expect((await admin.post(path(AUTHN, v, SSRS), { apiVersion: `${AUTHN}/${v}`, kind: 'SelfSubjectReview' })).status).to.equal(404);
      }
      for (const g of [AR, AUTHN]) {
        const doc = (await admin.get(`/apis/${g}`)).body as GroupDoc;
        expect(doc.versions.map((v) => v.version), g).to.deep.equal(['v1']);
      }
      expect((await admin.get(path(AR, 'v1', VAPS))).status).to.equal(200);
    });
  });

  describe('enabled with --runtime-config', () => {
    const server = useTestServer({ runtimeConfig: [`${AR}/v1beta1=true`, `${AR}/v1alpha1=true`, `${AUTHN}/v1beta1=true`, `${AUTHN}/v1alpha1=true`].join(',') });
    const admin = () => server().admin;
    const BETA_WARNING = (kind: string) => warning(`${AR}/v1beta1 ${kind} is deprecated in v1.29+, unavailable in v1.32+`);
    const ALPHA_WARNING = (kind: string) => warning(`${AR}/v1alpha1 ${kind} is deprecated in v1.29+, unavailable in v1.32+; use ${AR}/v1 ${kind}`);

    it('lists v1 (preferred), v1beta1 and v1alpha1 in discovery, with the policy kinds only', async () => {
      for (const g of [AR, AUTHN]) {
        const doc = (await admin().get(`/apis/${g}`)).body as GroupDoc;
        expect(doc.versions.map((v) => v.version), g).to.deep.equal(['v1', 'v1beta1', 'v1alpha1']);
        expect(doc.preferredVersion.version).to.equal('v1');
        const apis = (await admin().get('/apis')).body as { groups: Array<{ name: string } & GroupDoc> };
        expect(apis.groups.find((x) => x.name === g)?.versions.map((v) => v.version)).to.deep.equal(['v1', 'v1beta1', 'v1alpha1']);
      }
      for (const v of ['v1beta1', 'v1alpha1']) {
        const list = (await admin().get(path(AR, v))).body as { resources: Array<{ name: string; kind: string; verbs: string[] }> };
        expect(list.resources.map((r) => `${r.name} ${r.kind} ${r.verbs.join(',')}`), v).to.deep.equal([
          `${VAPS} ValidatingAdmissionPolicy create,delete,deletecollection,get,list,patch,update,watch`,
          `${VAPS}/status ValidatingAdmissionPolicy get,patch,update`,
          `${VAPBS} ValidatingAdmissionPolicyBinding create,delete,deletecollection,get,list,patch,update,watch`,
        ]);
        const ssr = (await admin().get(path(AUTHN, v))).body as { resources: Array<{ name: string; verbs: string[] }> };
        expect(ssr.resources.map((r) => [r.name, r.verbs])).to.deep.equal([[SSRS, ['create']]]);
      }
    });

    it('v1beta1 policy: create, get, update, patch, status, list and delete with the warning; read back through v1', async () => {
      const created = await admin().post(path(AR, 'v1beta1', VAPS), policy('v1beta1', 'beta-crud'));
      expect(created.status, created.text).to.equal(201);
      expect(created.headers.warning).to.equal(BETA_WARNING('ValidatingAdmissionPolicy'));
      expect(created.body.apiVersion).to.equal(`${AR}/v1beta1`);
      expect(created.body.spec.failurePolicy).to.equal('Fail');
      expect(created.body.spec.matchConstraints.matchPolicy).to.equal('Equivalent');
      expect(created.body.metadata.generation).to.equal(1);
      const v1 = await admin().get(path(AR, 'v1', `${VAPS}/beta-crud`));
      expect(v1.headers.warning).to.equal(undefined);
      expect(v1.body.apiVersion).to.equal(`${AR}/v1`);
      expect(v1.body.spec).to.deep.equal(created.body.spec);
      const got = await admin().get(path(AR, 'v1beta1', `${VAPS}/beta-crud`));
      const updated = await admin().put(path(AR, 'v1beta1', `${VAPS}/beta-crud`), { ...got.body, spec: { ...got.body.spec, failurePolicy: 'Ignore' } });
      expect(updated.status, updated.text).to.equal(200);
      expect(updated.body.metadata.generation).to.equal(2);
      const patched = await admin().patch(path(AR, 'v1beta1', `${VAPS}/beta-crud`), { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json');
      expect(patched.status, patched.text).to.equal(200);
      expect(patched.headers.warning).to.equal(BETA_WARNING('ValidatingAdmissionPolicy'));
      const status = await admin().put(path(AR, 'v1beta1', `${VAPS}/beta-crud/status`), { ...patched.body, status: { observedGeneration: 2 } });
      expect(status.status, status.text).to.equal(200);
      expect(status.body.status.observedGeneration).to.equal(2);
      expect((await admin().get(path(AR, 'v1', `${VAPS}/beta-crud`))).body.status.observedGeneration).to.equal(2);
      const list = await admin().get(path(AR, 'v1beta1', VAPS));
      expect(list.body.apiVersion).to.equal(`${AR}/v1beta1`);
      expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.include('beta-crud');
      expect((await admin().delete(path(AR, 'v1beta1', `${VAPS}/beta-crud`))).status).to.equal(200);
      expect((await admin().get(path(AR, 'v1', `${VAPS}/beta-crud`))).status).to.equal(404);
    });

    it('written through v1, the policy reads in v1beta1 and v1alpha1 with the same spec', async () => {
      const created = await admin().post(path(AR, 'v1', VAPS), policy('v1', 'from-v1'));
      expect(created.status, created.text).to.equal(201);
      for (const v of ['v1beta1', 'v1alpha1']) {
        const got = await admin().get(path(AR, v, `${VAPS}/from-v1`));
        expect(got.status, got.text).to.equal(200);
        expect(got.body.apiVersion).to.equal(`${AR}/${v}`);
        expect(got.body.spec).to.deep.equal(created.body.spec);
      }
      const alpha = await admin().get(path(AR, 'v1alpha1', `${VAPS}/from-v1`));
      expect(alpha.headers.warning).to.equal(ALPHA_WARNING('ValidatingAdmissionPolicy'));
    });

    it('answers in protobuf and publishes the versions in OpenAPI under their own definitions', async () => {
      expect((await admin().post(path(AR, 'v1alpha1', VAPS), policy('v1alpha1', 'pb'))).status).to.equal(201);
      const pb = await admin().get(path(AR, 'v1alpha1', `${VAPS}/pb`), { headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
      expect(pb.status, pb.text).to.equal(200);
      const decoded = decodeProtobuf(pb.bytes, (apiVersion, kind) => (apiVersion === `${AR}/v1alpha1` && kind === 'ValidatingAdmissionPolicy' ? validatingAdmissionPolicyV1alpha1.schema : undefined));
      expect(decoded.object.spec).to.deep.equal((await admin().get(path(AR, 'v1alpha1', `${VAPS}/pb`))).body.spec);
      const v2 = (await admin().get('/openapi/v2')).body as { definitions: Record<string, unknown>; paths: Record<string, unknown> };
      for (const v of ['v1beta1', 'v1alpha1']) {
        expect(Object.keys(v2.definitions), v).to.include.members([
          `${OPENAPI_DEFINITION_PREFIX}api.admissionregistration.${v}.ValidatingAdmissionPolicy`,
          `${OPENAPI_DEFINITION_PREFIX}api.admissionregistration.${v}.ValidatingAdmissionPolicySpec`,
          `${OPENAPI_DEFINITION_PREFIX}api.admissionregistration.${v}.ValidatingAdmissionPolicyBinding`,
          `${OPENAPI_DEFINITION_PREFIX}api.authentication.${v}.SelfSubjectReview`,
        ]);
        expect(Object.keys(v2.paths), v).to.include(`/apis/${AR}/${v}/${VAPS}/{name}/status`);
      }
    });

    it('validates with the v1 rules, in the version written', async () => {
      const bad = policy('v1beta1', 'bad');
      bad.spec.validations = [{ expression: '', message: 'x' }];
      const res = await admin().post(path(AR, 'v1beta1', VAPS), bad);
      expect(res.status, res.text).to.equal(422);
      expect(res.body.details.kind).to.equal('ValidatingAdmissionPolicy');
      expect(res.body.details.group).to.equal(AR);
      expect(res.body.details.causes.map((c: { field: string }) => c.field)).to.include('spec.validations[0].expression');
    });

    it('binding: v1alpha1 defaults paramRef.parameterNotFoundAction to Deny; v1beta1, like v1, requires it', async () => {
      const alpha = await admin().post(path(AR, 'v1alpha1', VAPBS), binding('v1alpha1', 'alpha-b', { name: 'params', namespace: 'default' }));
      expect(alpha.status, alpha.text).to.equal(201);
      expect(alpha.headers.warning).to.equal(ALPHA_WARNING('ValidatingAdmissionPolicyBinding'));
      expect(alpha.body.spec.paramRef).to.deep.equal({ name: 'params', namespace: 'default', parameterNotFoundAction: 'Deny' });
      const v1 = await admin().get(path(AR, 'v1', `${VAPBS}/alpha-b`));
      expect(v1.body.spec).to.deep.equal(alpha.body.spec);
      const beta = await admin().post(path(AR, 'v1beta1', VAPBS), binding('v1beta1', 'beta-b', { name: 'params', namespace: 'default' }));
      expect(beta.status, beta.text).to.equal(422);
      expect(beta.body.details.causes).to.deep.equal([{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.paramRef.parameterNotFoundAction' }]);
      const ok = await admin().post(path(AR, 'v1beta1', VAPBS), binding('v1beta1', 'beta-b', { name: 'params', parameterNotFoundAction: 'Allow' }));
      expect(ok.status, ok.text).to.equal(201);
      expect(ok.headers.warning).to.equal(BETA_WARNING('ValidatingAdmissionPolicyBinding'));
      expect((await admin().get(path(AR, 'v1alpha1', `${VAPBS}/beta-b`))).body.spec.paramRef).to.deep.equal({ name: 'params', parameterNotFoundAction: 'Allow' });
    });

    it('SelfSubjectReview answers in v1beta1 and v1alpha1 as in v1, with their warnings', async () => {
      const v1 = await admin().post(path(AUTHN, 'v1', SSRS), { apiVersion: `${AUTHN}/v1`, kind: 'SelfSubjectReview' });
      expect(v1.status, v1.text).to.equal(201);
      const expected: Record<string, string> = {
        v1beta1: warning(`${AUTHN}/v1beta1 SelfSubjectReview is deprecated in v1.30+, unavailable in v1.33+`),
        v1alpha1: warning(`${AUTHN}/v1alpha1 SelfSubjectReview is deprecated in v1.29+`),
      };
      for (const v of ['v1beta1', 'v1alpha1']) {
        const res = await admin().post(path(AUTHN, v, SSRS), { apiVersion: `${AUTHN}/${v}`, kind: 'SelfSubjectReview' });
        expect(res.status, res.text).to.equal(201);
        expect(res.headers.warning).to.equal(expected[v]);
        expect(res.body.apiVersion).to.equal(`${AUTHN}/${v}`);
        expect(res.body.kind).to.equal('SelfSubjectReview');
        expect(res.body.status).to.deep.equal(v1.body.status);
      }
    });
  });

  describe('api/beta=true', () => {
    const server = useTestServer({ runtimeConfig: 'api/beta=true' });

    it(`enables the v1beta1 versions and leaves v1alpha1 off${covers('001 § API versions and groups › Beta', '001 § API versions and groups › Alpha')}`, async () => {
      const admin = server().admin;
      for (const g of [AR, AUTHN]) {
        const doc = (await admin.get(`/apis/${g}`)).body as GroupDoc;
        expect(doc.versions.map((v) => v.version), g).to.deep.equal(['v1', 'v1beta1']);
      }
      expect((await admin.get(path(AR, 'v1beta1', VAPS))).status).to.equal(200);
      expect((await admin.get(path(AR, 'v1alpha1', VAPS))).status).to.equal(404);
    });
  });
});
