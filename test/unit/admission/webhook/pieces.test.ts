import { expect } from 'chai';
import type { MatchedResource } from '../../../../lib/admission/matching/rules.js';
import { callWebhook } from '../../../../lib/admission/plugins/webhook/call.js';
import { type WebhookClients, WebhookClients as Clients, WebhookPostError } from '../../../../lib/admission/plugins/webhook/client.js';
import { CallingWebhookError, dryRunUnsupported, webhookRejection } from '../../../../lib/admission/plugins/webhook/errors.js';
import { isExemptConfigurationResource } from '../../../../lib/admission/plugins/webhook/matcher.js';
import { applyWebhookPatch } from '../../../../lib/admission/plugins/webhook/patch.js';
import { webhookSource, webhooksOf } from '../../../../lib/admission/plugins/webhook/source.js';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { vendorGroup } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';
import { admissionAttrs } from '../attrs.js';

const USER = { name: 'u', groups: [] };
const MATCHED: MatchedResource = { group: '', version: 'v1', resource: 'configmaps', subresource: '', kind: 'ConfigMap', exact: true };
const ops = (v: unknown) => Buffer.from(JSON.stringify(v));

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('no error');
}

describe('admission webhook pieces (spec 001 § Admission control)', () => {
  describe('webhookRejection', () => {
    it('keeps the code, reason and details of the status and prefixes the message', () => {
      const e = webhookRejection('w.example.com', { code: 409, reason: 'Conflict', message: 'busy', details: { name: 'x' } });
      expect(e.status).to.deep.equal({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'admission webhook "w.example.com" denied the request: busy',
        reason: 'Conflict',
        details: { name: 'x' },
        code: 409,
      });
    });

    it('raises codes below 400 to 400, and falls back to the reason, then to "without explanation"', () => {
      expect(webhookRejection('w', { code: 200, reason: 'Nope' }).status).to.include({ code: 400, message: 'admission webhook "w" denied the request: Nope' });
      expect(webhookRejection('w', undefined).status).to.include({ code: 400, message: 'admission webhook "w" denied the request without explanation' });
      expect(webhookRejection('w', 'garbage').status.code).to.equal(400);
    });

    it('words call failures and the dry-run refusal as upstream', () => {
      const e = new CallingWebhookError('w', 'failed to call webhook: EOF');
      expect(e.message).to.equal('failed calling webhook "w": failed to call webhook: EOF');
      expect(e.toStatusError().status).to.include({ code: 500, reason: 'InternalError', message: 'Internal error occurred: failed calling webhook "w": failed to call webhook: EOF' });
      expect(dryRunUnsupported('w').status).to.include({ code: 400, reason: 'BadRequest', message: 'admission webhook "w" does not support dry run' });
    });
  });

  describe('callWebhook on a dry run', () => {
    const never = { post: () => Promise.reject(new Error('must not be called')) } as unknown as WebhookClients;
    const hook = (sideEffects: string | undefined) => webhooksOf({ metadata: { name: 'c' }, webhooks: [{ name: 'w', sideEffects, admissionReviewVersions: ['v1'] }] })[0]!;
    const attrs = admissionAttrs(USER, { resource: 'configmaps', kind: 'ConfigMap', dryRun: true, object: {} });

    for (const effects of ['Some', 'Unknown']) {
      it(`refuses a webhook with sideEffects ${effects} with 400, without calling it`, async () => {
        const err = await callWebhook(internalContext(USER), hook(effects), attrs, MATCHED, never, false).catch((e: unknown) => e);
        expect(err).to.be.instanceOf(StatusError);
        expect((err as StatusError).status.message).to.equal('admission webhook "w" does not support dry run');
      });
    }

    it('fails a webhook without sideEffects by its failure policy', async () => {
      const err = await callWebhook(internalContext(USER), hook(undefined), attrs, MATCHED, never, false).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(CallingWebhookError);
      expect((err as Error).message).to.equal('failed calling webhook "w": Webhook SideEffects is nil');
    });

    it('fails a webhook accepting no known review version by its failure policy', async () => {
      const h = webhooksOf({ metadata: { name: 'c' }, webhooks: [{ name: 'w', sideEffects: 'None', admissionReviewVersions: ['v9'] }] })[0]!;
      const err = await callWebhook(internalContext(USER), h, attrs, MATCHED, never, false).catch((e: unknown) => e);
      expect((err as Error).message).to.equal('failed calling webhook "w": could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
    });
  });

  describe('callWebhook answers', () => {
    const attrs = admissionAttrs(USER, { resource: 'configmaps', kind: 'ConfigMap', object: {} });
    const hook = webhooksOf({ metadata: { name: 'c' }, webhooks: [{ name: 'w.example.com', sideEffects: 'None', admissionReviewVersions: ['v1'] }] })[0]!;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const answering = (response: (review: any) => Record<string, unknown>) =>
      ({
        post: async (_c: unknown, body: string) => {
          const review = JSON.parse(body);
          return JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, ...response(review) } });
        },
      }) as unknown as WebhookClients;

    it('records audit annotations under the webhook name and passes valid warnings on', async () => {
      const ctx = internalContext(USER);
      const clients = answering(() => ({ allowed: true, auditAnnotations: { key: 'value' }, warnings: ['careful', '', 'tab\tbad'] }));
      await callWebhook(ctx, hook, attrs, MATCHED, clients, false);
      expect(ctx.auditAnnotations).to.deep.equal({ 'w.example.com/key': 'value' });
      expect(ctx.warnings).to.deep.equal(['careful']);
    });

    it('turns a denial into the webhook rejection, annotations and warnings kept', async () => {
      const ctx = internalContext(USER);
      const clients = answering(() => ({ allowed: false, status: { code: 403, message: 'no' }, warnings: ['w'] }));
      const err = await callWebhook(ctx, hook, attrs, MATCHED, clients, false).catch((e: unknown) => e);
      expect((err as StatusError).status).to.include({ code: 403, message: 'admission webhook "w.example.com" denied the request: no' });
      expect(ctx.warnings).to.deep.equal(['w']);
    });
  });

  describe('applyWebhookPatch', () => {
    const object = (): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' }, data: { k: 'v' } });
    const attrs = () => admissionAttrs(USER, { resource: 'configmaps', kind: 'ConfigMap', object: object() });

    it('applies the operations, decodes the result and says whether it changed', () => {
      const out = applyWebhookPatch('w', attrs(), MATCHED, ops([{ op: 'add', path: '/data/x', value: 'y' }, { op: 'add', path: '/bogus', value: 1 }]), 'JSONPatch', configMap)!;
      expect(out.changed).to.equal(true);
      expect(out.object.data).to.deep.equal({ k: 'v', x: 'y' });
      expect(out.object).to.not.have.property('bogus');
      const same = applyWebhookPatch('w', attrs(), MATCHED, ops([{ op: 'replace', path: '/data/k', value: 'v' }]), 'JSONPatch', configMap)!;
      expect(same.changed).to.equal(false);
    });

    it('leaves the original object untouched and keeps its type meta', () => {
      const a = attrs();
      const out = applyWebhookPatch('w', a, MATCHED, ops([{ op: 'replace', path: '/kind', value: 'Secret' }, { op: 'add', path: '/data/x', value: 'y' }]), 'JSONPatch', configMap)!;
      expect(out.object.kind).to.equal('ConfigMap');
      expect(a.object!.data).to.deep.equal({ k: 'v' });
    });

    it('returns null for an empty patch', () => {
      expect(applyWebhookPatch('w', attrs(), MATCHED, ops([]), 'JSONPatch', configMap)).to.equal(null);
    });

    it('fails undecodable patches and unsupported types by the failure policy', () => {
      const e1 = thrown(() => applyWebhookPatch('w', attrs(), MATCHED, Buffer.from('{'), 'JSONPatch', configMap));
      expect(e1).to.be.instanceOf(CallingWebhookError);
      expect((e1 as Error).message).to.equal('failed calling webhook "w": received undecodable patch in webhook response: unexpected end of JSON input');
      const e4 = thrown(() => applyWebhookPatch('w', attrs(), MATCHED, Buffer.from('[{"op":"add",}]'), 'JSONPatch', configMap));
      expect((e4 as Error).message).to.equal(`failed calling webhook "w": received undecodable patch in webhook response: invalid character '}' looking for beginning of object key string`);
      const e2 = thrown(() => applyWebhookPatch('w', attrs(), MATCHED, ops({ op: 'add' }), 'JSONPatch', configMap));
      expect((e2 as Error).message).to.equal('failed calling webhook "w": received undecodable patch in webhook response: json: cannot unmarshal object into Go value of type jsonpatch.Patch');
      const e3 = thrown(() => applyWebhookPatch('w', attrs(), MATCHED, ops([{ op: 'add', path: '/a', value: 1 }]), 'MergePatch', configMap));
      expect((e3 as Error).message).to.equal('failed calling webhook "w": unsupported patch type "MergePatch"');
    });

    it('rejects with 500 a patch that does not apply, one of the wrong type, and one without an object', () => {
      for (const [a, patch] of [
        [attrs(), [{ op: 'remove', path: '/data/missing' }]],
        [attrs(), [{ op: 'add', path: '/data', value: [1] }]],
        [admissionAttrs(USER, { operation: 'DELETE', resource: 'configmaps', kind: 'ConfigMap' }), [{ op: 'add', path: '/a', value: 1 }]],
      ] as const) {
        const e = thrown(() => applyWebhookPatch('w', a, MATCHED, ops(patch), 'JSONPatch', configMap));
        expect(e).to.be.instanceOf(StatusError);
        expect((e as StatusError).code).to.equal(500);
      }
    });

    it('rejects with 500 a patch whose copies would add more than 3 MiB (the object doubled by copies into itself)', () => {
      const copies = [{ op: 'add', path: '/data/big', value: 'x'.repeat(1024) }, ...Array.from({ length: 12 }, (_, i) => ({ op: 'copy', from: '/data', path: `/data/c${i}` }))];
      const e = thrown(() => applyWebhookPatch('w', attrs(), MATCHED, ops(copies), 'JSONPatch', configMap));
      expect((e as StatusError).code).to.equal(500);
      expect((e as StatusError).message).to.match(/Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728$/);
    });
  });

  describe('webhook sources', () => {
    const config = (name: string, rv: string, hooks: string[]): Obj => ({ metadata: { name, uid: `uid-${name}`, resourceVersion: rv }, webhooks: hooks.map((h) => ({ name: h, failurePolicy: 'Ignore', timeoutSeconds: 3 })) });

    it('orders webhooks by configuration name, then in order, with unique ids for repeated names', () => {
      let items = [config('b', '1', ['x', 'x']), config('a', '1', ['y'])];
      let generation = 0;
      const source = webhookSource({ get: () => undefined, list: () => items, generation: () => generation });
      const hooks = source.webhooks();
      expect(hooks.map((h) => h.uid)).to.deep.equal(['a/y/0', 'b/x/0', 'b/x/1']);
      expect(hooks[0]).to.include({ failurePolicy: 'Ignore', timeoutSeconds: 3, matchPolicy: 'Equivalent', reinvocationPolicy: 'Never' });
      const again = source.webhooks();
      expect(again[0]).to.equal(hooks[0]);
      items = [config('b', '2', ['z']), config('a', '1', ['y'])];
      generation++;
      const changed = source.webhooks();
      expect(changed.map((h) => h.uid)).to.deep.equal(['a/y/0', 'b/z/0']);
      expect(changed[0]).to.equal(hooks[0]);
    });
  });

  it('exempts writes of the admission configuration kinds only', () => {
    const a = (kind: string) => admissionAttrs(USER, { group: vendorGroup('admissionregistration'), kind });
    expect(isExemptConfigurationResource(a('MutatingWebhookConfiguration'))).to.equal(true);
    expect(isExemptConfigurationResource(a('ValidatingAdmissionPolicyBinding'))).to.equal(true);
    expect(isExemptConfigurationResource(a('Other'))).to.equal(false);
    expect(isExemptConfigurationResource(admissionAttrs(USER, { kind: 'ValidatingWebhookConfiguration' }))).to.equal(false);
  });

  describe('WebhookClients', () => {
    const resolver = { resolve: () => Promise.reject(new Error('no')) };

    it('refuses a configuration without url or service, and an unparsable url, as client errors', async () => {
      const clients = new Clients(resolver);
      const e1 = await clients.post({}, '{}', 1, new AbortController().signal).catch((e: unknown) => e);
      expect(e1).to.be.instanceOf(WebhookPostError);
      expect(e1).to.include({ stage: 'client', message: 'webhook configuration must have either service or URL' });
      const e2 = await clients.post({ url: 'https://[bad' }, '{}', 1, new AbortController().signal).catch((e: unknown) => e);
      expect((e2 as WebhookPostError).message).to.match(/^Unparsable URL: /);
    });

    it('reports a resolution failure for a service reference as the call failure upstream gives', async () => {
      const clients = new Clients(resolver);
      const e = await clients.post({ service: { namespace: 'ns', name: 'svc', path: '/p' } }, '{}', 7, new AbortController().signal).catch((err: unknown) => err);
      expect((e as WebhookPostError).message).to.equal('Post "https://svc.ns.svc:443/p?timeout=7s": no');
      expect(clients.size).to.equal(1);
      clients.close();
      expect(clients.size).to.equal(0);
    });
  });
});
