import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { ingressClass, NETWORKING_GROUP } from '../../../../../lib/apis/networking/v1/index.js';
import { ingressClassStrategy } from '../../../../../lib/registry/networking/ingressclass/strategy.js';
import type { RequestContext } from '../../../../../lib/request/context.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: ingressClass.apiVersion,
  kind: 'IngressClass',
  metadata: { name: 'nginx' },
  spec: { controller: 'example.com/ingress-nginx' },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(ingressClass, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(ingressClass, defaulted(mutate)));
const params = (extra: Obj = {}): Obj => ({ kind: 'IngressParameters', name: 'external', ...extra });

describe('networking/v1 IngressClass: definition', () => {
  it('declares the upstream discovery facts: cluster-scoped, no short name', () => {
    expect(ingressClass).to.include({ group: NETWORKING_GROUP, version: 'v1', kind: 'IngressClass', resource: 'ingressclasses', singular: 'ingressclass', namespaced: false, statusSubresource: false });
    expect(ingressClass.shortNames).to.deep.equal([]);
    expect(ingressClass.fieldSelectors).to.deep.equal({});
  });

  it('defaults a parameters scope to Cluster, and nothing else', () => {
    const plain = minimal();
    decodeAndDefault(ingressClass, plain);
    expect(plain).to.deep.equal(minimal());
    expect(spec(defaulted((o) => (spec(o).parameters = params()))).parameters).to.deep.equal({ ...params(), scope: 'Cluster' });
    expect(validateCreate(ingressClass, defaulted((o) => (spec(o).parameters = params())))).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field and sets every field', () => {
    const complete = (): Obj => ({ apiVersion: ingressClass.apiVersion, ...fixture('ingress-class') });
    expect(decodeAndDefault(ingressClass, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(ingressClass.schema, complete(), ['metadata.namespace'])).to.deep.equal([]);
    expect(validateCreate(ingressClass, complete())).to.deep.equal([]);
  });
});

describe('networking/v1 IngressClass: validation (upstream ValidateIngressClass; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the controller is required', (o) => delete spec(o).controller, ['spec.controller: Required value']],
    ['the controller is domain-prefixed', (o) => (spec(o).controller = 'nginx'), ['spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")']],
    ['the controller path is a valid path', (o) => (spec(o).controller = 'example.com/a b'), [
      "spec.controller: Invalid value: \"a b\": must be a valid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')",
    ]],
    ['the controller has at most 250 characters', (o) => (spec(o).controller = `example.com/${'a'.repeat(240)}`), ['spec.controller: Too long: may not be more than 250 bytes']],
    ['parameters need a kind and a name', (o) => (spec(o).parameters = { scope: 'Cluster' }), ['spec.parameters.kind: Required value: kind is required', 'spec.parameters.name: Required value: name is required']],
    ['the scope is Cluster or Namespace', (o) => (spec(o).parameters = params({ scope: 'Global' })), ['spec.parameters.scope: Unsupported value: "Global": supported values: "Cluster", "Namespace"']],
    ['the Namespace scope needs a namespace', (o) => (spec(o).parameters = params({ scope: 'Namespace' })), ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"]],
    ['the Cluster scope forbids a namespace', (o) => (spec(o).parameters = params({ namespace: 'ingress' })), ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"]],
    ['a namespace is a DNS label', (o) => (spec(o).parameters = params({ scope: 'Namespace', namespace: 'Ingress' })), [
      "spec.parameters.namespace: Invalid value: \"Ingress\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('networking/v1 IngressClass: update rules', () => {
  it('spec.controller is immutable', () => {
    const old = defaulted();
    expect(messages(validateUpdate(ingressClass, defaulted((o) => (spec(o).controller = 'example.com/other')), old))).to.deep.equal([
      'spec.controller: Invalid value: "example.com/other": field is immutable',
    ]);
  });

  it('generation starts at 1 and follows spec changes', () => {
    const ctx = {} as RequestContext;
    const o = defaulted();
    ingressClassStrategy.prepareForCreate(ctx, o);
    expect((o.metadata as Obj).generation).to.equal(1);
    const next = variant(o, (x) => (spec(x).parameters = params()));
    ingressClassStrategy.prepareForUpdate(ctx, next, o);
    expect((next.metadata as Obj).generation).to.equal(2);
  });
});
