import { expect } from 'chai';
import type { JWTAuthenticatorConfig } from '../../../../lib/authentication/jwt/config.js';
import { aggregateMessage, validateAuthenticationConfiguration } from '../../../../lib/authentication/jwt/validation.js';
import { covers } from '../../../conformance/covers.js';

const EMAIL =
  'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression';

/** A valid authenticator with `patch` applied section by section. */
function authenticator(patch: {
  issuer?: Partial<JWTAuthenticatorConfig['issuer']>;
  claimValidationRules?: Array<Partial<JWTAuthenticatorConfig['claimValidationRules'][number]>>;
  claimMappings?: Partial<{ [K in keyof JWTAuthenticatorConfig['claimMappings']]: Partial<JWTAuthenticatorConfig['claimMappings'][K]> | JWTAuthenticatorConfig['claimMappings']['extra'] }>;
  userValidationRules?: Array<Partial<JWTAuthenticatorConfig['userValidationRules'][number]>>;
} = {}): JWTAuthenticatorConfig {
  const m = patch.claimMappings ?? {};
  return {
    issuer: { url: 'https://issuer-url', discoveryURL: '', certificateAuthority: '', audiences: ['audience'], audienceMatchPolicy: '', ...patch.issuer },
    claimValidationRules: (patch.claimValidationRules ?? []).map((r) => ({ claim: '', requiredValue: '', expression: '', message: '', ...r })),
    claimMappings: {
      username: { claim: '', expression: '', ...('username' in m ? m.username : { claim: 'sub', prefix: 'prefix' }) } as JWTAuthenticatorConfig['claimMappings']['username'],
      groups: { claim: '', expression: '', ...(m.groups as object) },
      uid: { claim: '', expression: '', ...(m.uid as object) },
      extra: (m.extra as JWTAuthenticatorConfig['claimMappings']['extra']) ?? [],
    },
    userValidationRules: (patch.userValidationRules ?? []).map((r) => ({ expression: '', message: '', ...r })),
  };
}

function message(jwt: JWTAuthenticatorConfig[], disallowed: string[] = []): string {
  const { errors } = validateAuthenticationConfiguration({ jwt }, disallowed);
  return errors.length === 0 ? '' : aggregateMessage(errors);
}

/**
 * AuthenticationConfiguration validation with upstream's messages (spec 001 § Authentication
 * configuration file; upstream's validation tests, 1.30).
 */
