import { expect } from 'chai';
import { AdmissionWebhookServer, allow, patch } from '../../framework/admission-webhook.js';
import { useTestServer } from '../../framework/test-server.js';
import { configMap, configMapRule, createConfiguration, deleteConfiguration, urlWebhook, waitForWebhook } from './webhook-helpers.js';

const NS = 'default';
const CM = `/api/v1/namespaces/${NS}/configmaps`;

/** A patch labelling the object `mutated: yes` (adding the labels map when there is none). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const labelPatch = (review: any) =>
  review.request.object?.metadata.labels
    ? patch([{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }])
    : patch([{ op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }]);

describe('MutatingAdmissionWebhook against a real server and HTTPS webhooks (spec 001 § Admission control)', function () {
  this.timeout(30_000);
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook'] } });
  let hook: AdmissionWebhookServer;

  before(async () => {
    hook = await AdmissionWebhookServer.start();
  });

  after(async () => {
    await hook.stop();
  });

  describe('patches', () => {
    before(async () => {
      const admin = server().admin;
      // Created in reverse name order: webhooks run by configuration name, then in order.
      await createConfiguration(admin, 'Mutating', 'b-second', [urlWebhook('second.example.com', hook.url('/second'), hook.caBundle, { objectSelector: { matchLabels: { chain: 'yes' } } })]);
      await createConfiguration(admin, 'Mutating', 'a-first', [
        urlWebhook('label.example.com', hook.url('/label'), hook.caBundle, { rules: [configMapRule(['CREATE', 'UPDATE', 'DELETE'])] }),
        urlWebhook('beta.example.com', hook.url('/beta'), hook.caBundle, { admissionReviewVersions: ['v1beta1', 'v1'], objectSelector: { matchLabels: { beta: 'yes' } } }),
      ]);
      hook.on('/label', labelPatch);
      await waitForWebhook(admin, hook, '/label');
      await waitForWebhook(admin, hook, '/second', NS, { chain: 'yes' });
    });

    it('applies a JSONPatch answer to the stored object', async () => {
      const res = await server().admin.post(CM, configMap('patched'));
      expect(res.status, res.text).to.equal(201);
      expect(res.body.metadata.labels).to.deep.equal({ mutated: 'yes' });
      expect((await server().admin.get(`${CM}/patched`)).body.metadata.labels).to.deep.equal({ mutated: 'yes' });
    });

    it('calls webhooks by configuration name, then in order, each seeing the object the previous left', async () => {
      hook.on('/second', (review) => {
        const labels = review.request.object.metadata.labels;
        return labels.mutated === 'yes' ? patch([{ op: 'add', path: '/data/second', value: 'saw-first' }]) : allow();
      });
      const res = await server().admin.post(CM, configMap('chained', { chain: 'yes' }));
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data).to.deep.equal({ k: 'v', second: 'saw-first' });
      const names = hook.reviews.filter((r) => r.body?.request?.name === 'chained').map((r) => r.path);
      expect(names).to.deep.equal(['/label', '/second']);
      expect(res.body.metadata.labels).to.deep.equal({ chain: 'yes', mutated: 'yes' });
    });

    it('drops unknown fields a patch adds and rejects a patch that does not apply with 500', async () => {
      hook.on('/label', () => patch([{ op: 'add', path: '/unknownField', value: 1 }, { op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }]));
      const res = await server().admin.post(CM, configMap('pruned'));
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.not.have.property('unknownField');
      hook.on('/label', () => patch([{ op: 'replace', path: '/metadata/nothing/here', value: 1 }]));
      const bad = await server().admin.post(CM, configMap('unpatchable'));
      expect(bad.status, bad.text).to.equal(500);
      expect(bad.body.reason).to.equal('InternalError');
      hook.on('/label', () => patch([{ op: 'add', path: '/data', value: 'not a map' }]));
      const wrongType = await server().admin.post(CM, configMap('wrong-type'));
      expect(wrongType.status, wrongType.text).to.equal(500);
      hook.on('/label', labelPatch);
    });

    it('refuses a patch for a delete with 500, as upstream', async () => {
      expect((await server().admin.post(CM, configMap('to-delete'))).status).to.equal(201);
      const res = await server().admin.delete(`${CM}/to-delete`);
      expect(res.status, res.text).to.equal(500);
      expect(res.body.message).to.equal('Internal error occurred: admission webhook "label.example.com" attempted to modify the object, which is not supported for this operation');
      hook.on('/label', allow);
      expect((await server().admin.delete(`${CM}/to-delete`)).status).to.equal(200);
      hook.on('/label', labelPatch);
    });

    it('speaks AdmissionReview v1beta1 to a webhook preferring it, taking its patch without patchType', async () => {
      hook.on('/beta', (review) => ({ response: { allowed: true, patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/data/beta', value: review.apiVersion }])).toString('base64') } }));
      const res = await server().admin.post(CM, configMap('beta', { beta: 'yes' }));
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data.beta).to.match(/^admission\..+\/v1beta1$/);
    });

    it('fails a v1 answer with a patch but no patchType by the failure policy', async () => {
      hook.on('/label', () => ({ response: { allowed: true, patch: Buffer.from('[]').toString('base64') } }));
      const res = await server().admin.post(CM, configMap('no-patch-type'));
      expect(res.status, res.text).to.equal(500);
      expect(res.body.message).to.equal(
        'Internal error occurred: failed calling webhook "label.example.com": received invalid webhook response: webhook returned response.patch but not response.patchType',
      );
      hook.on('/label', labelPatch);
    });

    after(async () => {
      await deleteConfiguration(server().admin, 'Mutating', 'a-first');
      await deleteConfiguration(server().admin, 'Mutating', 'b-second');
    });
  });

  describe('reinvocation (reinvocationPolicy IfNeeded)', () => {
    before(async () => {
      const admin = server().admin;
      const sel = { objectSelector: { matchLabels: { reinvoke: 'yes' } } };
      await createConfiguration(admin, 'Mutating', 'r1', [
        urlWebhook('needed.example.com', hook.url('/needed'), hook.caBundle, { ...sel, reinvocationPolicy: 'IfNeeded' }),
        urlWebhook('never.example.com', hook.url('/never'), hook.caBundle, { ...sel, reinvocationPolicy: 'Never' }),
      ]);
      await createConfiguration(admin, 'Mutating', 'r2', [urlWebhook('later.example.com', hook.url('/later'), hook.caBundle, sel)]);
      await waitForWebhook(admin, hook, '/later', NS, { reinvoke: 'yes' });
    });

    const calls = (name: string, path: string) => hook.reviewsAt(path).filter((r) => r.body.request.name === name).length;

    it('calls an IfNeeded webhook again when a later webhook changed the object, and only it', async () => {
      hook.on('/needed', allow);
      hook.on('/never', allow);
      hook.on('/later', (review) => (review.request.object.data?.later ? allow() : patch([{ op: 'add', path: '/data/later', value: 'x' }])));
      const res = await server().admin.post(CM, configMap('reinvoked', { reinvoke: 'yes' }));
      expect(res.status, res.text).to.equal(201);
      expect([calls('reinvoked', '/needed'), calls('reinvoked', '/never'), calls('reinvoked', '/later')]).to.deep.equal([2, 1, 1]);
      const second = hook.reviewsAt('/needed').filter((r) => r.body.request.name === 'reinvoked')[1]!;
      expect(second.body.request.object.data.later).to.equal('x');
    });

    it('does not call it again when nothing changed the object after it', async () => {
      hook.on('/later', allow);
      const res = await server().admin.post(CM, configMap('not-reinvoked', { reinvoke: 'yes' }));
      expect(res.status, res.text).to.equal(201);
      expect(calls('not-reinvoked', '/needed')).to.equal(1);
    });

    after(async () => {
      await deleteConfiguration(server().admin, 'Mutating', 'r1');
      await deleteConfiguration(server().admin, 'Mutating', 'r2');
    });
  });
});
