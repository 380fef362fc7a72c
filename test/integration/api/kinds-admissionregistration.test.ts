import { expect } from 'chai';
import { META_GROUP, upstreamAlias, vendorGroup } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const GROUP = vendorGroup('admissionregistration');
const BASE = `/apis/${GROUP}/v1`;
const MERGE = 'application/merge-patch+json';
const TABLE = `application/json;as=Table;g=${META_GROUP};v=v1`;

type O = Record<string, unknown>;

const webhook = (extra: O = {}): O => ({
  name: 'pods.hooks.example.com',
  clientConfig: { service: { namespace: 'hooks', name: 'webhook' } },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});
const policySpec = (extra: O = {}): O => ({
  matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }] },
  validations: [{ expression: 'object.spec.replicas <= 5' }],
  ...extra,
});

/** One kind of the suite: its collection, a valid object and a valid change of it. */
interface Case {
  kind: string;
  resource: string;
  make: (name: string) => O;
  change: (o: O) => O;
}

const CASES: Case[] = [
  {
    kind: 'MutatingWebhookConfiguration',
    resource: 'mutatingwebhookconfigurations',
    make: (name) => ({ metadata: { name }, webhooks: [webhook()] }),
    change: (o) => ({ ...o, webhooks: [webhook({ timeoutSeconds: 3 })] }),
  },
  {
    kind: 'ValidatingAdmissionPolicy',
    resource: 'validatingadmissionpolicies',
    make: (name) => ({ metadata: { name }, spec: policySpec() }),
    change: (o) => ({ ...o, spec: { ...(o.spec as O), failurePolicy: 'Ignore' } }),
  },
  {
    kind: 'ValidatingAdmissionPolicyBinding',
    resource: 'validatingadmissionpolicybindings',
    make: (name) => ({ metadata: { name }, spec: { policyName: 'replica-limit', validationActions: ['Deny'] } }),
    change: (o) => ({ ...o, spec: { ...(o.spec as O), validationActions: ['Warn', 'Audit'] } }),
  },
  {
    kind: 'ValidatingWebhookConfiguration',
    resource: 'validatingwebhookconfigurations',
    make: (name) => ({ metadata: { name }, webhooks: [webhook()] }),
    change: (o) => ({ ...o, webhooks: [webhook({ failurePolicy: 'Ignore' })] }),
  },
];

