import { expect } from 'chai';
import { BootstrapTokenAuthenticator } from '../../../../lib/authentication/bootstrap/authenticator.js';
import { BOOTSTRAP_TOKEN_SECRET_TYPE, SYSTEM_NAMESPACE } from '../../../../lib/apis/vendor.js';
import { covers } from '../../../conformance/covers.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const NOW = Date.UTC(2030, 0, 1);
const TOKEN = 'abcdef.0123456789abcdef';

/** A token Secret as stored, with `data` given in plain text over a valid authentication token. */
function tokenSecret(data: Record<string, string> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    metadata: { name: 'bootstrap-token-abcdef', namespace: SYSTEM_NAMESPACE, ...((extra.metadata as object | undefined) ?? {}) },
    type: extra.type ?? BOOTSTRAP_TOKEN_SECRET_TYPE,
    data: Object.fromEntries(
      Object.entries({ 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', ...data }).map(([k, v]) => [k, b64(v)]),
    ),
  };
}

/** An authenticator over a fixed set of Secrets (by name), collecting the logged reasons. */
function over(...secrets: Record<string, unknown>[]) {
  const byName = new Map(secrets.map((s) => [(s.metadata as { name: string }).name, s]));
  const logged: string[] = [];
  const authn = new BootstrapTokenAuthenticator({ get: (name) => byName.get(name) }, (r) => logged.push(r), () => NOW);
  return { authn, logged };
}

describe('authentication/bootstrap: the bootstrap token authenticator (spec 001 § Bootstrap tokens; upstream token/bootstrap)', () => {
  it(`authenticates as system:bootstrap:<id> in system:bootstrappers${covers('001 § Bootstrap tokens › token-id', '001 § Bootstrap tokens › token-secret', '001 § Bootstrap tokens › usage-bootstrap-authentication')}`, async () => {
    const { authn } = over(tokenSecret());
    expect(await authn.authenticateToken(TOKEN)).to.deep.equal({ user: { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers'] } });
  });

  it(`adds auth-extra-groups (sorted, deduplicated) and accepts an expiration in the future${covers('001 § Bootstrap tokens › auth-extra-groups', '001 § Bootstrap tokens › expiration')}`, async () => {
    const { authn } = over(tokenSecret({ 'auth-extra-groups': 'system:bootstrappers:workers,system:bootstrappers:a', expiration: '2030-01-01T00:00:01Z' }));
    expect((await authn.authenticateToken(TOKEN))?.user.groups).to.deep.equal(['system:bootstrappers', 'system:bootstrappers:a', 'system:bootstrappers:workers']);
  });

  it(`ignores the description: a token with one authenticates the same${covers('001 § Bootstrap tokens › description')}`, async () => {
    const { authn } = over(tokenSecret({ description: 'joins worker nodes' }));
    expect(await authn.authenticateToken(TOKEN)).to.deep.equal({ user: { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers'] } });
  });

  it('ignores tokens of another form without a lookup or a log line', async () => {
    const { authn, logged } = over(tokenSecret());
    for (const t of ['', 'abcdef', 'abcdef.0123456789ABCDEF', 'eyJhbGciOi.x.y']) expect(await authn.authenticateToken(t)).to.equal(null);
    expect(logged).to.deep.equal([]);
  });

  const rejected: Array<[string, Record<string, unknown>, string, string]> = [
    ['no Secret of that name', { metadata: { name: 'bootstrap-token-zzzzzz' } }, TOKEN, 'No secret of name bootstrap-token-abcdef to match bootstrap bearer token'],
    ['a Secret being deleted', tokenSecret({}, { metadata: { deletionTimestamp: '2029-12-31T00:00:00Z' } }), TOKEN, 'is deleted and awaiting removal'],
    ['a Secret of another type', tokenSecret({}, { type: 'Opaque' }), TOKEN, `has invalid type, expected ${BOOTSTRAP_TOKEN_SECRET_TYPE}.`],
    ['a wrong secret', tokenSecret(), 'abcdef.0123456789abcdee', 'has invalid value for key token-secret.'],
    ['a token-id that does not match', tokenSecret({ 'token-id': 'abcdeg' }), TOKEN, 'has invalid value for key token-id, expected abcdef.'],
    ['an expired token', tokenSecret({ expiration: '2030-01-01T00:00:00Z' }), TOKEN, 'has expired.'],
    ['an unparseable expiration', tokenSecret({ expiration: 'never' }), TOKEN, 'has expired.'],
    ['usage-bootstrap-authentication missing', tokenSecret({ 'usage-bootstrap-authentication': '' }), TOKEN, 'not marked usage-bootstrap-authentication=true.'],
    ['usage-bootstrap-authentication not "true"', tokenSecret({ 'usage-bootstrap-authentication': 'True' }), TOKEN, 'not marked usage-bootstrap-authentication=true.'],
    ['a bad extra group', tokenSecret({ 'auth-extra-groups': 'system:masters' }), TOKEN, 'has invalid value for key auth-extra-groups: bootstrap group "system:masters" is invalid'],
  ];
  /** The spec 001 Secret-key rows some cases cover. */
  const specRow: Record<string, string> = {
    'a wrong secret': '001 § Bootstrap tokens › token-secret',
    'a token-id that does not match': '001 § Bootstrap tokens › token-id',
    'an expired token': '001 § Bootstrap tokens › expiration',
    'usage-bootstrap-authentication missing': '001 § Bootstrap tokens › usage-bootstrap-authentication',
    'usage-bootstrap-authentication not "true"': '001 § Bootstrap tokens › usage-bootstrap-authentication',
    'a bad extra group': '001 § Bootstrap tokens › auth-extra-groups',
  };
  for (const [what, secret, token, reason] of rejected) {
    it(`answers "not mine" with a logged reason for ${what}${specRow[what] ? covers(specRow[what]) : ''}`, async () => {
      const { authn, logged } = over(secret);
      expect(await authn.authenticateToken(token)).to.equal(null);
      expect(logged).to.have.length(1);
      expect(logged[0]).to.include(reason);
      expect(logged[0]).to.not.include('0123456789abcde');
    });
  }
});
