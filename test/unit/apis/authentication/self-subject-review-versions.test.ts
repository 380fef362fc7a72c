/**
 * SelfSubjectReview of `authentication.<vendor>/v1beta1` and `v1alpha1` (issue #15 item 1): v1's
 * fields under each version's status definition id (UserInfo stays v1's, as upstream), upstream's
 * lifecycle warnings, and the Creater answering in the version asked.
 */
import { expect } from 'chai';
import type { StructSchema } from '../../../../lib/apimachinery/schema/types.js';
import { structFields } from '../../../../lib/apimachinery/schema/types.js';
import { AUTHENTICATION_GROUP } from '../../../../lib/apis/authentication/v1/index.js';
import { authenticationV1alpha1Kinds, selfSubjectReviewV1alpha1 } from '../../../../lib/apis/authentication/v1alpha1/index.js';
import { authenticationV1beta1Kinds, selfSubjectReviewV1beta1 } from '../../../../lib/apis/authentication/v1beta1/index.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { deprecationWarning } from '../../../../lib/apis/deprecation.js';
import { newSelfSubjectReviewCreater } from '../../../../lib/registry/authentication/selfsubjectreview/rest.js';
import { internalContext } from '../../../../lib/request/context.js';

describe('SelfSubjectReview v1beta1 and v1alpha1 (issue #15 item 1)', () => {
  it('declares one create-only kind per version with the status under its own id and v1 UserInfo', () => {
    expect([...authenticationV1beta1Kinds, ...authenticationV1alpha1Kinds]).to.deep.equal([selfSubjectReviewV1beta1, selfSubjectReviewV1alpha1]);
    for (const [kind, version] of [[selfSubjectReviewV1beta1, 'v1beta1'], [selfSubjectReviewV1alpha1, 'v1alpha1']] as const) {
      expect(`${kind.apiVersion} ${kind.kind} ${kind.resource} ${kind.namespaced}`).to.equal(`${AUTHENTICATION_GROUP}/${version} SelfSubjectReview selfsubjectreviews false`);
      const status = structFields(kind.schema).status!.schema as StructSchema;
      expect(status.id).to.equal(`api.authentication.${version}.SelfSubjectReviewStatus`);
      expect((structFields(status).userInfo!.schema as StructSchema).id).to.equal('api.authentication.v1.UserInfo');
    }
  });

  it('warns as upstream v1.30 does', () => {
    expect(deprecationWarning(selfSubjectReviewV1beta1)).to.equal(`${AUTHENTICATION_GROUP}/v1beta1 SelfSubjectReview is deprecated in v1.30+, unavailable in v1.33+`);
    expect(deprecationWarning(selfSubjectReviewV1alpha1)).to.equal(`${AUTHENTICATION_GROUP}/v1alpha1 SelfSubjectReview is deprecated in v1.29+`);
  });

  it('answers in the version of its kind', async () => {
    const ctx = internalContext({ name: 'bob', groups: ['g'] });
    const out: Obj = await newSelfSubjectReviewCreater(selfSubjectReviewV1alpha1).create(ctx, { namespace: '', name: '' }, {}, { dryRun: false, validate: async () => undefined });
    expect(out.apiVersion).to.equal(`${AUTHENTICATION_GROUP}/v1alpha1`);
    expect(out.kind).to.equal('SelfSubjectReview');
    expect(out.status).to.deep.equal({ userInfo: { username: 'bob', groups: ['g'] } });
  });
});
