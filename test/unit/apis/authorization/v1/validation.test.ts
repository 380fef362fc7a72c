import { expect } from 'chai';
import { fieldErrorString } from '../../../../../lib/apimachinery/field-errors.js';
import { authorizationV1Kinds, validateLocalSubjectAccessReview, validateSelfSubjectAccessReview, validateSubjectAccessReview } from '../../../../../lib/apis/authorization/v1/index.js';

const strings = (errs: ReturnType<typeof validateSubjectAccessReview>) => errs.map(fieldErrorString);
const ra = { namespace: 'ns', verb: 'get', resource: 'pods' };

describe('apis/authorization/v1: the kinds (spec 001 § Access-review resources)', () => {
  it('four create-only kinds, LocalSubjectAccessReview the namespaced one', () => {
    expect(authorizationV1Kinds.map((k) => [k.kind, k.resource, k.namespaced, k.apiVersion])).to.deep.equal([
      ['LocalSubjectAccessReview', 'localsubjectaccessreviews', true, 'authorization.orch.io/v1'],
      ['SelfSubjectAccessReview', 'selfsubjectaccessreviews', false, 'authorization.orch.io/v1'],
      ['SelfSubjectRulesReview', 'selfsubjectrulesreviews', false, 'authorization.orch.io/v1'],
      ['SubjectAccessReview', 'subjectaccessreviews', false, 'authorization.orch.io/v1'],
    ]);
  });
});

describe('apis/authorization/v1: validation as upstream v1.30 (pkg/apis/authorization/validation)', () => {
  const rows: Array<[string, string[], string[]]> = [
    ['SAR: resource attributes and a user', strings(validateSubjectAccessReview({ spec: { resourceAttributes: ra, user: 'u' } })), []],
    ['SAR: groups alone are a subject', strings(validateSubjectAccessReview({ spec: { nonResourceAttributes: { path: '/x', verb: 'get' }, groups: ['g'] } })), []],
    [
      'SAR: nothing',
      strings(validateSubjectAccessReview({ spec: {} })),
      [
        'spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
        'spec.user: Invalid value: "": at least one of user or group must be specified',
      ],
    ],
    [
      'SAR: both attribute sets',
      strings(validateSubjectAccessReview({ spec: { resourceAttributes: ra, nonResourceAttributes: { path: '/a"b', verb: 'get' }, user: 'u' } })),
      ['spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/a\\"b", Verb:"get"}: cannot be specified in combination with resourceAttributes'],
    ],
    ['SAR: managed fields alone do not count as metadata', strings(validateSubjectAccessReview({ metadata: { managedFields: [{ manager: 'm' }], creationTimestamp: null }, spec: { resourceAttributes: ra, user: 'u' } })), []],
    [
      'SAR: a name',
      strings(validateSubjectAccessReview({ metadata: { name: 'x', labels: { b: '2', a: '1' } }, spec: { resourceAttributes: ra, user: 'u' } })),
      [
        'metadata: Invalid value: v1.ObjectMeta{Name:"x", GenerateName:"", Namespace:"", SelfLink:"", UID:"", ResourceVersion:"", Generation:0, CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), Labels:map[string]string{"a":"1", "b":"2"}, Annotations:map[string]string(nil), OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ManagedFields:[]v1.ManagedFieldsEntry(nil)}: must be empty',
      ],
    ],
    ['SSAR: no subject needed', strings(validateSelfSubjectAccessReview({ spec: { resourceAttributes: ra } })), []],
    ['SSAR: nothing', strings(validateSelfSubjectAccessReview({ spec: {} })), ['spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified']],
    ['LSAR: the namespace of the metadata', strings(validateLocalSubjectAccessReview({ metadata: { namespace: 'ns' }, spec: { resourceAttributes: ra, user: 'u' } })), []],
    [
      'LSAR: another namespace',
      strings(validateLocalSubjectAccessReview({ metadata: { namespace: 'other' }, spec: { resourceAttributes: ra, user: 'u' } })),
      ['spec.resourceAttributes.namespace: Invalid value: "ns": must match metadata.namespace'],
    ],
    [
      'LSAR: non-resource attributes',
      strings(validateLocalSubjectAccessReview({ metadata: { namespace: 'ns' }, spec: { nonResourceAttributes: { path: '/x', verb: 'get' }, user: 'u' } })),
      ['spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: disallowed on this kind of request'],
    ],
    [
      'LSAR: metadata beyond the namespace',
      strings(validateLocalSubjectAccessReview({ metadata: { namespace: 'ns', generateName: 'g-' }, spec: { resourceAttributes: ra, user: 'u' } })).map((s) => s.replace(/\{.*\}/, '{…}')),
      ['metadata: Invalid value: v1.ObjectMeta{…}: must be empty except for namespace'],
    ],
  ];
  for (const [what, got, want] of rows) {
    it(what, () => {
      expect(got).to.deep.equal(want);
    });
  }
});
