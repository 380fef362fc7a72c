/**
 * ValidatingAdmissionPolicy and its binding in v1beta1 and v1alpha1 (issue #15 item 1): the v1
 * structure under each version's definition ids (the inline Rule and RuleWithOperations keep v1's
 * protobuf message ids, as upstream's aliases do), the identity conversion with type meta and
 * defaults, v1alpha1's ParamRef default and upstream's lifecycle warnings.
 */
import { expect } from 'chai';
import { applyDefaults } from '../../../../../lib/apimachinery/schema/defaults.js';
import { embeddingPath, structFields, type Field, type StructSchema } from '../../../../../lib/apimachinery/schema/types.js';
import { ADMISSIONREGISTRATION_GROUP } from '../../../../../lib/apis/admissionregistration/v1/index.js';
import {
  admissionregistrationV1alpha1Kinds,
  validatingAdmissionPolicyBindingV1alpha1Conversion,
  validatingAdmissionPolicyV1alpha1Conversion,
} from '../../../../../lib/apis/admissionregistration/v1alpha1/index.js';
import {
  admissionregistrationV1beta1Kinds,
  validatingAdmissionPolicyBindingV1beta1Conversion,
  validatingAdmissionPolicyV1beta1,
} from '../../../../../lib/apis/admissionregistration/v1beta1/index.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { deprecationWarning } from '../../../../../lib/apis/deprecation.js';
import { convertObject } from '../../../../../lib/apis/migration/convert.js';
import { BUILTIN_SCHEME } from '../../../../../lib/cmd/convert-scheme.js';

const AR = ADMISSIONREGISTRATION_GROUP;
const spec = (s: StructSchema, name: string): StructSchema => structFields(s)[name]!.schema as StructSchema;
const list = (f: Field): StructSchema => (f.schema as { items: StructSchema }).items;

