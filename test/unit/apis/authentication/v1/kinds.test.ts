/**
 * The kinds of `authentication.<vendor>/v1` (issue #10): upstream field structure, JSON names and
 * order, protobuf field numbers (k8s.io/api/authentication/v1 generated.proto of v1.30), defaults
 * and TokenRequest validation.
 */
import { expect } from 'chai';
import { canonicalize } from '../../../../../lib/apimachinery/schema/canonical.js';
import { applyDefaults } from '../../../../../lib/apimachinery/schema/defaults.js';
import { type StructSchema, structFields } from '../../../../../lib/apimachinery/schema/types.js';
import { decodeProtobuf, encodeProtobuf } from '../../../../../lib/apimachinery/serializers/protobuf/index.js';
import {
  AUTHENTICATION_GROUP,
  authenticationV1Kinds,
  boundObjectReference,
  selfSubjectReview,
  selfSubjectReviewStatus,
  tokenRequest,
  tokenRequestSpec,
  tokenRequestStatus,
  tokenReview,
  tokenReviewSpec,
  tokenReviewStatus,
  userInfo,
  validateTokenRequest,
} from '../../../../../lib/apis/authentication/v1/index.js';
import type { KindDefinition, Obj } from '../../../../../lib/apis/define.js';
import { vendorGroup } from '../../../../../lib/apis/vendor.js';

/** Property → protobuf field number, in declaration (JSON) order. */
function numbers(s: StructSchema): [string, number][] {
  return Object.entries(structFields(s)).map(([name, f]) => [name, f.proto]);
}

function roundTrip(def: KindDefinition, obj: Obj): Obj {
  const bytes = encodeProtobuf(obj, { apiVersion: def.apiVersion, kind: def.kind, schema: def.schema });
  const back = decodeProtobuf(bytes, (apiVersion, kind) => (apiVersion === def.apiVersion && kind === def.kind ? def.schema : undefined));
  return { apiVersion: back.apiVersion, kind: back.kind, ...back.object };
}

