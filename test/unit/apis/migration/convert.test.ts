/**
 * convertObject (lib/apis/migration/convert.ts): conversions between served versions with the
 * server's own code, the upstream spelling of groups, the default target, and upstream's scheme
 * error messages.
 */
import { expect } from 'chai';
import { ConversionError, DecodeError, convertObject, parseGroupVersion } from '../../../../lib/apis/migration/convert.js';
import { BUILTIN_SCHEME } from '../../../../lib/cmd/convert-scheme.js';

const SCHEME_NAME = BUILTIN_SCHEME.name;
import { vendorGroup } from '../../../../lib/apis/vendor.js';

const EVENTS = vendorGroup('events');
const NETWORKING = vendorGroup('networking');

const hpaV2 = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'h', namespace: 'ns' },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' },
    minReplicas: 2,
    maxReplicas: 5,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }],
  },
};

describe('convertObject (offline convert)', () => {
  it('autoscaling/v2 → v1: the CPU target becomes targetCPUUtilizationPercentage', () => {
    const out = convertObject(BUILTIN_SCHEME, hpaV2, { group: 'autoscaling', version: 'v1' });
    expect(out.apiVersion).to.equal('autoscaling/v1');
    expect(out.spec).to.deep.equal({ scaleTargetRef: { kind: 'Deployment', name: 'd', apiVersion: 'apps/v1' }, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 60 });
  });

  it('autoscaling/v1 → v2 and back loses nothing', () => {
    const v1 = convertObject(BUILTIN_SCHEME, hpaV2, { group: 'autoscaling', version: 'v1' });
    const v2 = convertObject(BUILTIN_SCHEME, v1, { group: 'autoscaling', version: 'v2' });
    expect(v2).to.deep.equal(convertObject(BUILTIN_SCHEME, hpaV2, { group: 'autoscaling', version: 'v2' }));
  });

  it('core/v1 Event → events v1: the old fields under their new names', () => {
    const ev = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'ns' }, involvedObject: { kind: 'Pod', name: 'p' }, reason: 'Pulled', count: 3, source: { component: 'kubelet', host: 'n1' }, type: 'Normal' };
    const out = convertObject(BUILTIN_SCHEME, ev, { group: EVENTS, version: 'v1' });
    expect(out.apiVersion).to.equal(`${EVENTS}/v1`);
    expect(out.regarding).to.deep.equal({ kind: 'Pod', name: 'p' });
    expect(out.deprecatedCount).to.equal(3);
    expect(out.deprecatedSource).to.deep.equal({ component: 'kubelet', host: 'n1' });
    expect(out).to.not.have.property('involvedObject');
    const back = convertObject(BUILTIN_SCHEME, out, { group: '', version: 'v1' });
    expect(back.involvedObject).to.deep.equal({ kind: 'Pod', name: 'p' });
    expect(back.count).to.equal(3);
  });

  it('a removed events version goes through its replacement to core/v1', () => {
    const ev = { apiVersion: `${EVENTS}/v1beta1`, kind: 'Event', metadata: { name: 'e', namespace: 'ns' }, regarding: { kind: 'Pod', name: 'p' }, reason: 'R', note: 'hello' };
    const out = convertObject(BUILTIN_SCHEME, ev, { group: '', version: 'v1' });
    expect(out.apiVersion).to.equal('v1');
    expect(out.message).to.equal('hello');
    expect(out.involvedObject).to.deep.equal({ kind: 'Pod', name: 'p' });
  });

  it('the upstream spelling of a group is read, and kept in the output version', () => {
    const ing = { apiVersion: 'networking.k8s.io/v1beta1', kind: 'Ingress', metadata: { name: 'i' }, spec: { backend: { serviceName: 's', servicePort: 80 } } };
    const out = convertObject(BUILTIN_SCHEME, ing, { group: 'networking.k8s.io', version: 'v1' });
    expect(out.apiVersion).to.equal('networking.k8s.io/v1');
    expect(out.spec).to.deep.equal({ defaultBackend: { service: { name: 's', port: { number: 80 } } } });
  });

  it('without an output version: a removed version moves to its replacement, a served one stays', () => {
    const ing = { apiVersion: 'extensions/v1beta1', kind: 'Ingress', metadata: { name: 'i' }, spec: {} };
    expect(convertObject(BUILTIN_SCHEME, ing).apiVersion).to.equal(`${NETWORKING}/v1`);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } };
    expect(convertObject(BUILTIN_SCHEME, cm)).to.deep.equal({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', creationTimestamp: null }, data: { a: 'b' } });
  });

  const errors: { name: string; obj: unknown; to?: string; cls: typeof DecodeError | typeof ConversionError; message: string }[] = [
    { name: 'missing kind', obj: { apiVersion: 'v1' }, cls: DecodeError, message: `Object 'Kind' is missing in '{"apiVersion":"v1"}'` },
    { name: 'missing apiVersion', obj: { kind: 'Pod' }, cls: DecodeError, message: `Object 'apiVersion' is missing in '{"kind":"Pod"}'` },
    { name: 'not an object', obj: [1], cls: DecodeError, message: `Object 'Kind' is missing in '[1]'` },
    { name: 'unknown kind', obj: { apiVersion: 'example.com/v1', kind: 'Widget' }, cls: DecodeError, message: `no kind "Widget" is registered for version "example.com/v1" in scheme "${SCHEME_NAME}"` },
    { name: 'unknown version of a known group', obj: { apiVersion: 'apps/v7', kind: 'Deployment' }, cls: DecodeError, message: `no kind "Deployment" is registered for version "apps/v7" in scheme "${SCHEME_NAME}"` },
    { name: 'malformed apiVersion', obj: { apiVersion: 'a/b/c', kind: 'Pod' }, cls: DecodeError, message: 'unexpected GroupVersion string: a/b/c' },
    { name: 'kind absent from the target version', obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, to: 'apps/v1', cls: ConversionError, message: `*core.ConfigMap is not suitable for converting to "apps/v1" in scheme "${SCHEME_NAME}"` },
    { name: 'unknown target version', obj: hpaV2, to: 'autoscaling/v9', cls: ConversionError, message: `*autoscaling.HorizontalPodAutoscaler is not suitable for converting to "autoscaling/v9" in scheme "${SCHEME_NAME}"` },
    { name: 'served event kind named by its storage package', obj: { apiVersion: `${EVENTS}/v1`, kind: 'Event', metadata: { name: 'e' } }, to: 'apps/v1', cls: ConversionError, message: `*core.Event is not suitable for converting to "apps/v1" in scheme "${SCHEME_NAME}"` },
  ];
  for (const c of errors) {
    it(`error: ${c.name}`, () => {
      const to = c.to ? parseGroupVersion(c.to) : undefined;
      expect(() => convertObject(BUILTIN_SCHEME, c.obj, to)).to.throw(c.cls).with.property('message', c.message);
    });
  }

  it('parseGroupVersion follows upstream', () => {
    expect(parseGroupVersion('')).to.equal(undefined);
    expect(parseGroupVersion('v1')).to.deep.equal({ group: '', version: 'v1' });
    expect(parseGroupVersion('apps/v1')).to.deep.equal({ group: 'apps', version: 'v1' });
    expect(() => parseGroupVersion('a/b/c')).to.throw('unexpected GroupVersion string: a/b/c');
  });
});
