import { expect } from 'chai';
import { outgoingHeaders } from '../../../../lib/endpoints/aggregator/proxy.js';
import { authProxyHeaders, escapeExtraKey, serviceServerName, tlsRequestOptions } from '../../../../lib/endpoints/aggregator/transport.js';

describe('endpoints/aggregator transport (spec 001 § Authenticating proxy flags; issue #20)', () => {
  const cases: Array<[string, string]> = [
    ['scopes', 'scopes'],
    ['example.org/team', 'example.org%2Fteam'],
    ['100%', '100%25'],
    ['a b', 'a%20b'],
    ['é', '%C3%A9'],
  ];
  for (const [key, escaped] of cases) {
    it(`escapes the extra key ${JSON.stringify(key)} as ${escaped}`, () => {
      expect(escapeExtraKey(key)).to.equal(escaped);
    });
  }

  it('names the user, one header line per group and per extra value', () => {
    expect(authProxyHeaders({ name: 'jane', groups: ['a', 'b'], extra: { 'example.org/team': ['x', 'y'], empty: [] } })).to.deep.equal({
      'X-Remote-User': 'jane',
      'X-Remote-Group': ['a', 'b'],
      'X-Remote-Extra-example.org%2Fteam': ['x', 'y'],
    });
  });

  it('verifies the service name against caBundle, or skips verification with insecureSkipTLSVerify', () => {
    const a = { spec: { service: { namespace: 'ns', name: 'api' }, caBundle: Buffer.from('PEM').toString('base64') } };
    expect(serviceServerName(a)).to.equal('api.ns.svc');
    expect(tlsRequestOptions(a, { host: '192.0.2.1', port: 8443 }, { certPem: 'C', keyPem: 'K' })).to.deep.include({ host: '192.0.2.1', port: 8443, servername: 'api.ns.svc', rejectUnauthorized: true, ca: 'PEM', cert: 'C', key: 'K' });
    const insecure = tlsRequestOptions({ spec: { service: { namespace: 'ns', name: 'api' }, insecureSkipTLSVerify: true } }, { host: 'h', port: 1 }, undefined);
    expect(insecure.rejectUnauthorized).to.equal(false);
    expect(insecure).not.to.have.property('ca');
    expect(insecure).not.to.have.property('cert');
  });

  it('forwards the client headers but credentials, impersonation, claimed user and hop-by-hop headers', () => {
    const out = outgoingHeaders(
      {
        accept: 'application/json;as=Table;v=v1;g=meta,application/json',
        'content-type': 'application/strategic-merge-patch+json',
        authorization: 'Bearer t',
        'impersonate-user': 'x',
        'impersonate-extra-scopes': 'y',
        'x-remote-user': 'mallory',
        'x-remote-group': 'system:masters',
        'x-remote-extra-scopes': 'forged',
        connection: 'keep-alive',
        'transfer-encoding': 'chunked',
        host: 'front:6443',
        ':path': '/apis',
        'x-forwarded-for': '192.0.2.50',
      },
      '192.0.2.60',
      { name: 'jane', groups: ['g'] },
    );
    expect(out).to.deep.equal({
      accept: 'application/json;as=Table;v=v1;g=meta,application/json',
      'content-type': 'application/strategic-merge-patch+json',
      'x-forwarded-for': '192.0.2.50, 192.0.2.60',
      'X-Remote-User': 'jane',
      'X-Remote-Group': ['g'],
    });
  });
});
