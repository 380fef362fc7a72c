import { expect } from 'chai';
import { authenticationData } from '../../../../lib/controllers/extension-apiserver-authentication/publisher.js';

const cert = (n: string) => `-----BEGIN CERTIFICATE-----\n${n}\n-----END CERTIFICATE-----\n`;
const RH = { clientCAPem: cert('PROXY'), allowedNames: ['front-proxy-client'], usernameHeaders: ['X-Remote-User'], groupHeaders: ['X-Remote-Group'], extraHeaderPrefixes: ['X-Remote-Extra-'] };

describe('controllers/extension-apiserver-authentication (spec 001 § Authenticating proxy flags; issue #20)', () => {
  it('publishes the client CA and the request-header settings, lists as JSON arrays', () => {
    expect(authenticationData({ clientCAPem: cert('CLIENT'), requestHeader: RH })).to.deep.equal({
      'client-ca-file': cert('CLIENT'),
      'requestheader-client-ca-file': cert('PROXY'),
      'requestheader-allowed-names': '["front-proxy-client"]',
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
    });
  });

  it('leaves out the request-header keys without --requestheader-client-ca-file, and an empty allowed-names list is []', () => {
    expect(authenticationData({ clientCAPem: cert('CLIENT') })).to.deep.equal({ 'client-ca-file': cert('CLIENT') });
    expect(authenticationData({ requestHeader: { ...RH, allowedNames: [] } })['requestheader-allowed-names']).to.equal('[]');
  });

  it('keeps certificates other servers published, adding its own once', () => {
    const data = authenticationData({ clientCAPem: cert('MINE') }, { 'client-ca-file': cert('OTHER') + cert('MINE') });
    expect(data['client-ca-file']).to.equal(cert('OTHER') + cert('MINE'));
    expect(authenticationData({ clientCAPem: cert('MINE') }, { 'client-ca-file': cert('OTHER') })['client-ca-file']).to.equal(cert('OTHER') + cert('MINE'));
  });
});
