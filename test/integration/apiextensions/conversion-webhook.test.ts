/**
 * The Webhook conversion strategy against a real HTTPS conversion webhook (no API server): one
 * ConversionReview per batch, upstream's checks of the answer and their exact messages.
 */
import { expect } from 'chai';
import { type CustomResourceConverter, type CustomResourceConverterOptions, newCustomResourceConverter } from '../../../lib/apiextensions/conversion/converter.js';
import { ConversionError } from '../../../lib/apiextensions/conversion/errors.js';
import { APIEXTENSIONS_GROUP } from '../../../lib/apiextensions/conversion/review.js';
import type { CustomResourceDefinition, WebhookClientConfig } from '../../../lib/apiextensions/types.js';
import { SERVER_NAME, upstreamAlias } from '../../../lib/apis/vendor.js';
import { ConversionWebhookServer, convertWith, failWith } from '../../framework/conversion-webhook.js';

type Obj = Record<string, unknown>;

function crd(clientConfig: WebhookClientConfig, conversionReviewVersions = ['v1']): CustomResourceDefinition {
  return {
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', kind: 'Widget', listKind: 'WidgetList' },
      scope: 'Namespaced',
      versions: [
        { name: 'v1', served: true, storage: true },
        { name: 'v2', served: true, storage: false },
      ],
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions, clientConfig } },
    },
  };
}

const widget = (apiVersion: string, name = 'a', labels: Record<string, string> = { app: 'x' }): Obj => ({
  apiVersion,
  kind: 'Widget',
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '7', labels },
  spec: { size: 1 },
});

/** v1 `spec.size` becomes v2 `spec.replicas`. */
const toV2 = convertWith((o, v) => ({ ...o, apiVersion: v, spec: { replicas: (o.spec as Obj).size } }));

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(ConversionError);
    return (err as Error).message;
  }
  throw new Error('expected a ConversionError');
}

