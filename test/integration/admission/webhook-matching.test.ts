import { expect } from 'chai';
import { AdmissionWebhookServer, deny } from '../../framework/admission-webhook.js';
import { useTestServer } from '../../framework/test-server.js';
import { configMap, configMapRule, createConfiguration, eventually, urlWebhook, waitForWebhook } from './webhook-helpers.js';

const NS = 'default';
const CM = `/api/v1/namespaces/${NS}/configmaps`;

describe('Which requests admission webhooks see: selectors, match conditions, dry run, equivalent versions (spec 001 § Admission control)', function () {
  this.timeout(30_000);
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook'] } });
  let hook: AdmissionWebhookServer;
  let n = 0;
  const create = (labels: Record<string, string>, opts: { query?: string; ns?: string } = {}) =>
    server().admin.post(`/api/v1/namespaces/${opts.ns ?? NS}/configmaps${opts.query ?? ''}`, configMap(`cm-${++n}`, labels));
  const called = (path: string) => hook.reviewsAt(path).length;

  before(async () => {
    hook = await AdmissionWebhookServer.start();
  });

  after(async () => {
    await hook.stop();
  });

  describe('matchConditions', () => {
    before(async () => {
      const sel = (v: string) => ({ objectSelector: { matchLabels: { cond: v } } });
      await createConfiguration(server().admin, 'Validating', 'conditions', [
        urlWebhook('cond.example.com', hook.url('/cond'), hook.caBundle, {
          ...sel('plain'),
          matchConditions: [
            { name: 'not-skipped', expression: "!('skip' in object.data)" },
            { name: 'is-create', expression: "request.operation == 'CREATE'" },
          ],
        }),
        urlWebhook('cond-error.example.com', hook.url('/cond-error'), hook.caBundle, {
          ...sel('error'),
          matchConditions: [{ name: 'needs-x', expression: "object.data.x == 'y'" }],
        }),
        urlWebhook('cond-error-ignored.example.com', hook.url('/cond-error-ignored'), hook.caBundle, {
          ...sel('error-ignored'),
          failurePolicy: 'Ignore',
          matchConditions: [{ name: 'needs-x', expression: "object.data.x == 'y'" }],
        }),
        urlWebhook('cond-authz.example.com', hook.url('/cond-authz'), hook.caBundle, {
          ...sel('authz'),
          matchConditions: [{ name: 'not-admin', expression: "!authorizer.group('').resource('nodes').check('delete').allowed()" }],
        }),
      ]);
      hook.on('/cond', () => deny('called', 403));
      hook.on('/cond-error', () => deny('called', 403));
      await waitForWebhook(server().admin, hook, '/cond', NS, { cond: 'plain' });
    });

    it('calls the webhook only when every condition holds', async () => {
      const before = called('/cond');
      expect((await server().admin.post(CM, configMap(`cm-${++n}`, { cond: 'plain' }, { skip: '1' }))).status).to.equal(201);
      expect(called('/cond')).to.equal(before);
      expect((await create({ cond: 'plain' })).status).to.equal(403);
      expect(called('/cond')).to.equal(before + 1);
    });

    it('rejects with 403 when a condition errs and the failure policy is Fail, skips the webhook with Ignore', async () => {
      const res = await create({ cond: 'error' });
      expect(res.status, res.text).to.equal(403);
      expect(res.body.message).to.match(/^configmaps "cm-\d+" is forbidden: expression 'object\.data\.x == 'y'' resulted in error: .*x/);
      expect(called('/cond-error')).to.equal(0);
      expect((await create({ cond: 'error-ignored' })).status).to.equal(201);
      expect(called('/cond-error-ignored')).to.equal(0);
    });

    it('lets a condition ask the authorizer about the requesting user', async () => {
      hook.on('/cond-authz', () => deny('called', 403));
      expect((await create({ cond: 'authz' })).status).to.equal(201);
      expect(called('/cond-authz')).to.equal(0);
    });
  });

  describe('namespaceSelector', () => {
    before(async () => {
      const admin = server().admin;
      for (const [name, labels] of [['selected', { team: 'a' }], ['unselected', { team: 'b' }]] as const) {
        expect((await admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } })).status).to.equal(201);
      }
      await createConfiguration(admin, 'Validating', 'by-namespace', [
        urlWebhook('ns.example.com', hook.url('/ns'), hook.caBundle, {
          namespaceSelector: { matchLabels: { team: 'a' } },
          objectSelector: { matchLabels: { nssel: 'yes' } },
          rules: [configMapRule(), { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] }],
        }),
      ]);
      hook.on('/ns', () => deny('team a only', 403));
      await eventually(async () => (await create({ nssel: 'yes' }, { ns: 'selected' })).status === 403, 'the configuration is in effect');
    });

    it('calls the webhook for objects of namespaces its selector selects only', async () => {
      expect((await create({ nssel: 'yes' }, { ns: 'selected' })).status).to.equal(403);
      expect((await create({ nssel: 'yes' }, { ns: 'unselected' })).status).to.equal(201);
    });

    it('tests a Namespace being created on its own labels', async () => {
      const ns = (name: string, team: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { team, nssel: 'yes' } } });
      expect((await server().admin.post('/api/v1/namespaces', ns('new-a', 'a'))).status).to.equal(403);
      expect((await server().admin.post('/api/v1/namespaces', ns('new-b', 'b'))).status).to.equal(201);
    });
  });

  describe('dry run and sideEffects', () => {
    // v1 accepts only None and NoneOnDryRun; the 400 for Some/Unknown (possible in objects stored
    // through older versions) is covered by the unit tests of the call.
    before(async () => {
      const sel = (v: string) => ({ objectSelector: { matchLabels: { effects: v } } });
      await createConfiguration(server().admin, 'Validating', 'side-effects', [
        urlWebhook('none.example.com', hook.url('/none'), hook.caBundle, { ...sel('none'), sideEffects: 'None' }),
        urlWebhook('on-dry-run.example.com', hook.url('/on-dry-run'), hook.caBundle, { ...sel('none-on-dry-run'), sideEffects: 'NoneOnDryRun' }),
      ]);
    });

    it('calls None and NoneOnDryRun webhooks on a dry run with dryRun true, and a denial still rejects it', async () => {
      for (const [path, label] of [['/none', 'none'], ['/on-dry-run', 'none-on-dry-run']]) {
        await waitForWebhook(server().admin, hook, path!, NS, { effects: label! });
        const last = hook.reviewsAt(path!).at(-1)!.body.request;
        expect(last.dryRun, path).to.equal(true);
        expect(last.options.dryRun, path).to.deep.equal(['All']);
      }
      hook.on('/none', () => deny('not even in a dry run', 403));
      const res = await create({ effects: 'none' }, { query: '?dryRun=All' });
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('admission webhook "none.example.com" denied the request: not even in a dry run');
    });
  });

  describe('matchPolicy Equivalent', () => {
    before(async () => {
      await createConfiguration(server().admin, 'Mutating', 'hpa-v1', [
        urlWebhook('hpa.example.com', hook.url('/hpa'), hook.caBundle, {
          rules: [{ operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v1'], resources: ['horizontalpodautoscalers'] }],
        }),
      ]);
    });

    it('sends a request made in another version converted to the version the rule names, and applies its patch', async () => {
      hook.on('/hpa', () => ({
        response: {
          allowed: true,
          patchType: 'JSONPatch',
          patch: Buffer.from(JSON.stringify([{ op: 'replace', path: '/spec/targetCPUUtilizationPercentage', value: 42 }])).toString('base64'),
        },
      }));
      const group = (await server().admin.get('/apis')).body.groups.find((g: { name: string }) => g.name.startsWith('autoscaling')).name as string;
      const hpa = (name: string) => ({
        apiVersion: `${group}/v2`,
        kind: 'HorizontalPodAutoscaler',
        metadata: { name },
        spec: {
          scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' },
          maxReplicas: 3,
          metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
        },
      });
      const path = `/apis/${group}/v2/namespaces/${NS}/horizontalpodautoscalers`;
      await eventually(async () => {
        const res = await server().admin.post(`${path}?dryRun=All`, hpa(`probe-${++n}`));
        return res.status === 201 && res.body.spec.metrics[0].resource.target.averageUtilization === 42;
      }, 'the configuration is in effect');
      const res = await server().admin.post(path, hpa('converted'));
      expect(res.status, res.text).to.equal(201);
      expect(res.body.spec.metrics[0].resource.target.averageUtilization).to.equal(42);
      const review = hook.reviewsAt('/hpa').find((r) => r.body.request.name === 'converted')!.body.request;
      expect(review.kind).to.deep.equal({ group, version: 'v1', kind: 'HorizontalPodAutoscaler' });
      expect(review.requestKind).to.deep.equal({ group, version: 'v2', kind: 'HorizontalPodAutoscaler' });
      expect(review.object.apiVersion).to.equal(`${group}/v1`);
      expect(review.object.spec.targetCPUUtilizationPercentage).to.equal(80);
    });
  });
});
