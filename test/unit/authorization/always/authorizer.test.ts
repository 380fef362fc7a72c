import { expect } from 'chai';
import { ALWAYS_DENY_REASON, AlwaysAllowAuthorizer, AlwaysDenyAuthorizer } from '../../../../lib/authorization/always/authorizer.js';
import type { AuthorizationAttributes } from '../../../../lib/authorization/interface.js';

const attrs: AuthorizationAttributes = {
  user: { name: 'u', groups: [] },
  verb: 'delete',
  isResourceRequest: true,
  path: '/api/v1/namespaces/x/secrets/y',
  apiGroup: '',
  apiVersion: 'v1',
  namespace: 'x',
  resource: 'secrets',
  subresource: '',
  name: 'y',
};

describe('authorization/always: AlwaysAllow and AlwaysDeny (spec 001 § Authorization)', () => {
  it('AlwaysAllow allows everything and lists `*` rules', async () => {
    const a = new AlwaysAllowAuthorizer();
    expect(await a.authorize(attrs)).to.deep.equal({ decision: 'Allow', reason: '' });
    expect(await a.rulesFor(attrs.user, 'x')).to.deep.equal({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
  });

  it('AlwaysDeny has no opinion with upstream reason, so a later mode may allow; it lists no rule', async () => {
    const a = new AlwaysDenyAuthorizer();
    expect(await a.authorize(attrs)).to.deep.equal({ decision: 'NoOpinion', reason: ALWAYS_DENY_REASON });
    expect(ALWAYS_DENY_REASON).to.equal('Everything is forbidden.');
    expect(await a.rulesFor(attrs.user, 'x')).to.deep.equal({ resourceRules: [], nonResourceRules: [], incomplete: false });
  });
});
