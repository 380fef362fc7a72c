import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { AuthenticationError, type RequestAuthenticator } from '../../../lib/authentication/interface.js';
import { RequestHeaderAuthenticator, unescapeExtraKey } from '../../../lib/authentication/request-header/authenticator.js';
import { X509Authenticator } from '../../../lib/authentication/x509/authenticator.js';
import { parseCertificateBundle } from '../../../lib/authentication/x509/verify.js';
import { type ProxyPKI, createProxyPKI, proxiedRequest } from '../../framework/proxy-pki.js';
import { usePKI } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

describe('authenticating proxy: the request-header method over real TLS (spec 001 § Authenticating proxy flags)', () => {
  let proxy: ProxyPKI;
  let server: Server;
  let url: string;
  let ca: string;
  let admin: { cert: string; key: string };

  before(async function () {
    this.timeout(60_000);
    const { pki } = await usePKI();
    ca = pki.caCertPem;
    admin = { cert: pki.adminCertPem, key: pki.adminKeyPem };
    proxy = await createProxyPKI(['front-proxy', 'stranger']);
    const requestHeader = await RequestHeaderAuthenticator.fromFlags({
      clientCAFile: proxy.caFile,
      usernameHeaders: ['X-Remote-User', 'x-fallback-user'],
      groupHeaders: ['X-Remote-Group', 'X-Other-Group'],
      extraHeaderPrefixes: ['X-Remote-Extra-', 'X-Acme-'],
      allowedNames: ['front-proxy'],
    });
    const x509 = new X509Authenticator(parseCertificateBundle(pki.caCertPem, 'client CA'));
    const opts = { audiences: [], warn: () => undefined };
    // Both methods as the server runs them; the answer shows what each saw and what was left.
    server = createServer(
      { cert: pki.servingCertPem, key: pki.servingKeyPem, ca: `${pki.caCertPem}${proxy.caPem}`, requestCert: true, rejectUnauthorized: false },
      (req: IncomingMessage, res: ServerResponse) => {
        void (async () => {
          const outcome = async (m: RequestAuthenticator) => {
            try {
              return { result: await m.authenticateRequest(req, opts) };
            } catch (err) {
              return { error: (err as Error).message, authenticationError: err instanceof AuthenticationError };
            }
          };
          const proxied = await outcome(requestHeader);
          const cert = await outcome(x509);
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ proxied, cert, headers: req.headers, rawHeaders: req.rawHeaders, distinct: req.headersDistinct }));
        })();
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise<void>((r) => server?.close(() => r()));
    await proxy?.remove();
  });

  const identityHeaders = {
    'X-Remote-User': 'alice',
    'X-Remote-Group': ['devs', 'ops, with comma', ''],
    'x-other-group': 'auditors',
    'X-Remote-Extra-Scopes': ['read', 'write'],
    'X-Remote-Extra-Example.org%2Fteam': 'blue',
    'X-Acme-Reason%20Code': '',
    'X-Remote-Extra-Bad%zzEscape': 'kept',
    'X-Unrelated': 'stays',
  };

  /** No identity header is left in any view of the request. */
  function expectStripped(body: { headers: Record<string, unknown>; rawHeaders: string[]; distinct: Record<string, unknown> }) {
    const identity = (name: string) => /^(x-remote-|x-other-group|x-fallback-user|x-acme-)/.test(name.toLowerCase());
    expect(Object.keys(body.headers).filter(identity)).to.deep.equal([]);
    expect(Object.keys(body.distinct).filter(identity)).to.deep.equal([]);
    expect(body.rawHeaders.filter((_v, i) => i % 2 === 0).filter(identity)).to.deep.equal([]);
    expect(body.headers['x-unrelated']).to.equal('stays');
  }

  it(`a certificate of the proxy CA with an allowed CN: the identity of the headers${covers('001 § Authenticating proxy flags › --requestheader-client-ca-file (required)', '001 § Authenticating proxy flags › --requestheader-allowed-names')}`, async () => {
    const res = await proxiedRequest('GET', url, { ca, identity: proxy.identities['front-proxy'], headers: identityHeaders });
    expect(res.body.proxied.result).to.deep.equal({
      user: {
        name: 'alice',
        groups: ['devs', 'ops, with comma', 'auditors'],
        extra: { scopes: ['read', 'write'], 'example.org/team': ['blue'], 'bad%zzescape': ['kept'], 'reason code': [''] },
      },
    });
    expectStripped(res.body);
  });

  it(`the username comes from the first username header with a value${covers('001 § Authenticating proxy flags › --requestheader-username-headers (required)')}`, async () => {
    const res = await proxiedRequest('GET', url, { ca, identity: proxy.identities['front-proxy'], headers: { 'X-Remote-User': '', 'X-FALLBACK-USER': ['bob', 'carol'] } });
    expect(res.body.proxied.result.user.name).to.equal('bob');
  });

  it('no username header: not the proxy method (null); the proxy certificate is no user certificate', async () => {
    const res = await proxiedRequest('GET', url, { ca, identity: proxy.identities['front-proxy'], headers: { 'X-Remote-Group': 'devs', 'X-Unrelated': 'stays' } });
    expect(res.body.proxied).to.deep.equal({ result: null });
    expect(res.body.cert).to.include({ authenticationError: true });
    expect(res.body.cert.error).to.include('certificate signed by unknown authority');
    expectStripped(res.body);
  });

  it(`a CN not in --requestheader-allowed-names: rejected, headers stripped${covers('001 § Authenticating proxy flags › --requestheader-allowed-names')}`, async () => {
    const res = await proxiedRequest('GET', url, { ca, identity: proxy.identities.stranger, headers: identityHeaders });
    expect(res.body.proxied).to.deep.equal({ error: 'x509: subject with cn=stranger is not in the allowed list', authenticationError: true });
    expectStripped(res.body);
  });

  it('a client-CA certificate: headers ignored and stripped, the certificate is the user', async () => {
    const res = await proxiedRequest('GET', url, { ca, identity: admin, headers: identityHeaders });
    expect(res.body.proxied.authenticationError).to.equal(true);
    expect(res.body.proxied.error).to.include('certificate signed by unknown authority');
    expect(res.body.cert.result.user.groups).to.include('system:masters');
    expectStripped(res.body);
  });

  it(`no client certificate: headers ignored (null) and stripped${covers('001 § Authenticating proxy flags › --requestheader-client-ca-file (required)')}`, async () => {
    const res = await proxiedRequest('GET', url, { ca, headers: identityHeaders });
    expect(res.body.proxied).to.deep.equal({ result: null });
    expect(res.body.cert).to.deep.equal({ result: null });
    expectStripped(res.body);
  });

  describe('unescapeExtraKey (Go url.PathUnescape)', () => {
    const rows: Array<[string, string]> = [
      ['plain', 'plain'],
      ['example.org%2fteam', 'example.org/team'],
      ['a%20b', 'a b'],
      ['%e2%9c%93', '✓'],
      ['bad%zz', 'bad%zz'],
      ['trailing%2', 'trailing%2'],
      ['plus+stays', 'plus+stays'],
    ];
    for (const [input, want] of rows) it(`${input} → ${want}`, () => expect(unescapeExtraKey(input)).to.equal(want));
  });
});