describe('authentication configuration validation (spec 001 § Authentication configuration file)', () => {
  const table: Array<[string, JWTAuthenticatorConfig[], string, string[]?]> = [
    ['no JWT authenticators', [], ''],
    ['a valid authenticator', [authenticator()], ''],
    ['more than 64 authenticators', Array.from({ length: 65 }, (_, i) => authenticator({ issuer: { url: `https://issuer-${i}` } })), 'jwt: Too many: 65: must have at most 64 items'],
    ['a duplicate issuer', [authenticator(), authenticator()], 'jwt[1].issuer.url: Duplicate value: "https://issuer-url"'],
    [
      'a duplicate discoveryURL',
      [
        authenticator({ issuer: { discoveryURL: 'https://discovery-url/.well-known/openid-configuration' } }),
        authenticator({ issuer: { url: 'https://different-issuer-url', discoveryURL: 'https://discovery-url/.well-known/openid-configuration' } }),
      ],
      'jwt[1].issuer.discoveryURL: Duplicate value: "https://discovery-url/.well-known/openid-configuration"',
    ],
    ['an empty issuer URL', [authenticator({ issuer: { url: '' } })], 'jwt[0].issuer.url: Required value: URL is required'],
    ['an issuer URL without scheme', [authenticator({ issuer: { url: 'invalid-url' } })], 'jwt[0].issuer.url: Invalid value: "invalid-url": URL scheme must be https'],
    ['an http issuer URL', [authenticator({ issuer: { url: 'http://issuer-url' } })], 'jwt[0].issuer.url: Invalid value: "http://issuer-url": URL scheme must be https'],
    [
      'an issuer URL Go cannot parse',
      [authenticator({ issuer: { url: 'https://issuer-url:invalid-port' } })],
      'jwt[0].issuer.url: Invalid value: "https://issuer-url:invalid-port": parse "https://issuer-url:invalid-port": invalid port ":invalid-port" after host',
    ],
    ['user info in the issuer URL', [authenticator({ issuer: { url: 'https://user:pass@issuer-url' } })], 'jwt[0].issuer.url: Invalid value: "https://user:pass@issuer-url": URL must not contain a username or password'],
    ['a query in the issuer URL', [authenticator({ issuer: { url: 'https://issuer-url?query' } })], 'jwt[0].issuer.url: Invalid value: "https://issuer-url?query": URL must not contain a query'],
    ['a fragment in the issuer URL', [authenticator({ issuer: { url: 'https://issuer-url#fragment' } })], 'jwt[0].issuer.url: Invalid value: "https://issuer-url#fragment": URL must not contain a fragment'],
    [
      'an issuer URL that is a service-account issuer',
      [authenticator()],
      'jwt[0].issuer.url: Invalid value: "https://issuer-url": URL must not overlap with disallowed issuers: [a b c https://issuer-url]',
      ['a', 'b', 'https://issuer-url', 'c'],
    ],
    ['a discoveryURL equal to the URL', [authenticator({ issuer: { discoveryURL: 'https://issuer-url' } })], 'jwt[0].issuer.discoveryURL: Invalid value: "https://issuer-url": discoveryURL must be different from URL'],
    ['a discoveryURL equal to the URL but for slashes', [authenticator({ issuer: { discoveryURL: 'https://issuer-url///' } })], 'jwt[0].issuer.discoveryURL: Invalid value: "https://issuer-url///": discoveryURL must be different from URL'],
    ['an http discoveryURL', [authenticator({ issuer: { discoveryURL: 'http://oidc.oidc-namespace.svc' } })], 'jwt[0].issuer.discoveryURL: Invalid value: "http://oidc.oidc-namespace.svc": URL scheme must be https'],
    ['a discoveryURL with a path', [authenticator({ issuer: { discoveryURL: 'https://oidc.oidc-namespace.svc/path' } })], ''],
    ['no audiences', [authenticator({ issuer: { audiences: [] } })], 'jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required'],
    ['an empty audience', [authenticator({ issuer: { audiences: [''] } })], "jwt[0].issuer.audiences[0]: Required value: audience can't be empty"],
    [
      'another match policy for one audience',
      [authenticator({ issuer: { audienceMatchPolicy: 'MatchExact' } })],
      'jwt[0].issuer.audienceMatchPolicy: Invalid value: "MatchExact": audienceMatchPolicy must be empty or MatchAny for single audience',
    ],
    ['MatchAny for one audience', [authenticator({ issuer: { audienceMatchPolicy: 'MatchAny' } })], ''],
    ['a duplicate audience', [authenticator({ issuer: { audiences: ['audience', 'audience'], audienceMatchPolicy: 'MatchAny' } })], 'jwt[0].issuer.audiences[1]: Duplicate value: "audience"'],
    [
      'several audiences without MatchAny',
      [authenticator({ issuer: { audiences: ['audience1', 'audience2'] } })],
      'jwt[0].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences',
    ],
    ['several audiences with MatchAny', [authenticator({ issuer: { audiences: ['audience1', 'audience2'], audienceMatchPolicy: 'MatchAny' } })], ''],
    [
      'a certificate authority without certificates',
      [authenticator({ issuer: { certificateAuthority: 'invalid' } })],
      'jwt[0].issuer.certificateAuthority: Invalid value: "<omitted>": data does not contain any valid RSA or ECDSA certificates',
    ],
    ['a claim validation rule with neither claim nor expression', [authenticator({ claimValidationRules: [{}] })], 'jwt[0].claimValidationRules[0]: Required value: claim or expression is required'],
    [
      'a claim validation rule with both',
      [authenticator({ claimValidationRules: [{ claim: 'claim', expression: 'expression' }] })],
      'jwt[0].claimValidationRules[0]: Invalid value: "claim": claim and expression can\'t both be set',
    ],
    [
      'a message with a claim',
      [authenticator({ claimValidationRules: [{ claim: 'claim', message: 'message' }] })],
      'jwt[0].claimValidationRules[0].message: Invalid value: "message": message can\'t be set when claim is set',
    ],
    [
      'a requiredValue with an expression',
      [authenticator({ claimValidationRules: [{ expression: "claims.foo == 'bar'", requiredValue: 'value' }] })],
      'jwt[0].claimValidationRules[0].requiredValue: Invalid value: "value": requiredValue can\'t be set when expression is set',
    ],
    ['a duplicate claim', [authenticator({ claimValidationRules: [{ claim: 'foo', requiredValue: 'bar' }, { claim: 'foo', requiredValue: 'baz' }] })], 'jwt[0].claimValidationRules[1].claim: Duplicate value: "foo"'],
    [
      'a duplicate expression',
      [authenticator({ claimValidationRules: [{ expression: "claims.foo == 'bar'" }, { expression: "claims.foo == 'bar'" }] })],
      'jwt[0].claimValidationRules[1].expression: Duplicate value: "claims.foo == \'bar\'"',
    ],
    [
      'an expression that does not compile',
      [authenticator({ claimValidationRules: [{ expression: 'foo.bar' }] })],
      "jwt[0].claimValidationRules[0].expression: Invalid value: \"foo.bar\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo'\n | foo.bar\n | ^",
    ],
    ['a rule that is not a bool', [authenticator({ claimValidationRules: [{ expression: 'claims.foo' }] })], 'jwt[0].claimValidationRules[0].expression: Invalid value: "claims.foo": must evaluate to bool'],
    [
      'a username with claim and expression',
      [authenticator({ claimMappings: { username: { claim: 'claim', expression: 'claims.username' } } })],
      'jwt[0].claimMappings.username: Invalid value: "": claim and expression can\'t both be set',
    ],
    ['a username with neither', [authenticator({ claimMappings: { username: {} } })], 'jwt[0].claimMappings.username: Required value: claim or expression is required'],
    [
      'a username prefix with an expression',
      [authenticator({ claimMappings: { username: { expression: 'claims.username', prefix: 'prefix' } } })],
      'jwt[0].claimMappings.username.prefix: Invalid value: "prefix": prefix can\'t be set when expression is set',
    ],
    [
      'a username claim without prefix',
      [authenticator({ claimMappings: { username: { claim: 'claim' } } })],
      'jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
    ],
    [
      'a username expression that does not compile',
      [authenticator({ claimMappings: { username: { expression: 'foo.bar' } } })],
      "jwt[0].claimMappings.username.expression: Invalid value: \"foo.bar\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo'\n | foo.bar\n | ^",
    ],
    ['a username expression that can never be a string', [authenticator({ claimMappings: { username: { expression: '42' } } })], 'jwt[0].claimMappings.username.expression: Invalid value: "42": must evaluate to string'],
    [
      'groups with claim and expression',
      [authenticator({ claimMappings: { groups: { claim: 'claim', expression: 'claims.groups' } } })],
      'jwt[0].claimMappings.groups: Invalid value: "": claim and expression can\'t both be set',
    ],
    [
      'a groups prefix with an expression',
      [authenticator({ claimMappings: { groups: { expression: 'claims.groups', prefix: 'prefix' } } })],
      'jwt[0].claimMappings.groups.prefix: Invalid value: "prefix": prefix can\'t be set when expression is set',
    ],
    [
      'a groups claim without prefix',
      [authenticator({ claimMappings: { groups: { claim: 'claim' } } })],
      'jwt[0].claimMappings.groups.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
    ],
    [
      'a groups expression of numbers',
      [authenticator({ claimMappings: { groups: { expression: '[1, 2]' } } })],
      'jwt[0].claimMappings.groups.expression: Invalid value: "[1, 2]": must evaluate to one of [string list(string)]',
    ],
    ['uid with claim and expression', [authenticator({ claimMappings: { uid: { claim: 'claim', expression: 'claims.uid' } } })], 'jwt[0].claimMappings.uid: Invalid value: "": claim and expression can\'t both be set'],
    [
      'a uid expression that does not compile',
      [authenticator({ claimMappings: { uid: { expression: 'foo.bar' } } })],
      "jwt[0].claimMappings.uid.expression: Invalid value: \"foo.bar\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo'\n | foo.bar\n | ^",
    ],
    ['an empty extra key', [authenticator({ claimMappings: { extra: [{ key: '', valueExpression: 'claims.extra' }] } })], 'jwt[0].claimMappings.extra[0].key: Required value'],
    [
      'an empty extra value expression',
      [authenticator({ claimMappings: { extra: [{ key: 'example.org/foo', valueExpression: '' }] } })],
      'jwt[0].claimMappings.extra[0].valueExpression: Required value: valueExpression is required',
    ],
    [
      'a duplicate extra key',
      [authenticator({ claimMappings: { extra: [{ key: 'example.org/foo', valueExpression: 'claims.extra' }, { key: 'example.org/foo', valueExpression: 'claims.extras' }] } })],
      'jwt[0].claimMappings.extra[1].key: Duplicate value: "example.org/foo"',
    ],
    [
      'an extra key without domain',
      [authenticator({ claimMappings: { extra: [{ key: 'foo', valueExpression: 'claims.extra' }] } })],
      'jwt[0].claimMappings.extra[0].key: Invalid value: "foo": must be a domain-prefixed path (such as "acme.io/foo")',
    ],
    [
      'an upper-case extra key',
      [authenticator({ claimMappings: { extra: [{ key: 'example.org/Foo', valueExpression: 'claims.extra' }] } })],
      'jwt[0].claimMappings.extra[0].key: Invalid value: "example.org/Foo": key must be lowercase',
    ],
    ['claims.email without email_verified', [authenticator({ claimMappings: { username: { expression: 'claims.email' } } })], `jwt[0].claimMappings.username.expression: Invalid value: "claims.email": ${EMAIL}`],
    ['claims.email_ (not the email claim)', [authenticator({ claimMappings: { username: { expression: 'claims.email_' } } })], ''],
    ['claims.other.claims.email (nested)', [authenticator({ claimMappings: { username: { expression: 'claims.other.claims.email' } } })], ''],
    [
      'claims.email inside a join',
      [authenticator({ claimMappings: { username: { expression: "['yay', string(claims.email), 'panda'].join(' ')" } } })],
      `jwt[0].claimMappings.username.expression: Invalid value: "['yay', string(claims.email), 'panda'].join(' ')": ${EMAIL}`,
    ],
    ['claims.?email', [authenticator({ claimMappings: { username: { expression: 'claims.?email.orValue("")' } } })], `jwt[0].claimMappings.username.expression: Invalid value: "claims.?email.orValue(\\"\\")": ${EMAIL}`],
    [
      'has(claims.email)',
      [authenticator({ claimMappings: { username: { expression: 'has(claims.email) ? claims.email : claims.sub' } } })],
      `jwt[0].claimMappings.username.expression: Invalid value: "has(claims.email) ? claims.email : claims.sub": ${EMAIL}`,
    ],
    [
      'claims.email verified in a claim validation rule',
      [authenticator({ claimValidationRules: [{ expression: 'string(claims.email_verified) == "panda"' }], claimMappings: { username: { expression: "['yay', string(claims.email), 'panda'].join(' ')" } } })],
      '',
    ],
    [
      'claims.email verified in an extra mapping',
      [authenticator({ claimMappings: { username: { expression: 'claims.email' }, extra: [{ key: 'panda.io/foo', valueExpression: 'claims.email_verified.upperAscii()' }] } })],
      '',
    ],
    ['claims.email verified in the username itself', [authenticator({ claimMappings: { username: { expression: 'claims.?email_verified.orValue(true) ? claims.email : claims.sub' } } })], ''],
    [
      'has(claims.email_verified_) is not email_verified',
      [authenticator({ claimValidationRules: [{ expression: 'has(claims.email_verified_)' }], claimMappings: { username: { expression: 'claims.email' } } })],
      `jwt[0].claimMappings.username.expression: Invalid value: "claims.email": ${EMAIL}`,
    ],
    ['an empty user validation rule', [authenticator({ userValidationRules: [{}] })], 'jwt[0].userValidationRules[0].expression: Required value: expression is required'],
    [
      'a duplicate user validation rule',
      [authenticator({ userValidationRules: [{ expression: "user.username == 'foo'" }, { expression: "user.username == 'foo'" }] })],
      'jwt[0].userValidationRules[1].expression: Duplicate value: "user.username == \'foo\'"',
    ],
    ['a user validation rule that is not a bool', [authenticator({ userValidationRules: [{ expression: 'user.username' }] })], 'jwt[0].userValidationRules[0].expression: Invalid value: "user.username": must evaluate to bool'],
    [
      'a user validation rule over claims',
      [authenticator({ userValidationRules: [{ expression: "claims.sub == 'x'" }] })],
      "jwt[0].userValidationRules[0].expression: Invalid value: \"claims.sub == 'x'\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'claims'\n | claims.sub == 'x'\n | ^",
    ],
    [
      'valid user validation rules',
      [authenticator({ userValidationRules: [{ expression: "user.username == 'foo'" }, { expression: "!user.username.startsWith('system:')", message: 'username cannot used reserved system: prefix' }] })],
      '',
    ],
    [
      'several errors at once',
      [authenticator({ issuer: { url: 'http://issuer-url', audiences: [] }, claimMappings: { username: {} } })],
      '[jwt[0].issuer.url: Invalid value: "http://issuer-url": URL scheme must be https, jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required, jwt[0].claimMappings.username: Required value: claim or expression is required]',
    ],
  ];
  /** The spec 001 rows some cases cover. */
  const specRows: Record<string, string[]> = {
    'more than 64 authenticators': ['001 § Limits › JWT authenticators'],
    'a duplicate issuer': ['001 § Authentication configuration file (beta, v1.30) › issuer.url'],
    'an issuer URL that is a service-account issuer': ['001 § Authentication configuration file (beta, v1.30) › issuer.url'],
    'a duplicate discoveryURL': ['001 § Authentication configuration file (beta, v1.30) › issuer.discoveryURL'],
    'a discoveryURL equal to the URL': ['001 § Authentication configuration file (beta, v1.30) › issuer.discoveryURL'],
    'no audiences': ['001 § Authentication configuration file (beta, v1.30) › issuer.audiences'],
    'several audiences without MatchAny': ['001 § Authentication configuration file (beta, v1.30) › issuer.audienceMatchPolicy'],
    'several audiences with MatchAny': ['001 § Authentication configuration file (beta, v1.30) › issuer.audienceMatchPolicy'],
    'a certificate authority without certificates': ['001 § Authentication configuration file (beta, v1.30) › issuer.certificateAuthority'],
    'a claim validation rule with neither claim nor expression': ['001 § Authentication configuration file (beta, v1.30) › claimValidationRules[]'],
    'a username with neither': ['001 § Authentication configuration file (beta, v1.30) › claimMappings.username'],
    'claims.email without email_verified': ['001 § Authentication configuration file (beta, v1.30) › claimMappings.username'],
    'a duplicate extra key': ['001 § Authentication configuration file (beta, v1.30) › claimMappings.extra[]'],
    'an extra key without domain': ['001 § Authentication configuration file (beta, v1.30) › claimMappings.extra[]'],
    'a user validation rule that is not a bool': ['001 § Authentication configuration file (beta, v1.30) › userValidationRules[]'],
  };
  for (const [title, jwt, want, disallowed] of table) {
    const rows = specRows[title];
    it(`${want === '' ? 'accepts' : 'rejects'} ${title}${rows ? covers(...rows) : ''}`, () => {
      expect(message(jwt, disallowed)).to.equal(want);
    });
  }

  it('compiles every expression once, into the programs the authenticator runs', () => {
    const { authenticators } = validateAuthenticationConfiguration({
      jwt: [
        authenticator({
          claimValidationRules: [{ claim: 'hd', requiredValue: 'x' }, { expression: 'claims.level > 1', message: 'm' }],
          claimMappings: { username: { expression: 'claims.sub' }, groups: { expression: 'claims.groups' }, uid: { expression: 'claims.oid' }, extra: [{ key: 'a.io/b', valueExpression: 'claims.b' }] },
          userValidationRules: [{ expression: 'user.uid != ""' }],
        }),
      ],
    });
    const a = authenticators[0]!;
    expect(a.claimValidationRules.map((r) => [r.expression, r.message])).to.deep.equal([['claims.level > 1', 'm']]);
    expect([a.username?.expression, a.groups?.expression, a.uid?.expression]).to.deep.equal(['claims.sub', 'claims.groups', 'claims.oid']);
    expect(a.extra.map((e) => e.key)).to.deep.equal(['a.io/b']);
    expect(a.userValidationRules).to.have.length(1);
  });

  it('compiles in the stored-expressions environment (as upstream), at start and on reload alike: a 1.30 library is accepted', () => {
    // New expressions of API objects compile at 1.29, without the IP and CIDR libraries (1.30).
    const { errors } = validateAuthenticationConfiguration({
      jwt: [
        authenticator({
          claimValidationRules: [{ expression: "isIP(claims.ip) && cidr('10.0.0.0/8').containsIP(claims.ip)", message: 'm' }],
          claimMappings: { username: { expression: "'ip:' + string(ip(claims.ip))" } },
          userValidationRules: [{ expression: "!isCIDR(user.username)" }],
        }),
      ],
    });
    expect(errors).to.deep.equal([]);
  });
});
