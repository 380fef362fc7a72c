import { expect } from 'chai';
import type { MatchedResource } from '../../../../lib/admission/matching/rules.js';
import type { WebhookClients } from '../../../../lib/admission/plugins/webhook/client.js';
import { WebhookPostError } from '../../../../lib/admission/plugins/webhook/client.js';
import { admitWithWebhooks } from '../../../../lib/admission/plugins/webhook/mutating.js';
import type { WebhookRuntime } from '../../../../lib/admission/plugins/webhook/runtime.js';
import { webhooksOf } from '../../../../lib/admission/plugins/webhook/source.js';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { vendorGroup } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';
import { admissionAttrs } from '../attrs.js';

const USER = { name: 'u', groups: [] };
const MATCHED: MatchedResource = { group: '', version: 'v1', resource: 'configmaps', subresource: '', kind: 'ConfigMap', exact: true };
const MUTATION = `${vendorGroup('mutation.webhook.admission')}/`;

type Answer = (path: string, review: { request: { object: Obj } }) => Record<string, unknown> | 'down';

/** A runtime over `webhooks` (name → url path, policies) answered by `answer`; `calls` lists the paths called. */
function runtime(webhooks: Array<Record<string, unknown>>, answer: Answer): { rt: WebhookRuntime; calls: string[] } {
  const calls: string[] = [];
  const clients = {
    post: async (config: { url: string }, body: string) => {
      const path = new URL(config.url).pathname;
      calls.push(path);
      const review = JSON.parse(body);
      const r = answer(path, review);
      if (r === 'down') throw new WebhookPostError('Post "x": EOF');
      return JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true, ...r } });
    },
  } as unknown as WebhookClients;
  const hooks = webhooksOf({
    metadata: { name: 'config' },
    webhooks: webhooks.map((w) => ({ sideEffects: 'None', admissionReviewVersions: ['v1'], clientConfig: { url: `https://h/${String(w.name)}` }, ...w })),
  });
  const rt: WebhookRuntime = {
    source: { webhooks: () => hooks },
    clients,
    log: { warn: () => undefined, error: () => undefined, info: () => undefined },
    match: async () => MATCHED,
    storageKind: () => configMap,
  };
  return { rt, calls };
}

const attrs = () =>
  admissionAttrs(USER, { resource: 'configmaps', kind: 'ConfigMap', namespace: 'ns', name: 'cm', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' }, data: { k: 'v' } } });
const addData = (key: string) => ({ patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: `/data/${key}`, value: 'x' }])).toString('base64') });

describe('the mutating webhook dispatcher (spec 001 § Admission control)', () => {
  it('applies patches in place and annotates each call with whether it mutated', async () => {
    const { rt } = runtime([{ name: 'a' }, { name: 'b' }], (path) => (path === '/a' ? addData('a') : {}));
    const ctx = internalContext(USER);
    const a = attrs();
    const object = a.object;
    await admitWithWebhooks(ctx, rt, a);
    expect(a.object).to.equal(object);
    expect(a.object!.data).to.deep.equal({ k: 'v', a: 'x' });
    expect(a.reinvocation.shouldReinvoke).to.equal(true);
    expect(JSON.parse(ctx.auditAnnotations[`${MUTATION}round_0_index_0`]!)).to.deep.equal({ configuration: 'config', webhook: 'a', mutated: true });
    expect(JSON.parse(ctx.auditAnnotations[`${MUTATION}round_0_index_1`]!)).to.deep.equal({ configuration: 'config', webhook: 'b', mutated: false });
  });

  it('fails open with an annotation under Ignore, and closed with 500 under Fail', async () => {
    const open = runtime([{ name: 'down', failurePolicy: 'Ignore' }, { name: 'next', failurePolicy: 'Ignore' }], (path) => (path === '/down' ? 'down' : addData('next')));
    const ctx = internalContext(USER);
    const a = attrs();
    await admitWithWebhooks(ctx, open.rt, a);
    expect(ctx.auditAnnotations[`failed-open.${MUTATION}round_0_index_0`]).to.equal('down');
    expect(a.object!.data).to.deep.equal({ k: 'v', next: 'x' });
    const closed = runtime([{ name: 'down' }, { name: 'next' }], (path) => (path === '/down' ? 'down' : {}));
    const err = await admitWithWebhooks(internalContext(USER), closed.rt, attrs()).catch((e: unknown) => e);
    expect((err as StatusError).status).to.include({ code: 500, message: 'Internal error occurred: failed calling webhook "down": failed to call webhook: Post "x": EOF' });
    expect(closed.calls).to.deep.equal(['/down']);
  });

  it('on the reinvocation pass calls only the IfNeeded webhooks that ran, after another plugin changed the object', async () => {
    const { rt, calls } = runtime([{ name: 'needed', reinvocationPolicy: 'IfNeeded' }, { name: 'never' }], () => ({}));
    const a = attrs();
    await admitWithWebhooks(internalContext(USER), rt, a);
    expect(a.reinvocation.shouldReinvoke).to.equal(false);
    a.reinvocation.isReinvoke = true;
    a.object!.data = { changed: 'by a plugin' };
    await admitWithWebhooks(internalContext(USER), rt, a);
    expect(calls).to.deep.equal(['/needed', '/never', '/needed']);
  });

  it('does not reinvoke when nothing changed the object since the webhooks ran', async () => {
    const { rt, calls } = runtime([{ name: 'needed', reinvocationPolicy: 'IfNeeded' }], () => ({}));
    const a = attrs();
    await admitWithWebhooks(internalContext(USER), rt, a);
    a.reinvocation.isReinvoke = true;
    await admitWithWebhooks(internalContext(USER), rt, a);
    expect(calls).to.deep.equal(['/needed']);
  });

  it('passes a denial through with the webhook status', async () => {
    const { rt } = runtime([{ name: 'deny' }], () => ({ allowed: false, status: { code: 422, message: 'bad' } }));
    const err = await admitWithWebhooks(internalContext(USER), rt, attrs()).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(StatusError);
    expect((err as StatusError).status).to.include({ code: 422, message: 'admission webhook "deny" denied the request: bad' });
  });
});