describe('authentication/v1 kinds (issue #10; spec 001 § Authentication)', () => {
  it('declares the kinds in the vendor authentication group', () => {
    expect(AUTHENTICATION_GROUP).to.equal(vendorGroup('authentication'));
    expect(authenticationV1Kinds.map((k) => [k.kind, k.resource, k.namespaced, k.apiVersion])).to.deep.equal([
      ['TokenReview', 'tokenreviews', false, `${AUTHENTICATION_GROUP}/v1`],
      ['SelfSubjectReview', 'selfsubjectreviews', false, `${AUTHENTICATION_GROUP}/v1`],
      ['TokenRequest', 'tokenrequests', true, `${AUTHENTICATION_GROUP}/v1`],
    ]);
    expect(tokenRequest.schema.id).to.equal('api.authentication.v1.TokenRequest');
  });

  it('uses the upstream JSON names, Go field order and protobuf numbers', () => {
    const table: [StructSchema, [string, number][]][] = [
      [tokenReview.schema, [['kind', 0], ['apiVersion', 0], ['metadata', 1], ['spec', 2], ['status', 3]]],
      [tokenReviewSpec, [['token', 1], ['audiences', 2]]],
      [tokenReviewStatus, [['authenticated', 1], ['user', 2], ['audiences', 4], ['error', 3]]],
      [userInfo, [['username', 1], ['uid', 2], ['groups', 3], ['extra', 4]]],
      [selfSubjectReview.schema, [['kind', 0], ['apiVersion', 0], ['metadata', 1], ['status', 2]]],
      [selfSubjectReviewStatus, [['userInfo', 1]]],
      [tokenRequest.schema, [['kind', 0], ['apiVersion', 0], ['metadata', 1], ['spec', 2], ['status', 3]]],
      [tokenRequestSpec, [['audiences', 1], ['expirationSeconds', 4], ['boundObjectRef', 3]]],
      [tokenRequestStatus, [['token', 1], ['expirationTimestamp', 2]]],
      [boundObjectReference, [['kind', 1], ['apiVersion', 2], ['name', 3], ['uid', 4]]],
    ];
    for (const [schema, expected] of table) expect(numbers(schema), schema.id).to.deep.equal(expected);
  });

  it('writes what Go writes: non-pointer structs always, omitempty fields only when set, TokenRequest spec and status fields always (nil pointers as null)', () => {
    const review = canonicalize(tokenReview.schema, { apiVersion: tokenReview.apiVersion, kind: 'TokenReview', spec: { token: 't' } });
    expect(JSON.stringify(review)).to.equal(`{"kind":"TokenReview","apiVersion":"${AUTHENTICATION_GROUP}/v1","metadata":{"creationTimestamp":null},"spec":{"token":"t"},"status":{"user":{}}}`);
    const request = canonicalize(tokenRequest.schema, { apiVersion: tokenRequest.apiVersion, kind: 'TokenRequest', spec: {} });
    expect(request.spec).to.deep.equal({ audiences: null, expirationSeconds: null, boundObjectRef: null });
    expect(request.status).to.deep.equal({ token: '', expirationTimestamp: null });
    const ssr = canonicalize(selfSubjectReview.schema, { apiVersion: selfSubjectReview.apiVersion, kind: 'SelfSubjectReview' });
    expect(ssr.status).to.deep.equal({ userInfo: {} });
  });

  it('defaults a TokenRequest to an hour (upstream SetDefaults_TokenRequestSpec)', () => {
    const tr: Obj = { spec: { audiences: ['api'] } };
    applyDefaults(tokenRequest.schema, tr);
    expect(tr.spec).to.deep.equal({ audiences: ['api'], expirationSeconds: 3600 });
    const explicit: Obj = { spec: { expirationSeconds: 7200 } };
    applyDefaults(tokenRequest.schema, explicit);
    expect((explicit.spec as Obj).expirationSeconds).to.equal(7200);
  });

  it('validates expirationSeconds between 10 minutes and 2^32 seconds with the upstream messages', () => {
    const withSeconds = (s: number): Obj => ({ spec: { audiences: [], expirationSeconds: s } });
    expect(validateTokenRequest(withSeconds(600))).to.deep.equal([]);
    expect(validateTokenRequest(withSeconds(2 ** 32))).to.deep.equal([]);
    expect(validateTokenRequest(withSeconds(599))).to.deep.equal([
      { type: 'Invalid', field: 'spec.expirationSeconds', badValue: 599, detail: 'may not specify a duration less than 10 minutes' },
    ]);
    expect(validateTokenRequest(withSeconds(2 ** 32 + 1))).to.deep.equal([
      { type: 'Invalid', field: 'spec.expirationSeconds', badValue: 2 ** 32 + 1, detail: 'may not specify a duration larger than 2^32 seconds' },
    ]);
    expect(tokenRequest.validate).to.equal(validateTokenRequest);
  });

  it('round-trips every field through protobuf, extra values in their ExtraValue wrapper', () => {
    const user = { username: 'alice', uid: 'uid-1', groups: ['g1', 'system:authenticated'], extra: { 'example.com/scopes': ['a', 'b'], single: ['x'] } };
    const cases: [KindDefinition, Obj][] = [
      [tokenReview, { metadata: { creationTimestamp: null }, spec: { token: 'abc', audiences: ['api'] }, status: { authenticated: true, user, audiences: ['api'], error: 'none' } }],
      [selfSubjectReview, { metadata: { creationTimestamp: '2024-05-01T10:00:00Z' }, status: { userInfo: user } }],
      [
        tokenRequest,
        {
          metadata: { name: 'default', namespace: 'ns', creationTimestamp: null },
          spec: { audiences: ['api', 'vault'], expirationSeconds: 3600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'u-2' } },
          status: { token: 'ey.x.y', expirationTimestamp: '2024-05-01T11:00:00Z' },
        },
      ],
    ];
    for (const [def, fields] of cases) {
      const obj = { apiVersion: def.apiVersion, kind: def.kind, ...fields };
      expect(roundTrip(def, obj), def.kind).to.deep.equal(obj);
    }
  });
});
