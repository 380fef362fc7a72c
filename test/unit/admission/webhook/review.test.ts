import { expect } from 'chai';
import type { MatchedResource } from '../../../../lib/admission/matching/rules.js';
import { ADMISSION_GROUP, decodeReviewResponse, encodeReviewRequest, ReviewError, reviewVersion } from '../../../../lib/admission/plugins/webhook/review.js';
import { admissionAttrs } from '../attrs.js';

const UID = '0b8e5d5c-6f0e-4c43-9a36-3c1f0c1d2e3f';
const MATCHED: MatchedResource = { group: '', version: 'v1', resource: 'configmaps', subresource: '', kind: 'ConfigMap', exact: true };
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');

function answer(response: unknown, apiVersion = `${ADMISSION_GROUP}/v1`): string {
  return JSON.stringify({ apiVersion, kind: 'AdmissionReview', response });
}

function reviewError(fn: () => unknown): ReviewError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(ReviewError);
    return err as ReviewError;
  }
  throw new Error('no error');
}

describe('the AdmissionReview codec (spec 001 § Admission control)', () => {
  describe('reviewVersion', () => {
    it('takes the first version this server speaks', () => {
      expect(reviewVersion(['v2', 'v1beta1', 'v1'])).to.equal('v1beta1');
      expect(reviewVersion(['v1'])).to.equal('v1');
      expect(reviewVersion(['v2'])).to.equal(null);
      expect(reviewVersion(undefined)).to.equal(null);
    });
  });

  describe('encodeReviewRequest', () => {
    it('encodes the request, leaving out empty optional fields as upstream does', () => {
      const attrs = admissionAttrs({ name: 'bob', groups: [] }, { resource: 'configmaps', kind: 'ConfigMap', requestKind: 'ConfigMap', namespace: '', name: '', object: { kind: 'ConfigMap' } });
      const doc = JSON.parse(encodeReviewRequest('v1beta1', UID, attrs, MATCHED));
      expect(doc).to.deep.equal({
        kind: 'AdmissionReview',
        apiVersion: `${ADMISSION_GROUP}/v1beta1`,
        request: {
          uid: UID,
          kind: { group: '', version: 'v1', kind: 'ConfigMap' },
          resource: { group: '', version: 'v1', resource: 'configmaps' },
          requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
          requestResource: { group: '', version: 'v1', resource: 'configmaps' },
          operation: 'CREATE',
          userInfo: { username: 'bob' },
          object: { kind: 'ConfigMap' },
          oldObject: null,
          dryRun: false,
          options: null,
        },
      });
    });

    it('keeps subresources, names and user details when present', () => {
      const attrs = admissionAttrs(
        { name: 'bob', uid: 'u', groups: ['g'], extra: { e: ['x'] } },
        { resource: 'pods', kind: 'Pod', requestKind: 'Pod', subresource: 'status', namespace: 'ns', name: 'p', dryRun: true },
      );
      const r = JSON.parse(encodeReviewRequest('v1', UID, attrs, { ...MATCHED, resource: 'pods', kind: 'Pod', subresource: 'status' })).request;
      expect(r).to.include({ subResource: 'status', requestSubResource: 'status', name: 'p', namespace: 'ns', dryRun: true });
      expect(r.userInfo).to.deep.equal({ username: 'bob', uid: 'u', groups: ['g'], extra: { e: ['x'] } });
    });
  });

  describe('decodeReviewResponse', () => {
    it('decodes an allowed v1 answer with warnings and audit annotations', () => {
      const r = decodeReviewResponse('v1', UID, false, answer({ uid: UID, allowed: true, warnings: ['w'], auditAnnotations: { k: 'v' } }));
      expect(r).to.deep.include({ allowed: true, warnings: ['w'], auditAnnotations: { k: 'v' } });
      expect(r.patch).to.equal(undefined);
    });

    it('accepts the upstream spelling of the group', () => {
      expect(decodeReviewResponse('v1', UID, false, answer({ uid: UID, allowed: true }, 'admission.k8s.io/v1')).allowed).to.equal(true);
    });

    it('decodes a mutating answer with its patch', () => {
      const r = decodeReviewResponse('v1', UID, true, answer({ uid: UID, allowed: true, patchType: 'JSONPatch', patch: b64([{ op: 'add', path: '/a', value: 1 }]) }));
      expect(r.patchType).to.equal('JSONPatch');
      expect(JSON.parse(r.patch!.toString())).to.deep.equal([{ op: 'add', path: '/a', value: 1 }]);
    });

    it('takes a v1beta1 patch as JSONPatch and does not check the uid of v1beta1 answers', () => {
      const r = decodeReviewResponse('v1beta1', UID, true, answer({ allowed: true, patch: b64([]) }, `${ADMISSION_GROUP}/v1beta1`));
      expect(r.patchType).to.equal('JSONPatch');
    });

    const verify: Array<[string, boolean, string, string]> = [
      ['a missing response', false, JSON.stringify({ apiVersion: `${ADMISSION_GROUP}/v1`, kind: 'AdmissionReview' }), 'webhook response was absent'],
      ['another uid', false, answer({ uid: 'x', allowed: true }), `expected response.uid="${UID}", got "x"`],
      ['a v1beta1 answer to a v1 review', false, answer({ uid: UID, allowed: true }, `${ADMISSION_GROUP}/v1beta1`), `expected webhook response of ${ADMISSION_GROUP}/v1, Kind=AdmissionReview, got ${ADMISSION_GROUP}/v1beta1, Kind=AdmissionReview`],
      ['a patch without patchType', true, answer({ uid: UID, allowed: true, patch: b64([]) }), 'webhook returned response.patch but not response.patchType'],
      ['a patchType without patch', true, answer({ uid: UID, allowed: true, patchType: 'JSONPatch' }), 'webhook returned response.patchType but not response.patch'],
      ['an empty patchType', true, answer({ uid: UID, allowed: true, patchType: '', patch: b64([]) }), 'webhook returned invalid response.patchType of ""'],
      ['a patch from a validating webhook', false, answer({ uid: UID, allowed: true, patch: b64([]) }), 'validating webhook may not return response.patch'],
      ['a patchType from a validating webhook', false, answer({ uid: UID, allowed: true, patchType: 'JSONPatch' }), 'validating webhook may not return response.patchType'],
    ];
    for (const [what, mutating, text, message] of verify) {
      it(`refuses ${what} (verification)`, () => {
        const err = reviewError(() => decodeReviewResponse('v1', UID, mutating, text));
        expect(err.stage).to.equal('verify');
        expect(err.message).to.equal(message);
      });
    }

    const decode: Array<[string, string, string | RegExp]> = [
      ['text', 'hello', /^couldn't get version\/kind; json parse error: /],
      ['a JSON array', '[]', /^couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type struct/],
      ['an object without kind', '{}', "Object 'Kind' is missing in '{}'"],
      ['another kind', JSON.stringify({ apiVersion: 'v1', kind: 'Status' }), 'no kind "Status" is registered for version "v1"'],
      ['a response of the wrong type', answer('yes'), 'json: cannot unmarshal string into Go struct field AdmissionReview.response of type v1.AdmissionResponse'],
      ['allowed of the wrong type', answer({ uid: UID, allowed: 1 }), 'json: cannot unmarshal number into Go struct field AdmissionReview.response.allowed of type bool'],
      ['a uid of the wrong type', answer({ uid: 1 }), 'json: cannot unmarshal number into Go struct field AdmissionReview.response.uid of type types.UID'],
      ['a patch that is not base64', answer({ uid: UID, allowed: true, patch: 'not base64!' }), 'illegal base64 data at input byte 3'],
      ['warnings that are not strings', answer({ uid: UID, allowed: true, warnings: [1] }), 'json: cannot unmarshal number into Go struct field AdmissionReview.response.warnings of type string'],
      ['audit annotations that are not a map', answer({ uid: UID, allowed: true, auditAnnotations: [] }), 'json: cannot unmarshal array into Go struct field AdmissionReview.response.auditAnnotations of type map[string]string'],
      ['a status that is not an object', answer({ uid: UID, allowed: false, status: 'no' }), 'json: cannot unmarshal string into Go struct field AdmissionReview.response.status of type v1.Status'],
    ];
    for (const [what, text, message] of decode) {
      it(`refuses ${what} (decoding)`, () => {
        const err = reviewError(() => decodeReviewResponse('v1', UID, true, text));
        expect(err.stage).to.equal('decode');
        if (typeof message === 'string') expect(err.message).to.equal(message);
        else expect(err.message).to.match(message);
      });
    }
  });
});