describe('admissionregistration v1beta1 and v1alpha1 policy kinds (issue #15 item 1)', () => {
  it('declares the two kinds of each version, in discovery order', () => {
    expect([...admissionregistrationV1beta1Kinds, ...admissionregistrationV1alpha1Kinds].map((k) => `${k.apiVersion} ${k.kind} ${k.resource} ${k.statusSubresource}`)).to.deep.equal([
      `${AR}/v1beta1 ValidatingAdmissionPolicy validatingadmissionpolicies true`,
      `${AR}/v1beta1 ValidatingAdmissionPolicyBinding validatingadmissionpolicybindings false`,
      `${AR}/v1alpha1 ValidatingAdmissionPolicy validatingadmissionpolicies true`,
      `${AR}/v1alpha1 ValidatingAdmissionPolicyBinding validatingadmissionpolicybindings false`,
    ]);
  });

  it('rehomes the v1 structs under the version; the inline rules keep v1 protobuf message ids', () => {
    const policySpec = spec(validatingAdmissionPolicyV1beta1.schema, 'spec');
    expect(policySpec.id).to.equal('api.admissionregistration.v1beta1.ValidatingAdmissionPolicySpec');
    const match = structFields(policySpec).matchConstraints!.schema as StructSchema;
    expect(match.id).to.equal('api.admissionregistration.v1beta1.MatchResources');
    const named = list(structFields(match).resourceRules!);
    expect(named.id).to.equal('api.admissionregistration.v1beta1.NamedRuleWithOperations');
    expect(embeddingPath(structFields(named).apiGroups!).map((e) => `${e.proto} ${e.id}`)).to.deep.equal([
      '2 api.admissionregistration.v1.RuleWithOperations',
      '2 api.admissionregistration.v1.Rule',
    ]);
    expect((structFields(match).namespaceSelector!.schema as StructSchema).id).to.equal('apimachinery.pkg.apis.meta.v1.LabelSelector');
    expect(spec(validatingAdmissionPolicyV1beta1.schema, 'status').id).to.equal('api.admissionregistration.v1beta1.ValidatingAdmissionPolicyStatus');
  });

  const v1Policy: Obj = {
    apiVersion: `${AR}/v1`,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'p', annotations: { a: 'b' } },
    spec: { failurePolicy: 'Ignore', validations: [{ expression: 'true' }], matchConditions: [{ name: 'm', expression: 'true' }], variables: [{ name: 'v', expression: '1' }] },
    status: { observedGeneration: 3 },
  };

  it('converts the policy both ways without loss, with the type meta of each side', () => {
    const served = validatingAdmissionPolicyV1alpha1Conversion.toServed(v1Policy);
    expect(served.apiVersion).to.equal(`${AR}/v1alpha1`);
    expect(served.spec).to.deep.equal(v1Policy.spec);
    expect(served.status).to.deep.equal(v1Policy.status);
    const back = validatingAdmissionPolicyV1alpha1Conversion.toStorage(served);
    expect(back.apiVersion).to.equal(`${AR}/v1`);
    expect(back.spec).to.deep.include(v1Policy.spec as Obj);
    expect(back.metadata).to.deep.include(v1Policy.metadata as Obj);
    expect(v1Policy.apiVersion, 'the input is not modified').to.equal(`${AR}/v1`);
  });

  it('v1alpha1 defaults paramRef.parameterNotFoundAction to Deny; v1beta1 leaves it unset as v1 does', () => {
    const binding = (version: string): Obj => ({
      apiVersion: `${AR}/${version}`,
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'b' },
      spec: { policyName: 'p', paramRef: { name: 'x' } },
    });
    const alpha = admissionregistrationV1alpha1Kinds[1]!;
    const alphaObj = binding('v1alpha1');
    applyDefaults(alpha.schema, alphaObj);
    expect((alphaObj.spec as Obj).paramRef).to.deep.equal({ name: 'x', parameterNotFoundAction: 'Deny' });
    expect(((validatingAdmissionPolicyBindingV1alpha1Conversion.toStorage(alphaObj).spec as Obj).paramRef as Obj).parameterNotFoundAction).to.equal('Deny');
    const betaObj = binding('v1beta1');
    applyDefaults(admissionregistrationV1beta1Kinds[1]!.schema, betaObj);
    expect((betaObj.spec as Obj).paramRef).to.deep.equal({ name: 'x' });
    expect(((validatingAdmissionPolicyBindingV1beta1Conversion.toStorage(betaObj).spec as Obj).paramRef as Obj).parameterNotFoundAction).to.equal(undefined);
  });

  it('convert (issue #15 item 7) rewrites a v1alpha1 binding as v1beta1 through v1, with v1alpha1 defaults kept', () => {
    const out = convertObject(BUILTIN_SCHEME, { apiVersion: `${AR}/v1alpha1`, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p', paramRef: { name: 'x' } } }, { group: AR, version: 'v1beta1' });
    expect(out.apiVersion).to.equal(`${AR}/v1beta1`);
    expect(out.spec).to.deep.equal({ policyName: 'p', paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } });
  });

  it('warns as upstream v1.30 does for each version', () => {
    expect([...admissionregistrationV1beta1Kinds, ...admissionregistrationV1alpha1Kinds].map(deprecationWarning)).to.deep.equal([
      `${AR}/v1beta1 ValidatingAdmissionPolicy is deprecated in v1.29+, unavailable in v1.32+`,
      `${AR}/v1beta1 ValidatingAdmissionPolicyBinding is deprecated in v1.29+, unavailable in v1.32+`,
      `${AR}/v1alpha1 ValidatingAdmissionPolicy is deprecated in v1.29+, unavailable in v1.32+; use ${AR}/v1 ValidatingAdmissionPolicy`,
      `${AR}/v1alpha1 ValidatingAdmissionPolicyBinding is deprecated in v1.29+, unavailable in v1.32+; use ${AR}/v1 ValidatingAdmissionPolicyBinding`,
    ]);
  });
});
