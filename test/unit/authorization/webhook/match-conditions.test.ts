import { expect } from 'chai';
import type { Program } from '../../../../lib/cel/index.js';
import { MatchConditions, compileMatchCondition } from '../../../../lib/authorization/webhook/match-conditions.js';
import { reviewFor, specFor } from '../../../../lib/authorization/webhook/subject-access-review.js';
import type { AuthorizationAttributes } from '../../../../lib/authorization/interface.js';
import { vendorGroup } from '../../../../lib/apis/vendor.js';

const resource: AuthorizationAttributes = {
  user: { name: 'jane', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } },
  verb: 'get',
  isResourceRequest: true,
  path: '/apis/apps/v1/namespaces/ns/deployments/d/scale',
  apiGroup: 'apps',
  apiVersion: 'v1',
  namespace: 'ns',
  resource: 'deployments',
  subresource: 'scale',
  name: 'd',
};
const nonResource: AuthorizationAttributes = { ...resource, user: { name: 'jane', groups: [] }, isResourceRequest: false, path: '/healthz', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '' };

function conditions(...expressions: string[]): MatchConditions {
  return new MatchConditions(
    expressions.map((e) => {
      const p = compileMatchCondition(e);
      if (typeof p === 'string') throw new Error(p);
      return p as Program;
    }),
  );
}

describe('authorization/webhook: SubjectAccessReview request (spec 001 § Webhook authorization mode)', () => {
  it('v1beta1: resourceAttributes, user, `group`, extra, uid; empty fields left out', () => {
    expect(reviewFor(specFor(resource), 'v1beta1')).to.deep.equal({
      kind: 'SubjectAccessReview',
      apiVersion: `${vendorGroup('authorization')}/v1beta1`,
      metadata: { creationTimestamp: null },
      spec: {
        resourceAttributes: { namespace: 'ns', verb: 'get', group: 'apps', version: 'v1', resource: 'deployments', subresource: 'scale', name: 'd' },
        user: 'jane',
        group: ['dev', 'system:authenticated'],
        extra: { scopes: ['a', 'b'] },
        uid: 'u-1',
      },
      status: { allowed: false },
    });
  });

  it('v1: `groups`; non-resource requests carry path and verb', () => {
    expect(reviewFor(specFor(nonResource), 'v1')).to.deep.equal({
      kind: 'SubjectAccessReview',
      apiVersion: `${vendorGroup('authorization')}/v1`,
      metadata: { creationTimestamp: null },
      spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'jane' },
      status: { allowed: false },
    });
  });
});

describe('authorization/webhook: match conditions (spec 001 § Authorization: matchConditions)', () => {
  it('all true → the webhook applies', () => {
    expect(conditions("request.user == 'jane'", "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'ns'", "'dev' in request.groups").matches(specFor(resource))).to.equal(true);
  });

  it('any false → skipped', () => {
    expect(conditions("request.user == 'jane'", "request.resourceAttributes.verb == 'delete'").matches(specFor(resource))).to.equal(false);
  });

  it('a false wins over an evaluation error', () => {
    expect(conditions('request.resourceAttributes.verb == "get"', "request.user == 'bob'").matches(specFor(nonResource))).to.equal(false);
  });

  it('an evaluation error without a false is thrown, worded as upstream', () => {
    expect(() => conditions('request.resourceAttributes.verb == "get"').matches(specFor(nonResource))).to.throw(
      /^cel evaluation error: expression 'request.resourceAttributes.verb == "get"' resulted in error: /,
    );
  });

  it('extra values are lists of strings', () => {
    expect(conditions("request.extra['scopes'].exists(s, s == 'b')").matches(specFor(resource))).to.equal(true);
  });

  it('a non-bool expression is rejected at compile time', () => {
    expect(compileMatchCondition('request.user')).to.equal('must evaluate to bool');
  });
});
