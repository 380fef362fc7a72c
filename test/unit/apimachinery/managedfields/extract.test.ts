import { expect } from 'chai';
import { toFieldSet, toFieldsV1, TypedValueError } from '../../../../lib/apimachinery/managedfields/index.js';
import { field, listOf, raw, string, struct, embeddedResource } from '../../../../lib/apimachinery/schema/builder.js';
import { pod } from '../../../../lib/apis/core/v1/workloads.js';

const fv1 = (value: unknown, schema = pod.schema): unknown => toFieldsV1(toFieldSet(value, schema));

describe('managedfields/extract: the fields of an object under its schema', () => {
  const cases: Array<[string, unknown, unknown]> = [
    ['granular map: each key a field', { metadata: { labels: { a: '1', b: '2' } } }, { 'f:metadata': { 'f:labels': { 'f:a': {}, 'f:b': {} } } }],
    ['atomic map (nodeSelector): one leaf', { spec: { nodeSelector: { a: '1' } } }, { 'f:spec': { 'f:nodeSelector': {} } }],
    ['atomic list (command, tolerations): one leaf', { spec: { containers: [{ name: 'c', command: ['a', 'b'] }], tolerations: [{ key: 'k' }] } }, { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:command': {}, 'f:name': {} } }, 'f:tolerations': {} } }],
    ['atomic struct (imagePullSecrets entries are atomic LocalObjectReferences)', { spec: { imagePullSecrets: [{ name: 'r' }] } }, { 'f:spec': { 'f:imagePullSecrets': { 'k:{"name":"r"}': {} } } }],
    ['declared struct with no content: nothing', { spec: { securityContext: {} } }, { }],
    ['empty granular list: nothing', { spec: { containers: [] } }, {}],
    ['null scalar: owned', { spec: { hostname: null } }, { 'f:spec': { 'f:hostname': {} } }],
    ['map-list key default: a port without protocol is keyed TCP', { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }] }] } }, { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } } } } }],
    ['set-list: each value', { metadata: { finalizers: ['b', 'a'] } }, { 'f:metadata': { 'f:finalizers': { 'v:"a"': {}, 'v:"b"': {} } } }],
    ['repeated map-list key: the entry is owned as one leaf', { spec: { containers: [{ name: 'c', image: '1' }, { name: 'c', image: '2' }] } }, { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': {} } } }],
    ['unknown field: deduced (objects granular, lists atomic)', { spec: { extra: { a: { b: 1 }, l: [1] } } }, { 'f:spec': { 'f:extra': { '.': {}, 'f:a': { '.': {}, 'f:b': {} }, 'f:l': {} } } }],
  ];
  for (const [name, value, expected] of cases) {
    it(name, () => expect(fv1(value)).to.deep.equal(expected));
  }

  it('a raw value (RawExtension) is one leaf; an embedded resource is deduced like unknown fields', () => {
    const s = struct('test.Holder', { payload: field(1, raw), embedded: field(2, embeddedResource), list: field(3, listOf(string, { listType: 'set' })) });
    expect(fv1({ payload: { x: { y: 'z' } } }, s)).to.deep.equal({ 'f:payload': {} });
    expect(fv1({ embedded: { x: { y: 'z' } } }, s)).to.deep.equal({ 'f:embedded': { 'f:x': { '.': {}, 'f:y': {} } } });
  });

  it('items that cannot be keyed are errors with upstream wording', () => {
    expect(() => fv1({ spec: { containers: [null] } })).to.throw(TypedValueError, '.spec.containers: element 0: associative list with keys may not have a null element');
    expect(() => fv1({ spec: { containers: [{ image: 'x' }] } })).to.throw(TypedValueError, 'element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)');
    expect(() => fv1({ metadata: { finalizers: [null] } })).to.throw(TypedValueError, "associative list without keys has an element that's an explicit null");
    expect(() => fv1({ metadata: { finalizers: [{}] } })).to.throw(TypedValueError, "associative list without keys has an element that's a map type");
  });
});
