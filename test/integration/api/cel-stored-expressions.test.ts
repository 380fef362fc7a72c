/**
 * Expressions on update: one already stored compiles in the stored (wider) environment, a new or
 * changed one in the environment of this version (spec 000 § Expression language (CEL) in fields:
 * "Expressions already stored stay valid after a control-plane rollback. A server accepts writes
 * of expressions using a feature only at or after the version that introduced it"; upstream's
 * StoredExpressions / NewExpressions split; issue #20 with issues #13 and #14). The IP and CIDR
 * libraries came with 1.30 while new expressions compile at 1.29: an object stored by a server
 * that wrote such an expression (here: written to etcd behind the server) keeps updating while
 * the expression is unchanged; adding or changing one is refused with 422. For
 * ValidatingAdmissionPolicy validations, webhook matchConditions and CRD `x-<vendor>-validations`.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { keyRootFor } from '../../../lib/registry/generic/resource-storage.js';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import type { TestResponse } from '../../framework/client.js';
import { CRDS, createCRD } from '../../framework/crd.js';
import { useEtcd } from '../../framework/etcd.js';
import { useTestServer } from '../../framework/test-server.js';

type O = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const AR = vendorGroup('admissionregistration');
const AX = vendorGroup('apiextensions');
const expectStatus = (res: TestResponse, status: number) => expect(res.status, res.text).to.equal(status);
/** New expressions (1.29) accept this; it stands in for the stored object's original. */
const OLD_RULE = "isURL('https://example.com')";
/** Only the stored environment (1.30) has the IP and CIDR libraries. */
const STORED_ONLY = "isIP('10.0.0.1')";
const ADDED = "isCIDR('10.0.0.0/8')";
/** Upstream's checker on a function the environment of new expressions does not declare. */
const FEATURE = /undeclared reference to '(isIP|isCIDR)' \(in container ''\)/;

