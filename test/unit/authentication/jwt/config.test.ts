import { expect } from 'chai';
import { APISERVER_CONFIG_GROUP, upstreamAlias } from '../../../../lib/apis/vendor.js';
import { decodeAuthenticationConfiguration } from '../../../../lib/authentication/jwt/config.js';
import { ConfigDecodeError } from '../../../../lib/apimachinery/serializers/config-document.js';
import { authenticatorFromOIDCOptions, defaultOIDCOptions } from '../../../../lib/authentication/jwt/oidc-flags.js';
import { covers } from '../../../conformance/covers.js';

const API_VERSION = `${APISERVER_CONFIG_GROUP}/v1beta1`;

const YAML_DOC = `apiVersion: ${API_VERSION}
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: https://issuer.example
    audiences: [app]
    certificateAuthority: |
      -----BEGIN CERTIFICATE-----
  claimValidationRules:
  - claim: hd
    requiredValue: example.com
  claimMappings:
    username:
      claim: sub
      prefix: ""
    groups:
      expression: claims.groups
    extra:
    - key: example.com/tenant
      valueExpression: claims.tenant
  userValidationRules:
  - expression: "!user.username.startsWith('system:')"
    message: no system users
`;

/** Decoding of the `--authentication-config` document (spec 001 § Authentication configuration file). */
describe('authentication configuration decoding (spec 001 § Authentication configuration file)', () => {
  it('reads a YAML document, filling absent fields with their zero values', () => {
    const c = decodeAuthenticationConfiguration(YAML_DOC);
    expect(c.jwt).to.have.length(1);
    const a = c.jwt[0]!;
    expect(a.issuer).to.deep.equal({ url: 'https://issuer.example', discoveryURL: '', certificateAuthority: '-----BEGIN CERTIFICATE-----\n', audiences: ['app'], audienceMatchPolicy: '' });
    expect(a.claimValidationRules).to.deep.equal([{ claim: 'hd', requiredValue: 'example.com', expression: '', message: '' }]);
    expect(a.claimMappings.username).to.deep.equal({ claim: 'sub', prefix: '', expression: '' });
    expect(a.claimMappings.groups).to.deep.equal({ claim: '', expression: 'claims.groups' });
    expect(a.claimMappings.uid).to.deep.equal({ claim: '', expression: '' });
    expect(a.claimMappings.extra).to.deep.equal([{ key: 'example.com/tenant', valueExpression: 'claims.tenant' }]);
    expect(a.userValidationRules).to.deep.equal([{ expression: "!user.username.startsWith('system:')", message: 'no system users' }]);
  });

  it('reads the same document as JSON, null as absent', () => {
    const json = JSON.stringify({
      apiVersion: API_VERSION,
      kind: 'AuthenticationConfiguration',
      jwt: [{ issuer: { url: 'https://i', audiences: ['a'], discoveryURL: null }, claimMappings: { username: { claim: 'sub', prefix: null } } }],
    });
    const a = decodeAuthenticationConfiguration(json).jwt[0]!;
    expect(a.issuer.discoveryURL).to.equal('');
    expect(a.claimMappings.username).to.deep.equal({ claim: 'sub', expression: '' });
  });

  it('reads a document without authenticators', () => {
    expect(decodeAuthenticationConfiguration(`apiVersion: ${API_VERSION}\nkind: AuthenticationConfiguration\n`)).to.deep.equal({ jwt: [] });
  });

  it('reads v1alpha1 and the upstream spelling of the group', () => {
    expect(decodeAuthenticationConfiguration(`apiVersion: ${APISERVER_CONFIG_GROUP}/v1alpha1\nkind: AuthenticationConfiguration\n`).jwt).to.deep.equal([]);
    expect(decodeAuthenticationConfiguration(`apiVersion: ${upstreamAlias(APISERVER_CONFIG_GROUP)}/v1beta1\nkind: AuthenticationConfiguration\n`).jwt).to.deep.equal([]);
  });

  const rejected: Array<[string, string, string | RegExp]> = [
    ['empty data', '', 'empty config data'],
    ['a wrong kind', `apiVersion: ${API_VERSION}\nkind: AuthorizationConfiguration\n`, `no kind "AuthorizationConfiguration" is registered for version "${API_VERSION}"`],
    ['a wrong version', `apiVersion: ${APISERVER_CONFIG_GROUP}/v2\nkind: AuthenticationConfiguration\n`, `no kind "AuthenticationConfiguration" is registered for version "${APISERVER_CONFIG_GROUP}/v2"`],
    ['no kind', `apiVersion: ${API_VERSION}\n`, /^Object 'Kind' is missing in/],
    ['an unknown field', `apiVersion: ${API_VERSION}\nkind: AuthenticationConfiguration\njwt:\n- issuer:\n    url: https://i\n    audience: a\n`, 'strict decoding error: unknown field "jwt[0].issuer.audience"'],
    ['a duplicate field', `{"apiVersion":"${API_VERSION}","kind":"AuthenticationConfiguration","jwt":[{"issuer":{"url":"https://a","url":"https://b"}}]}`, 'strict decoding error: duplicate field "jwt[0].issuer.url"'],
    ['a number for a string', `apiVersion: ${API_VERSION}\nkind: AuthenticationConfiguration\njwt:\n- issuer:\n    url: 42\n`, 'json: cannot unmarshal number into Go struct field Issuer.jwt.issuer.url of type string'],
    ['a string for a list', `apiVersion: ${API_VERSION}\nkind: AuthenticationConfiguration\njwt:\n- issuer:\n    audiences: app\n`, 'json: cannot unmarshal string into Go struct field Issuer.jwt.issuer.audiences of type []string'],
    ['bad YAML', `apiVersion: ${API_VERSION}\nkind: [\n`, /^error converting YAML to JSON: yaml: /],
    ['bad JSON', '{"apiVersion": ', 'unexpected end of JSON input'],
    ['a list document', '- a\n', /^couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type/],
  ];
  for (const [title, data, message] of rejected) {
    it(`rejects ${title}`, () => {
      let err: unknown;
      try {
        decodeAuthenticationConfiguration(data);
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(ConfigDecodeError);
      if (typeof message === 'string') expect((err as Error).message).to.equal(message);
      else expect((err as Error).message).to.match(message);
    });
  }
});

/** The `--oidc-*` flags as one JWT authenticator (spec 001 § OpenID Connect flags). */
describe('OIDC flags translation (spec 001 § OpenID Connect flags)', () => {
  const base = { ...defaultOIDCOptions(), issuerURL: 'https://idp.example', clientID: 'app', flagsSet: true };
  const username = (o: Partial<typeof base>) => authenticatorFromOIDCOptions({ ...base, ...o }, undefined).claimMappings.username;

  it('prefixes claims other than email with the issuer URL and "#"', () => {
    expect(username({})).to.deep.equal({ claim: 'sub', prefix: 'https://idp.example#', expression: '' });
    expect(username({ usernameClaim: 'preferred_username' }).prefix).to.equal('https://idp.example#');
  });
  it('does not prefix the email claim by default', () => {
    expect(username({ usernameClaim: 'email' }).prefix).to.equal('');
  });
  it('uses a given prefix, "-" meaning none', () => {
    expect(username({ usernamePrefix: 'oidc:' }).prefix).to.equal('oidc:');
    expect(username({ usernamePrefix: 'oidc:', usernameClaim: 'email' }).prefix).to.equal('oidc:');
    expect(username({ usernamePrefix: '-' }).prefix).to.equal('');
  });
  it(`sets the audience, groups, required claims and CA${covers('001 § OpenID Connect flags › --oidc-client-id (required)', '001 § OpenID Connect flags › --oidc-ca-file')}`, () => {
    const a = authenticatorFromOIDCOptions({ ...base, groupsClaim: 'groups', groupsPrefix: 'g:', requiredClaims: { tier: 'gold', hd: 'x' } }, 'PEM');
    expect(a.issuer).to.deep.equal({ url: 'https://idp.example', discoveryURL: '', certificateAuthority: 'PEM', audiences: ['app'], audienceMatchPolicy: '' });
    expect(a.claimMappings.groups).to.deep.equal({ claim: 'groups', prefix: 'g:', expression: '' });
    expect(a.claimValidationRules.map((r) => [r.claim, r.requiredValue])).to.deep.equal([
      ['hd', 'x'],
      ['tier', 'gold'],
    ]);
    expect(authenticatorFromOIDCOptions(base, undefined).claimMappings.groups).to.deep.equal({ claim: '', expression: '' });
  });
});
