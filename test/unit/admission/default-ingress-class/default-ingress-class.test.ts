import { expect } from 'chai';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { DefaultIngressClass, defaultIngressClasses } from '../../../../lib/admission/plugins/default-ingress-class.js';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { DEFAULT_INGRESS_CLASS_ANNOTATION, INGRESS_CLASS_ANNOTATION, VENDOR_DOMAIN, vendorGroup } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';
import type { UserInfo } from '../../../../lib/request/user.js';
import { admissionAttrs } from '../attrs.js';

const BOB: UserInfo = { name: 'bob', groups: [] };
const GROUP = vendorGroup('networking');
const ingressClass = (name: string, isDefault?: string): Obj => ({
  metadata: { name, ...(isDefault !== undefined && { annotations: { [DEFAULT_INGRESS_CLASS_ANNOTATION]: isDefault } }) },
  spec: { controller: 'example.com/ingress' },
});

function create(ingress: Obj, a: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return admissionAttrs(BOB, { group: GROUP, resource: 'ingresses', kind: 'Ingress', namespace: 'ns', name: 'web', object: ingress, ...a });
}

/** Runs the plugin over `classes`; returns the object after it, or `<code> <message>` of the rejection. */
async function run(classes: Obj[], a: AdmissionAttributes): Promise<Obj | string> {
  try {
    await new DefaultIngressClass(() => classes).admit(internalContext(BOB), a);
    return a.object!;
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    return `${err.status.code} ${err.status.message}`;
  }
}

describe('DefaultIngressClass admission (spec 001 § Admission control)', () => {
  const plain = () => ({ metadata: { name: 'web', namespace: 'ns' }, spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } } });

  it('the default-class annotation is ingressclass.<vendor domain>/is-default-class', () => {
    expect(DEFAULT_INGRESS_CLASS_ANNOTATION).to.equal(`ingressclass.${VENDOR_DOMAIN}/is-default-class`);
  });

  it('handles creations only', () => {
    const plugin = new DefaultIngressClass(() => []);
    expect(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'].filter((op) => plugin.handles(op as never))).to.deep.equal(['CREATE']);
  });

  it('only the value "true" marks a default class', () => {
    const classes = [ingressClass('a', 'true'), ingressClass('b', 'True'), ingressClass('c', ''), ingressClass('d'), ingressClass('e', 'false')];
    expect(defaultIngressClasses(classes).map((c) => (c.metadata as Obj).name)).to.deep.equal(['a']);
  });

  it('sets spec.ingressClassName to the default class, keeping the rest of the spec', async () => {
    const out = (await run([ingressClass('other'), ingressClass('nginx', 'true')], create(plain()))) as Obj;
    expect(out.spec).to.deep.equal({ defaultBackend: { service: { name: 's', port: { number: 80 } } }, ingressClassName: 'nginx' });
    const noSpec = (await run([ingressClass('nginx', 'true')], create({ metadata: { name: 'web' } }))) as Obj;
    expect(noSpec.spec).to.deep.equal({ ingressClassName: 'nginx' });
  });

  it('leaves an Ingress with a class name (even empty) or the legacy annotation alone', async () => {
    const classes = [ingressClass('nginx', 'true')];
    expect(((await run(classes, create({ ...plain(), spec: { ingressClassName: 'mine' } }))) as Obj).spec).to.deep.equal({ ingressClassName: 'mine' });
    expect(((await run(classes, create({ ...plain(), spec: { ingressClassName: '' } }))) as Obj).spec).to.deep.equal({ ingressClassName: '' });
    const annotated = { metadata: { name: 'web', annotations: { [INGRESS_CLASS_ANNOTATION]: 'x' } }, spec: {} };
    expect(((await run(classes, create(annotated))) as Obj).spec).to.deep.equal({});
  });

  it('no default class: no change', async () => {
    expect(((await run([ingressClass('a'), ingressClass('b', 'false')], create(plain()))) as Obj).spec).to.deep.equal(plain().spec);
  });

  it('several default classes: rejects the creation (spec 001), with upstream pre-1.28 message', async () => {
    const classes = [ingressClass('a', 'true'), ingressClass('b', 'true'), ingressClass('c', 'true')];
    expect(await run(classes, create(plain()))).to.equal(
      `403 ingresses.${GROUP} "web" is forbidden: Internal error occurred: 3 default IngressClasses were found, only 1 allowed`,
    );
    expect(((await run(classes, create({ ...plain(), spec: { ingressClassName: 'a' } }))) as Obj).spec).to.deep.equal({ ingressClassName: 'a' });
  });

  it('ignores updates, subresources and other resources', async () => {
    const classes = [ingressClass('nginx', 'true')];
    expect(((await run(classes, create(plain(), { operation: 'UPDATE', oldObject: plain() }))) as Obj).spec).to.deep.equal(plain().spec);
    expect(((await run(classes, create(plain(), { subresource: 'status' }))) as Obj).spec).to.deep.equal(plain().spec);
    expect(((await run(classes, create(plain(), { resource: 'ingressclasses' }))) as Obj).spec).to.deep.equal(plain().spec);
    expect(((await run(classes, create(plain(), { group: 'extensions' }))) as Obj).spec).to.deep.equal(plain().spec);
  });
});
