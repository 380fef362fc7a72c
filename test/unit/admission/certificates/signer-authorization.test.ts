import { expect } from 'chai';
import { isAuthorizedForSigner, signerAttributes, signerWildcard } from '../../../../lib/admission/plugins/certificates/signer-authorization.js';
import { CERTIFICATES_GROUP } from '../../../../lib/apis/certificates/v1/index.js';
import { vendorGroup } from '../../../../lib/apis/vendor.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../../../../lib/request/authorization.js';
import type { UserInfo } from '../../../../lib/request/user.js';
import { fakeAuthorizer, quietLog } from './fakes.js';

const BOB: UserInfo = { name: 'bob', groups: ['devs'] };

describe('signer authorization of the certificate admission plugins (spec 001 § Admission control)', () => {
  it('asks for the verb on the signers resource of the certificates group, any version, by signer name', () => {
    expect(CERTIFICATES_GROUP).to.equal(vendorGroup('certificates'));
    expect(signerAttributes(BOB, 'approve', 'example.com/s')).to.deep.equal({
      user: BOB,
      verb: 'approve',
      isResourceRequest: true,
      path: '',
      apiGroup: vendorGroup('certificates'),
      apiVersion: '*',
      namespace: '',
      resource: 'signers',
      subresource: '',
      name: 'example.com/s',
    });
  });

  it('the wildcard is the domain (text before the first slash) followed by /*', () => {
    expect(signerWildcard('example.com/a/b')).to.equal('example.com/*');
    expect(signerWildcard('example.com')).to.equal('example.com/*');
    expect(signerWildcard('')).to.equal('/*');
  });

  it('allows on the exact name without asking for the wildcard', async () => {
    const authz = fakeAuthorizer({ 'bob approve example.com/s': 'Allow' });
    expect(await isAuthorizedForSigner(authz, quietLog(), BOB, 'approve', 'example.com/s')).to.equal(true);
    expect(authz.asked).to.deep.equal(['bob approve example.com/s']);
  });

  it('falls back to the wildcard, and denies when neither is allowed', async () => {
    const authz = fakeAuthorizer({ 'bob sign example.com/*': 'Allow' });
    expect(await isAuthorizedForSigner(authz, quietLog(), BOB, 'sign', 'example.com/s')).to.equal(true);
    expect(authz.asked).to.deep.equal(['bob sign example.com/s', 'bob sign example.com/*']);
    expect(await isAuthorizedForSigner(authz, quietLog(), BOB, 'approve', 'example.com/s')).to.equal(false);
    expect(await isAuthorizedForSigner(fakeAuthorizer({ 'bob approve example.com/s': 'Deny' }), quietLog(), BOB, 'approve', 'example.com/s')).to.equal(false);
  });

  it('an authorizer that throws or reports an evaluation error counts as no and is logged', async () => {
    const log = quietLog();
    const throwing: Authorizer = {
      authorize: async (): Promise<AuthorizationResult> => {
        throw new Error('boom');
      },
    };
    expect(await isAuthorizedForSigner(throwing, log, BOB, 'sign', 'example.com/s')).to.equal(false);
    const failing: Authorizer = { authorize: async (_a: AuthorizationAttributes) => ({ decision: 'NoOpinion', reason: '', evaluationError: 'webhook down' }) };
    expect(await isAuthorizedForSigner(failing, log, BOB, 'sign', 'example.com/s')).to.equal(false);
    expect(log.warnings).to.have.length(4);
  });
});