describe('apiextensions conversion: the Webhook strategy against an HTTPS webhook', function () {
  this.timeout(30_000);
  let hook: ConversionWebhookServer;
  const converters: CustomResourceConverter[] = [];
  const converter = (path: string, opts: CustomResourceConverterOptions = {}, versions?: string[], caBundle?: string) => {
    const c = newCustomResourceConverter(crd({ url: hook.url(path), caBundle: caBundle ?? hook.caBundle }, versions), opts);
    converters.push(c);
    return c;
  };
  const lastUID = () => hook.reviews.at(-1)!.body.request.uid as string;
  const SINGLE = 'conversion for example.com/v1, Kind=Widget';

  before(async () => {
    hook = await ConversionWebhookServer.start(['conv.webhooks.svc']);
  });
  after(async () => {
    for (const c of converters) c.close();
    await hook?.stop();
  });

  it('converts a list in one ConversionReview, leaving the items already converted alone, in order', async () => {
    hook.on('/ok', toV2);
    const already = { ...widget('example.com/v2', 'b'), spec: { replicas: 2 } };
    const before = hook.reviews.length;
    const out = await converter('/ok').convert([widget('example.com/v1', 'a'), already, widget('example.com/v1', 'c')], 'example.com/v2', undefined, 'WidgetList');
    expect(out.map((o) => [o.apiVersion, (o.metadata as Obj).name, o.spec])).to.deep.equal([
      ['example.com/v2', 'a', { replicas: 1 }],
      ['example.com/v2', 'b', { replicas: 2 }],
      ['example.com/v2', 'c', { replicas: 1 }],
    ]);
    expect(out[1]).to.equal(already);
    expect(hook.reviews.length).to.equal(before + 1);
    const r = hook.reviews.at(-1)!;
    expect(r.query).to.equal('timeout=30s');
    expect(r.userAgent).to.equal(`${SERVER_NAME}-admission`);
    expect(r.body.apiVersion).to.equal(`${APIEXTENSIONS_GROUP}/v1`);
    expect(r.body.kind).to.equal('ConversionReview');
    expect(r.body.request.desiredAPIVersion).to.equal('example.com/v2');
    expect(r.body.request.uid).to.match(/^[0-9a-f-]{36}$/);
    expect(r.body.request.objects.map((o: Obj) => (o.metadata as Obj).name)).to.deep.equal(['a', 'c']);
  });

  it('reads a list answer larger than the 3 MiB other webhook answers are held to', async () => {
    hook.on('/big', toV2);
    const items = Array.from({ length: 40 }, (_, i) => ({ ...widget('example.com/v1', `w${i}`), data: 'x'.repeat(100_000) }));
    const out = await converter('/big').convert(items, 'example.com/v2', undefined, 'WidgetList');
    expect(out).to.have.length(40);
    expect(out.every((o) => o.apiVersion === 'example.com/v2')).to.equal(true);
  });

  it('does not call the webhook when every object is in the desired version', async () => {
    const before = hook.reviews.length;
    const a = widget('example.com/v2');
    expect((await converter('/ok').convert([a], 'example.com/v2'))[0]).to.equal(a);
    expect(hook.reviews.length).to.equal(before);
  });

  it('accepts an answer spelled in the upstream group', async () => {
    hook.on('/alias', (review) => ({ ...(toV2(review) as { response: Obj }), apiVersion: `${upstreamAlias(APIEXTENSIONS_GROUP)}/v1` }));
    const out = await converter('/alias').convert([widget('example.com/v1')], 'example.com/v2');
    expect(out[0]!.spec).to.deep.equal({ replicas: 1 });
  });

  it('speaks v1beta1 to a webhook that only accepts it, without checking the uid', async () => {
    hook.on('/beta', (review) => ({ response: { ...(toV2(review) as { response: Obj }).response, uid: 'whatever' } }));
    const out = await converter('/beta', {}, ['v1beta1']).convert([widget('example.com/v1')], 'example.com/v2');
    expect(out[0]!.apiVersion).to.equal('example.com/v2');
    expect(hook.reviews.at(-1)!.body.apiVersion).to.equal(`${APIEXTENSIONS_GROUP}/v1beta1`);
  });

  it('restores metadata the webhook changed, keeping its labels and annotations', async () => {
    hook.on('/meta', convertWith((o, v) => ({ ...o, apiVersion: v, metadata: { ...(o.metadata as Obj), resourceVersion: '999', generation: 4, labels: { app: 'y' }, annotations: { a: 'b' } } })));
    const out = await converter('/meta').convert([widget('example.com/v1')], 'example.com/v2');
    expect(out[0]!.metadata).to.deep.equal({ name: 'a', namespace: 'ns', uid: 'uid-a', resourceVersion: '7', labels: { app: 'y' }, annotations: { a: 'b' } });
  });

  it('reaches a service reference at the URL the server gives, verifying <name>.<namespace>.svc', async () => {
    hook.on('/svc', toV2);
    const asked: unknown[] = [];
    const c = newCustomResourceConverter(crd({ service: { namespace: 'webhooks', name: 'conv', path: '/svc' }, caBundle: hook.caBundle }), {
      serviceURL: (s) => {
        asked.push(s);
        return hook.url(s.path ?? '/');
      },
    });
    converters.push(c);
    expect((await c.convert([widget('example.com/v1')], 'example.com/v2'))[0]!.spec).to.deep.equal({ replicas: 1 });
    expect(asked).to.deep.equal([{ namespace: 'webhooks', name: 'conv', path: '/svc', port: 443 }]);
  });

  it('refuses a service webhook whose certificate does not name <name>.<namespace>.svc', async () => {
    const c = newCustomResourceConverter(crd({ service: { namespace: 'webhooks', name: 'other', path: '/svc' }, caBundle: hook.caBundle }), { serviceURL: (s) => hook.url(s.path ?? '/') });
    converters.push(c);
    const message = await failure(c.convert([widget('example.com/v1')], 'example.com/v2'));
    expect(message).to.match(new RegExp(`^${SINGLE} failed: conversion webhook for /, Kind= failed: Post "https://127\\.0\\.0\\.1:\\d+/svc\\?timeout=30s": .*other\\.webhooks\\.svc`));
  });

  const refusals: Array<[string, (uid: () => string) => string, (review: { response: Obj }) => unknown, string?]> = [
    ['a response to another request', (uid) => `${SINGLE} failed: conversion webhook for /, Kind= failed: expected response.uid="${uid()}", got "wrong"`, (r) => ({ response: { ...r.response, uid: 'wrong' } })],
    ['a failure result', () => `${SINGLE} failed: conversion webhook for /, Kind= failed: cannot convert widgets`, () => failWith('cannot convert widgets')(undefined)],
    [
      'a converted object of another kind',
      () => `${SINGLE} returned invalid converted object at index 1: invalid kind (expected Widget, received Gadget)`,
      (r) => ({ response: { ...r.response, convertedObjects: [{ ...((r.response.convertedObjects as Obj[])[0] as Obj), kind: 'Gadget' }] } }),
    ],
    [
      'a converted object of another version',
      () => `${SINGLE} returned invalid converted object at index 1: invalid groupVersion (expected example.com/v2, received example.com/v1)`,
      (r) => ({ response: { ...r.response, convertedObjects: [{ ...((r.response.convertedObjects as Obj[])[0] as Obj), apiVersion: 'example.com/v1' }] } }),
    ],
    [
      'a converted object with another name',
      () => `${SINGLE} returned invalid converted object at index 1: must have the same name: a != b`,
      (r) => ({ response: { ...r.response, convertedObjects: [{ ...((r.response.convertedObjects as Obj[])[0] as Obj), metadata: { name: 'b', namespace: 'ns', uid: 'uid-a' } }] } }),
    ],
    [
      'an invalid label',
      () =>
        `${SINGLE} returned invalid metadata in object at index 1: metadata.labels: Invalid value: "-bad-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      (r) => {
        const o = (r.response.convertedObjects as Obj[])[0] as Obj;
        return { response: { ...r.response, convertedObjects: [{ ...o, metadata: { ...(o.metadata as Obj), labels: { app: '-bad-' } } }] } };
      },
    ],
    ['no converted objects', () => `${SINGLE} returned 0 objects, expected 1`, (r) => ({ response: { ...r.response, convertedObjects: [] } })],
    [
      'a converted object without kind',
      () => `${SINGLE} failed: Object 'Kind' is missing in '{"apiVersion":"example.com/v2"}'`,
      (r) => ({ response: { ...r.response, convertedObjects: [{ apiVersion: 'example.com/v2' }] } }),
    ],
  ];
  for (const [name, expected, answer] of refusals) {
    it(`refuses ${name}`, async () => {
      const path = `/refuse-${name.replaceAll(' ', '-')}`;
      hook.on(path, (review) => answer(toV2(review) as { response: Obj }) as { response: Obj });
      const message = await failure(converter(path).convert([widget('example.com/v1')], 'example.com/v2'));
      expect(message).to.equal(expected(lastUID));
    });
  }

  it('refuses a list answer with fewer objects than sent, naming the list', async () => {
    hook.on('/short', (review) => {
      const r = toV2(review) as { response: Obj };
      return { response: { ...r.response, convertedObjects: (r.response.convertedObjects as Obj[]).slice(1) } };
    });
    const message = await failure(converter('/short').convert([widget('example.com/v1', 'a'), widget('example.com/v1', 'b')], 'example.com/v2', undefined, 'WidgetList'));
    expect(message).to.equal('conversion for example.com/v2, Kind=WidgetList returned 1 objects, expected 2');
  });

  it('reports a webhook failure of a list with the list kind', async () => {
    hook.on('/list-fail', failWith('nope'));
    const message = await failure(converter('/list-fail').convert([widget('example.com/v1')], 'example.com/v2', undefined, 'WidgetList'));
    expect(message).to.equal('conversion for example.com/v2, Kind=WidgetList failed: conversion webhook for example.com/v2, Kind=WidgetList failed: nope');
  });

  it('fails on an error status of the webhook', async () => {
    hook.on('/500', () => ({ text: 'broken', status: 500 }));
    const message = await failure(converter('/500').convert([widget('example.com/v1')], 'example.com/v2'));
    expect(message).to.equal(`${SINGLE} failed: conversion webhook for /, Kind= failed: an error on the server ("broken") has prevented the request from succeeding`);
  });

  it('fails when the webhook certificate is not signed by the caBundle', async () => {
    const other = await ConversionWebhookServer.start();
    try {
      const message = await failure(converter('/ok', {}, ['v1'], other.caBundle).convert([widget('example.com/v1')], 'example.com/v2'));
      expect(message).to.match(new RegExp(`^${SINGLE} failed: conversion webhook for /, Kind= failed: Post "https://127\\.0\\.0\\.1:\\d+/ok\\?timeout=30s": .*certificate`));
    } finally {
      await other.stop();
    }
  });

  it('fails without calling when the caBundle holds no certificate, in upstream\'s REST client words', async () => {
    const calls = hook.reviews.length;
    const bundle = Buffer.from('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n').toString('base64');
    const message = await failure(converter('/ok', {}, ['v1'], bundle).convert([widget('example.com/v1')], 'example.com/v2'));
    expect(message).to.equal(`${SINGLE} failed: conversion webhook for /, Kind= failed: unable to load root certificates: failed to parse certificate: x509: malformed certificate`);
    expect(hook.reviews.length).to.equal(calls);
  });

  it('gives up after timeoutMs', async () => {
    hook.on('/hang', () => ({ hang: true }));
    const started = Date.now();
    const message = await failure(converter('/hang', { timeoutMs: 300 }).convert([widget('example.com/v1')], 'example.com/v2'));
    expect(message).to.equal(`${SINGLE} failed: conversion webhook for /, Kind= failed: Post "${hook.url('/hang')}?timeout=300ms": net/http: request canceled (Client.Timeout of 0.3s exceeded)`);
    expect(Date.now() - started).to.be.below(5_000);
  });

  it('stops when the caller aborts', async () => {
    hook.on('/hang2', () => ({ hang: true }));
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 100);
    const message = await failure(converter('/hang2').convert([widget('example.com/v1')], 'example.com/v2', ctl.signal));
    expect(message).to.equal(`${SINGLE} failed: conversion webhook for /, Kind= failed: Post "${hook.url('/hang2')}?timeout=30s": context canceled`);
  });

  it('fails when nothing listens', async () => {
    const gone = await ConversionWebhookServer.start();
    const url = gone.url('/x');
    await gone.stop();
    const c = newCustomResourceConverter(crd({ url, caBundle: hook.caBundle }));
    converters.push(c);
    const message = await failure(c.convert([widget('example.com/v1')], 'example.com/v2'));
    expect(message).to.match(new RegExp(`^${SINGLE} failed: conversion webhook for /, Kind= failed: Post "${url.replaceAll('.', '\\.')}\\?timeout=30s": dial tcp 127\\.0\\.0\\.1:\\d+: connect: connection refused$`));
  });
});