describe(`admissionregistration/v1 kinds over HTTP (issue #12)`, () => {
  const server = useTestServer();

  it('discovery lists the four resources in upstream order, cluster-scoped, category api-extensions, with validatingadmissionpolicies/status', async () => {
    const res = await server().admin.get(BASE);
    expect(res.status).to.equal(200);
    const names = res.body.resources.map((r: O) => r.name);
    expect(names).to.deep.equal([
      'mutatingwebhookconfigurations',
      'validatingadmissionpolicies',
      'validatingadmissionpolicies/status',
      'validatingadmissionpolicybindings',
      'validatingwebhookconfigurations',
    ]);
    for (const r of res.body.resources.filter((x: O) => !String(x.name).includes('/'))) {
      expect(r, String(r.name)).to.deep.include({ namespaced: false, categories: ['api-extensions'] });
      expect(r).not.to.have.property('shortNames');
    }
  });

  for (const c of CASES) {
    it(`${c.kind}: creates (201, generation 1), gets, lists, updates, patches and deletes`, async () => {
      const admin = server().admin;
      const collection = `${BASE}/${c.resource}`;
      const created = await admin.post(collection, c.make('crud'));
      expect(created.status, created.text).to.equal(201);
      expect(created.body).to.include({ kind: c.kind, apiVersion: `${GROUP}/v1` });
      expect(created.body.metadata.generation).to.equal(1);
      const path = `${collection}/crud`;
      expect((await admin.get(path)).body.metadata.uid).to.equal(created.body.metadata.uid);
      const list = await admin.get(`${collection}?fieldSelector=metadata.name=crud`);
      expect(list.body.kind).to.equal(`${c.kind}List`);
      expect(list.body.items.map((i: O) => (i.metadata as O).name)).to.deep.equal(['crud']);
      const updated = await admin.put(path, c.change(created.body));
      expect(updated.status, updated.text).to.equal(200);
      expect(updated.body.metadata.generation).to.equal(2);
      const relabelled = await admin.patch(path, { metadata: { labels: { team: 'a' } } }, MERGE);
      expect(relabelled.status, relabelled.text).to.equal(200);
      expect(relabelled.body.metadata).to.deep.include({ labels: { team: 'a' }, generation: 2 });
      const deleted = await admin.delete(path);
      expect(deleted.status).to.equal(200);
      expect((await admin.get(path)).status).to.equal(404);
    });
  }

  it('a PUT without resourceVersion is rejected, as upstream forbids unconditional updates', async () => {
    const admin = server().admin;
    const created = (await admin.post(`${BASE}/validatingwebhookconfigurations`, { metadata: { name: 'unconditional' }, webhooks: [webhook()] })).body;
    const res = await admin.put(`${BASE}/validatingwebhookconfigurations/unconditional`, { ...created, metadata: { name: 'unconditional' } });
    expect(res.status).to.equal(422);
    expect(res.body.message).to.equal(`validatingwebhookconfigurations.${GROUP} "unconditional" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`);
    expect(res.body.details.kind).to.equal('validatingwebhookconfigurations');
    expect(res.body.details.causes).to.deep.equal([{ reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' }]);
  });

  it(`shows the upstream defaults of a webhook and of a policy${covers('001 § Limits › Default webhook timeout')}`, async () => {
    const admin = server().admin;
    const hook = (await admin.post(`${BASE}/mutatingwebhookconfigurations`, { metadata: { name: 'defaults' }, webhooks: [webhook()] })).body.webhooks[0];
    expect(hook).to.deep.equal({
      name: 'pods.hooks.example.com',
      clientConfig: { service: { namespace: 'hooks', name: 'webhook', port: 443 } },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }],
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      sideEffects: 'None',
      timeoutSeconds: 10,
      admissionReviewVersions: ['v1'],
      reinvocationPolicy: 'Never',
    });
    const policy = (await admin.post(`${BASE}/validatingadmissionpolicies`, { metadata: { name: 'defaults' }, spec: policySpec() })).body;
    expect(policy.spec).to.deep.include({ failurePolicy: 'Fail' });
    expect(policy.spec.matchConstraints).to.deep.include({ namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' });
    expect(policy.status).to.deep.equal({});
  });

  it('answers 422 with the upstream causes for an invalid webhook configuration', async () => {
    const res = await server().admin.post(`${BASE}/validatingwebhookconfigurations`, {
      metadata: { name: 'invalid' },
      webhooks: [webhook({ sideEffects: undefined, clientConfig: { url: 'http://hooks.example.com' }, matchConditions: [{ name: 'c', expression: "'x'" }] })],
    });
    expect(res.status).to.equal(422);
    expect(res.body).to.include({ kind: 'Status', reason: 'Invalid' });
    expect(res.body.details).to.include({ name: 'invalid', group: GROUP, kind: 'ValidatingWebhookConfiguration' });
    expect(res.body.details.causes).to.deep.equal([
      { reason: 'FieldValueRequired', message: 'Required value: must specify one of None, NoneOnDryRun', field: 'webhooks[0].sideEffects' },
      { reason: 'FieldValueInvalid', message: "Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]", field: 'webhooks[0].clientConfig.url' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "\'x\'": must evaluate to bool', field: 'webhooks[0].matchConditions[0].expression' },
    ]);
  });

  it('answers 422 for a webhook without admissionReviewVersions and for two webhooks of one name, on both kinds', async () => {
    for (const resource of ['validatingwebhookconfigurations', 'mutatingwebhookconfigurations']) {
      const res = await server().admin.post(`${BASE}/${resource}`, {
        metadata: { name: 'review-and-names' },
        webhooks: [webhook({ admissionReviewVersions: undefined }), webhook()],
      });
      expect(res.status, resource).to.equal(422);
      expect(res.body.details.causes, resource).to.deep.equal([
        { reason: 'FieldValueRequired', message: 'Required value: must specify one of v1, v1beta1', field: 'webhooks[0].admissionReviewVersions' },
        { reason: 'FieldValueDuplicate', message: 'Duplicate value: "pods.hooks.example.com"', field: 'webhooks[1].name' },
      ]);
      expect((await server().admin.get(`${BASE}/${resource}/review-and-names`)).status).to.equal(404);
    }
  });

  it('answers 422 for a policy whose CEL does not compile, and for a binding with Deny and Warn', async () => {
    const admin = server().admin;
    const bad = await admin.post(`${BASE}/validatingadmissionpolicies`, { metadata: { name: 'bad-cel' }, spec: policySpec({ validations: [{ expression: 'params.max > 1' }] }) });
    expect(bad.status).to.equal(422);
    expect(bad.body.details.causes.map((c: O) => c.field)).to.deep.equal(['spec.validations[0].expression']);
    expect(bad.body.details.causes[0].message).to.match(/^Invalid value: "params\.max > 1": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'/);
    const binding = await admin.post(`${BASE}/validatingadmissionpolicybindings`, { metadata: { name: 'both' }, spec: { policyName: 'p', validationActions: ['Deny', 'Warn'] } });
    expect(binding.status).to.equal(422);
    expect(binding.body.details.causes[0].field).to.equal('spec.validationActions');
  });

  it('ValidatingAdmissionPolicy status: dropped on create, ignored by main writes, written through /status', async () => {
    const admin = server().admin;
    const path = `${BASE}/validatingadmissionpolicies/status-test`;
    const created = (await admin.post(`${BASE}/validatingadmissionpolicies`, { metadata: { name: 'status-test' }, spec: policySpec(), status: { observedGeneration: 7 } })).body;
    expect(created.status).to.deep.equal({});
    const status = {
      observedGeneration: 1,
      typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'no such key' }] },
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'Checked', message: '' }],
    };
    const written = await admin.put(`${path}/status`, { ...created, spec: policySpec({ failurePolicy: 'Ignore' }), status });
    expect(written.status, written.text).to.equal(200);
    expect(written.body.status).to.deep.equal(status);
    expect(written.body.spec.failurePolicy).to.equal('Fail');
    expect(written.body.metadata.generation).to.equal(1);
    const main = await admin.put(path, { ...written.body, status: {} });
    expect(main.body.status).to.deep.equal(status);
    const invalid = await admin.patch(`${path}/status`, { status: { typeChecking: { expressionWarnings: [{ fieldRef: 'x', warning: '' }] } } }, MERGE);
    expect(invalid.status).to.equal(422);
    expect(invalid.body.details.causes).to.deep.equal([{ reason: 'FieldValueRequired', message: 'Required value', field: 'status.typeChecking.expressionWarnings[0].warning' }]);
  });

  it('prints Tables with the upstream columns', async () => {
    const admin = server().admin;
    await admin.post(`${BASE}/validatingadmissionpolicybindings`, { metadata: { name: 'printed' }, spec: { policyName: 'limit', paramRef: { name: 'p', namespace: 'rules', parameterNotFoundAction: 'Deny' }, validationActions: ['Deny'] } });
    const table = await admin.get(`${BASE}/validatingadmissionpolicybindings/printed`, { headers: { Accept: TABLE } });
    expect(table.body.columnDefinitions.map((c: O) => c.name)).to.deep.equal(['Name', 'PolicyName', 'ParamRef', 'Age']);
    expect(table.body.rows[0].cells.slice(0, 3)).to.deep.equal(['printed', 'limit', 'rules/p']);
  });

  it('is served under the upstream alias of the group too', async () => {
    const admin = server().admin;
    await admin.post(`${BASE}/validatingwebhookconfigurations`, { metadata: { name: 'aliased' }, webhooks: [webhook()] });
    const alias = upstreamAlias(GROUP)!;
    const res = await admin.get(`/apis/${alias}/v1/validatingwebhookconfigurations/aliased`);
    expect(res.status).to.equal(200);
    expect(res.body.apiVersion).to.equal(`${alias}/v1`);
  });
});
