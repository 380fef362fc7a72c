/**
 * DefaultIngressClass against a real server (spec 001 § Admission control): an Ingress created
 * without a class gets the default IngressClass; none: no change; several defaults: every such
 * creation is refused (spec 001's rule); updates are left alone.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_INGRESS_CLASS_ANNOTATION, INGRESS_CLASS_ANNOTATION, vendorGroup } from '../../../lib/apis/vendor.js';
import type { TestResponse } from '../../framework/client.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const NETWORKING = vendorGroup('networking');
const expectStatus = (res: TestResponse, status: number) => expect(res.status, res.text).to.equal(status);
const INGRESSES = `/apis/${NETWORKING}/v1/namespaces/default/ingresses`;
const CLASSES = `/apis/${NETWORKING}/v1/ingressclasses`;

const ingress = (name: string, spec: object = {}, annotations?: Record<string, string>) => ({
  apiVersion: `${NETWORKING}/v1`,
  kind: 'Ingress',
  metadata: { name, ...(annotations && { annotations }) },
  spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } }, ...spec },
});
const ingressClass = (name: string, isDefault: boolean) => ({
  apiVersion: `${NETWORKING}/v1`,
  kind: 'IngressClass',
  metadata: { name, ...(isDefault && { annotations: { [DEFAULT_INGRESS_CLASS_ANNOTATION]: 'true' } }) },
  spec: { controller: 'example.com/ingress-controller' },
});

describe('DefaultIngressClass admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'DefaultIngressClass'] } });
  let n = 0;
  /** Creates a classless Ingress with a fresh name. */
  const createPlain = () => server().admin.post(INGRESSES, ingress(`probe-${++n}`));

  /** Creates classless Ingresses every 50 ms until `done` accepts the answer (the informer has seen the classes), for up to 5 s. */
  async function probeUntil(done: (res: TestResponse) => boolean): Promise<TestResponse> {
    for (let i = 0; ; i++) {
      const res = await createPlain();
      if (done(res)) return res;
      if (i >= 100) throw new Error(`not within 5 s: ${res.status} ${res.text}`);
      await sleep(50);
    }
  }

  it(`no default class: the Ingress is created without a class${covers('001 § Admission control › DefaultIngressClass')}`, async () => {
    expectStatus(await server().admin.post(CLASSES, ingressClass('plain', false)), 201);
    const res = await server().admin.post(INGRESSES, ingress('before'));
    expectStatus(res, 201);
    expect(res.body.spec.ingressClassName).to.equal(undefined);
  });

  it(`one default class: a classless Ingress gets its name${covers('001 § Admission control › DefaultIngressClass')}`, async () => {
    expectStatus(await server().admin.post(CLASSES, ingressClass('nginx', true)), 201);
    const res = await probeUntil((r) => r.status === 201 && r.body.spec.ingressClassName !== undefined);
    expect(res.body.spec.ingressClassName).to.equal('nginx');
  });

  it('an explicit class name or the legacy annotation is kept', async () => {
    const named = await server().admin.post(INGRESSES, ingress('named', { ingressClassName: 'plain' }));
    expectStatus(named, 201);
    expect(named.body.spec.ingressClassName).to.equal('plain');
    const annotated = await server().admin.post(INGRESSES, ingress('annotated', {}, { [INGRESS_CLASS_ANNOTATION]: 'plain' }));
    expectStatus(annotated, 201);
    expect(annotated.body.spec.ingressClassName).to.equal(undefined);
  });

  it(`updates are ignored: an Ingress created before the default stays classless${covers('001 § Admission control › DefaultIngressClass')}`, async () => {
    const before = (await server().admin.get(`${INGRESSES}/before`)).body;
    const res = await server().admin.put(`${INGRESSES}/before`, { ...before, metadata: { ...before.metadata, labels: { touched: 'yes' } } });
    expectStatus(res, 200);
    expect(res.body.spec.ingressClassName).to.equal(undefined);
  });

  it(`several default classes: every classless creation is refused with 403 (spec 001), explicit classes still pass${covers('001 § Admission control › DefaultIngressClass')}`, async () => {
    expectStatus(await server().admin.post(CLASSES, ingressClass('haproxy', true)), 201);
    const res = await probeUntil((r) => r.status !== 201);
    expectStatus(res, 403);
    expect(res.body).to.deep.include({
      message: `ingresses.${NETWORKING} "probe-${n}" is forbidden: Internal error occurred: 2 default IngressClasses were found, only 1 allowed`,
      reason: 'Forbidden',
      details: { name: `probe-${n}`, group: NETWORKING, kind: 'ingresses' },
      code: 403,
    });
    expectStatus(await server().admin.post(INGRESSES, ingress('explicit', { ingressClassName: 'haproxy' })), 201);
  });

  it('back to one default class: defaulting resumes', async () => {
    expectStatus(await server().admin.delete(`${CLASSES}/nginx`), 200);
    const res = await probeUntil((r) => r.status === 201);
    expect(res.body.spec.ingressClassName).to.equal('haproxy');
  });
});
