/**
 * The access-review kinds (issue #11 item 9): field order and protobuf field numbers as
 * k8s.io/api/authorization/v1 generated.proto of v1.30, and a protobuf round trip of each kind.
 */
import { expect } from 'chai';
import { type StructSchema, structFields } from '../../../../../lib/apimachinery/schema/types.js';
import { decodeProtobuf, encodeProtobuf } from '../../../../../lib/apimachinery/serializers/protobuf/index.js';
import {
  localSubjectAccessReview,
  nonResourceAttributes,
  nonResourceRule,
  resourceAttributes,
  resourceRule,
  selfSubjectAccessReview,
  selfSubjectAccessReviewSpec,
  selfSubjectRulesReview,
  selfSubjectRulesReviewSpec,
  subjectAccessReview,
  subjectAccessReviewSpec,
  subjectAccessReviewStatus,
  subjectRulesReviewStatus,
} from '../../../../../lib/apis/authorization/v1/index.js';
import type { KindDefinition, Obj } from '../../../../../lib/apis/define.js';

/** Property → protobuf field number, in declaration (JSON) order. */
const numbers = (s: StructSchema) => Object.entries(structFields(s)).map(([name, f]) => [name, f.proto]);

function roundTrip(def: KindDefinition, obj: Obj): Obj {
  const bytes = encodeProtobuf(obj, { apiVersion: def.apiVersion, kind: def.kind, schema: def.schema });
  const back = decodeProtobuf(bytes, (apiVersion, kind) => (apiVersion === def.apiVersion && kind === def.kind ? def.schema : undefined));
  return { apiVersion: back.apiVersion, kind: back.kind, ...back.object };
}

describe('authorization/v1 kinds: fields and protobuf numbers (upstream v1.30 generated.proto)', () => {
  const rows: Array<[string, StructSchema, Array<[string, number]>]> = [
    ['ResourceAttributes', resourceAttributes, [['namespace', 1], ['verb', 2], ['group', 3], ['version', 4], ['resource', 5], ['subresource', 6], ['name', 7]]],
    ['NonResourceAttributes', nonResourceAttributes, [['path', 1], ['verb', 2]]],
    ['SubjectAccessReviewSpec', subjectAccessReviewSpec, [['resourceAttributes', 1], ['nonResourceAttributes', 2], ['user', 3], ['groups', 4], ['extra', 5], ['uid', 6]]],
    ['SelfSubjectAccessReviewSpec', selfSubjectAccessReviewSpec, [['resourceAttributes', 1], ['nonResourceAttributes', 2]]],
    ['SubjectAccessReviewStatus', subjectAccessReviewStatus, [['allowed', 1], ['denied', 4], ['reason', 2], ['evaluationError', 3]]],
    ['SelfSubjectRulesReviewSpec', selfSubjectRulesReviewSpec, [['namespace', 1]]],
    ['SubjectRulesReviewStatus', subjectRulesReviewStatus, [['resourceRules', 1], ['nonResourceRules', 2], ['incomplete', 3], ['evaluationError', 4]]],
    ['ResourceRule', resourceRule, [['verbs', 1], ['apiGroups', 2], ['resources', 3], ['resourceNames', 4]]],
    ['NonResourceRule', nonResourceRule, [['verbs', 1], ['nonResourceURLs', 2]]],
  ];
  for (const [name, schema, want] of rows) {
    it(name, () => {
      expect(numbers(schema)).to.deep.equal(want);
    });
  }

  it('every review: metadata 1, spec 2, status 3', () => {
    for (const k of [subjectAccessReview, selfSubjectAccessReview, localSubjectAccessReview, selfSubjectRulesReview]) {
      expect(numbers(k.schema).filter(([n]) => n !== 'kind' && n !== 'apiVersion'), k.kind).to.deep.equal([
        ['metadata', 1],
        ['spec', 2],
        ['status', 3],
      ]);
    }
  });

  it('round-trips a SubjectAccessReview with extra (ExtraValue) through protobuf', () => {
    const sar = {
      apiVersion: subjectAccessReview.apiVersion,
      kind: 'SubjectAccessReview',
      metadata: {},
      spec: { resourceAttributes: { namespace: 'ns', verb: 'get', resource: 'pods', name: 'p' }, user: 'u', groups: ['g'], extra: { scopes: ['a', 'b'] }, uid: 'x' },
      status: { allowed: false, denied: true, reason: 'no', evaluationError: 'e' },
    };
    const back = roundTrip(subjectAccessReview, sar);
    expect(back.spec).to.deep.equal(sar.spec);
    expect(back.status).to.deep.equal(sar.status);
  });

  it('round-trips a SelfSubjectRulesReview through protobuf', () => {
    const ssrr = {
      apiVersion: selfSubjectRulesReview.apiVersion,
      kind: 'SelfSubjectRulesReview',
      metadata: {},
      spec: { namespace: 'ns' },
      status: { resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }], incomplete: true },
    };
    const back = roundTrip(selfSubjectRulesReview, ssrr);
    expect(back.spec).to.deep.equal(ssrr.spec);
    expect(back.status).to.deep.equal(ssrr.status);
  });
});
