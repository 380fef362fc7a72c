import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { NODE_GROUP, nodeV1Kinds, runtimeClass } from '../../../../../lib/apis/node/v1/index.js';
import { vendorGroup } from '../../../../../lib/apis/vendor.js';
import { runtimeClassStrategy } from '../../../../../lib/registry/node/runtimeclass/strategy.js';
import type { RequestContext } from '../../../../../lib/request/context.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({ apiVersion: runtimeClass.apiVersion, kind: 'RuntimeClass', metadata: { name: 'gvisor' }, handler: 'runsc' });
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(runtimeClass, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(runtimeClass, defaulted(mutate)));
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe('node/v1 RuntimeClass: definition', () => {
  it('declares the upstream discovery facts: cluster-scoped, no short name', () => {
    expect(NODE_GROUP).to.equal(vendorGroup('node'));
    expect(runtimeClass).to.include({ group: NODE_GROUP, version: 'v1', kind: 'RuntimeClass', resource: 'runtimeclasses', singular: 'runtimeclass', namespaced: false, statusSubresource: false });
    expect(runtimeClass.shortNames).to.deep.equal([]);
    expect(runtimeClass.fieldSelectors).to.deep.equal({});
    expect(nodeV1Kinds).to.deep.equal([runtimeClass]);
  });

  it('has no defaults and a minimal class validates clean', () => {
    const o = defaulted();
    expect(o).to.deep.equal(minimal());
    expect(validateCreate(runtimeClass, o)).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field and sets every field', () => {
    const complete = (): Obj => ({ apiVersion: runtimeClass.apiVersion, ...fixture('runtime-class') });
    expect(decodeAndDefault(runtimeClass, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(runtimeClass.schema, complete(), ['metadata.namespace'])).to.deep.equal([]);
    expect(validateCreate(runtimeClass, complete())).to.deep.equal([]);
  });

  it('PUT of a missing class creates it; updates need a resourceVersion; no generation', () => {
    expect(runtimeClassStrategy.allowCreateOnUpdate()).to.equal(true);
    expect(runtimeClassStrategy.allowUnconditionalUpdate()).to.equal(false);
    const o = defaulted();
    runtimeClassStrategy.prepareForCreate({} as RequestContext, o);
    expect((o.metadata as Obj).generation).to.equal(undefined);
  });
});

describe('node/v1 RuntimeClass: validation (upstream ValidateRuntimeClass; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the handler is required (a DNS label)', (o) => delete o.handler, [`handler: Invalid value: "": ${LABEL_MSG}`]],
    ['the handler is a DNS label', (o) => (o.handler = 'run.sc'), [`handler: Invalid value: "run.sc": ${LABEL_MSG}`]],
    ['the overhead is a valid resource list, reported as limits', (o) => (o.overhead = { podFixed: { cpu: '-1' } }), ['overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0']],
    ['the node selector is a label map', (o) => (o.scheduling = { nodeSelector: { 'bad key!': 'x' } }), [
      "scheduling.nodeSelector: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]],
    ['tolerations are valid', (o) => (o.scheduling = { tolerations: [{ operator: 'Equal', value: 'x' }] }), [
      'scheduling.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
    ]],
    ['tolerations are unique', (o) => (o.scheduling = { tolerations: [{ key: 'a', operator: 'Exists' }, { key: 'a', operator: 'Exists' }] }), [
      'scheduling.tolerations[1]: Duplicate value: core.Toleration{Key:"a", Operator:"Exists", Value:"", Effect:"", TolerationSeconds:(*int64)(nil)}',
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));

  it('handler is immutable', () => {
    expect(messages(validateUpdate(runtimeClass, defaulted((o) => (o.handler = 'runc')), defaulted()))).to.deep.equal(['handler: Invalid value: "runc": field is immutable']);
  });
});