describe('expressions on update: stored vs new environment (spec 000 § Expression language (CEL) in fields)', function () {
  this.timeout(30_000);
  const server = useTestServer();
  const admin = () => server().admin;
  let storage: Etcd3Storage;
  let close: () => void;

  before(async () => {
    const client = newEtcdClient([(await useEtcd()).endpoint]);
    storage = new Etcd3Storage(client);
    close = () => client.close();
  });
  after(() => close?.());

  /**
   * Rewrites the stored object at `path` (API path) behind the server with `change`, as a newer
   * server would have stored it, and waits until the server reads the new version back.
   */
  async function storeBehindServer(path: string, group: string, resource: string, name: string, change: (obj: O) => void): Promise<O> {
    const stored = await storage.guaranteedUpdate(`${keyRootFor(server().prefix, group, resource)}/${name}`, {}, (cur) => {
      const next = structuredClone(cur) as O;
      change(next);
      return next;
    });
    const rv = (stored.metadata as O).resourceVersion as string;
    for (let i = 0; i < 250; i++) {
      const res = await admin().get(path);
      if (res.body?.metadata?.resourceVersion === rv) return res.body as O;
      await sleep(20);
    }
    throw new Error(`the server did not see ${path} at ${rv}`);
  }

  describe('ValidatingAdmissionPolicy validations', () => {
    const path = `/apis/${AR}/v1/validatingadmissionpolicies/stored-vap`;
    let policy: O;

    before(async () => {
      const spec = { matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] }, validations: [{ expression: OLD_RULE }] };
      expectStatus(await admin().post(`/apis/${AR}/v1/validatingadmissionpolicies`, { apiVersion: `${AR}/v1`, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'stored-vap' }, spec }), 201);
      policy = await storeBehindServer(path, AR, 'validatingadmissionpolicies', 'stored-vap', (o) => (o.spec.validations[0].expression = STORED_ONLY));
    });

    it('refuses the expression in a new policy', async () => {
      const spec = { ...policy.spec, validations: [{ expression: STORED_ONLY }] };
      const res = await admin().post(`/apis/${AR}/v1/validatingadmissionpolicies`, { apiVersion: `${AR}/v1`, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'new-vap' }, spec });
      expectStatus(res, 422);
      expect(res.body.details.causes[0]).to.include({ reason: 'FieldValueInvalid', field: 'spec.validations[0].expression' });
      expect(res.body.details.causes[0].message).to.equal("Invalid value: \"isIP('10.0.0.1')\": compilation failed: ERROR: <input>:1:5: undeclared reference to 'isIP' (in container '')\n | isIP('10.0.0.1')\n | ....^");
    });

    it('accepts an update that keeps the stored expression', async () => {
      const res = await admin().put(path, { ...policy, spec: { ...policy.spec, failurePolicy: 'Ignore' } });
      expectStatus(res, 200);
      expect(res.body.spec.validations[0].expression).to.equal(STORED_ONLY);
      policy = res.body;
    });

    it('refuses an update that adds an expression using it, or changes the stored one', async () => {
      const added = await admin().put(path, { ...policy, spec: { ...policy.spec, validations: [...policy.spec.validations, { expression: ADDED }] } });
      expectStatus(added, 422);
      expect(added.body.details.causes.map((c: O) => c.field)).to.deep.equal(['spec.validations[1].expression']);
      expect(added.body.message).to.match(FEATURE);
      const changed = await admin().put(path, { ...policy, spec: { ...policy.spec, validations: [{ expression: "isIP('10.0.0.2')" }] } });
      expectStatus(changed, 422);
      expect(changed.body.details.causes.map((c: O) => c.field)).to.deep.equal(['spec.validations[0].expression']);
    });
  });

  describe('webhook matchConditions', () => {
    const path = `/apis/${AR}/v1/validatingwebhookconfigurations/stored-hooks`;
    let config: O;
    const hook = (conditions: O[]) => ({
      name: 'cm.hooks.example.com',
      clientConfig: { url: 'https://127.0.0.1:1/hook' },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      namespaceSelector: { matchLabels: { 'never-selected': 'x' } },
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      matchConditions: conditions,
    });

    before(async () => {
      const body = { apiVersion: `${AR}/v1`, kind: 'ValidatingWebhookConfiguration', metadata: { name: 'stored-hooks' }, webhooks: [hook([{ name: 'old', expression: OLD_RULE }])] };
      expectStatus(await admin().post(`/apis/${AR}/v1/validatingwebhookconfigurations`, body), 201);
      config = await storeBehindServer(path, AR, 'validatingwebhookconfigurations', 'stored-hooks', (o) => (o.webhooks[0].matchConditions[0].expression = STORED_ONLY));
    });

    it('accepts an update that keeps the stored condition', async () => {
      const res = await admin().put(path, { ...config, webhooks: [{ ...config.webhooks[0], timeoutSeconds: 5 }] });
      expectStatus(res, 200);
      expect(res.body.webhooks[0].matchConditions[0].expression).to.equal(STORED_ONLY);
      config = res.body;
    });

    it('refuses an update that adds a condition using it', async () => {
      const conditions = [...config.webhooks[0].matchConditions, { name: 'added', expression: ADDED }];
      const res = await admin().put(path, { ...config, webhooks: [{ ...config.webhooks[0], matchConditions: conditions }] });
      expectStatus(res, 422);
      expect(res.body.details.causes.map((c: O) => c.field)).to.deep.equal(['webhooks[0].matchConditions[1].expression']);
      expect(res.body.message).to.match(FEATURE);
    });
  });

  describe('CRD x-orch-validations rules', () => {
    const name = 'netthings.stored.example.com';
    const path = `${CRDS}/${name}`;
    let crd: O;
    const definition = (rules: O[]) => ({
      apiVersion: `${AX}/v1`,
      kind: 'CustomResourceDefinition',
      metadata: { name },
      spec: {
        group: 'stored.example.com',
        scope: 'Namespaced',
        names: { plural: 'netthings', singular: 'netthing', kind: 'NetThing' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { addr: { type: 'string', maxLength: 64, 'x-orch-validations': rules } } } } } } }],
      },
    });
    const rulesOf = (o: O): O[] => o.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.addr['x-orch-validations'];

    before(async () => {
      await createCRD(admin(), definition([{ rule: 'isURL(self) || true' }]));
      // A spec change bumps the generation, as the server that stored it did.
      crd = await storeBehindServer(path, AX, 'customresourcedefinitions', name, (o) => {
        rulesOf(o)[0].rule = 'isIP(self)';
        o.metadata.generation += 1;
      });
    });

    it('refuses the rule in a new definition', async () => {
      const fresh = definition([{ rule: 'isIP(self)' }]);
      fresh.metadata.name = 'otherthings.stored.example.com';
      Object.assign(fresh.spec.names, { plural: 'otherthings', singular: 'otherthing', kind: 'OtherThing' });
      const res = await admin().post(CRDS, fresh);
      expectStatus(res, 422);
      expect(res.body.message).to.match(FEATURE);
    });

    it('accepts an update that keeps the stored rule, and the rule is in force', async () => {
      const res = await admin().put(path, { ...crd, metadata: { ...crd.metadata, labels: { touched: 'yes' } } });
      expectStatus(res, 200);
      expect(rulesOf(res.body)[0].rule).to.equal('isIP(self)');
      crd = res.body;
      const objects = '/apis/stored.example.com/v1/namespaces/default/netthings';
      const thing = (n: string, addr: string) => ({ apiVersion: 'stored.example.com/v1', kind: 'NetThing', metadata: { name: n }, spec: { addr } });
      let bad: TestResponse | undefined;
      for (let i = 0; i < 250 && bad?.status !== 422; i++) {
        bad = await admin().post(objects, thing(`bad-${i}`, 'not-an-ip'));
        if (bad.status !== 422) await sleep(20);
      }
      expectStatus(bad!, 422);
      expectStatus(await admin().post(objects, thing('good', '10.1.2.3')), 201);
    });

    it('refuses an update that adds a rule using it', async () => {
      const next = structuredClone(crd);
      rulesOf(next).push({ rule: "isCIDR(self + '/32')" });
      const res = await admin().put(path, next);
      expectStatus(res, 422);
      expect(res.body.message).to.match(FEATURE);
      expect(res.body.details.causes.map((c: O) => c.field)).to.deep.equal(['spec.validation.openAPIV3Schema.properties[spec].properties[addr].x-orch-validations[1].rule']);
    });
  });
});
