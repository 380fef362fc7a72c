import { expect } from 'chai';
import { BOOTSTRAP_TOKEN_SECRET_TYPE } from '../../../../../lib/apis/vendor.js';
import { secret } from '../../../../../lib/apis/core/v1/secret.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, messages, validateCreate, validateUpdate } from '../../kind-pipeline.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
/** A valid bootstrap token Secret with `data` (plain text, encoded here) over the required keys. */
const token = (data: Record<string, string> = {}, name = 'bootstrap-token-abcdef'): Obj => {
  const s: Obj = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'x' },
    type: BOOTSTRAP_TOKEN_SECRET_TYPE,
    data: Object.fromEntries(Object.entries({ 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', ...data }).map(([k, v]) => [k, b64(v)])),
  };
  decodeAndDefault(secret, s);
  return s;
};
const REGEX = '\\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z';

describe('core/v1 Secret of type bootstrap token: write-time rules (spec 001 § Bootstrap tokens; beyond upstream, which has none)', () => {
  it('accepts a token with every key of the spec table', () => {
    const s = token({
      description: 'join nodes',
      expiration: '2030-01-02T03:04:05Z',
      'usage-bootstrap-authentication': 'true',
      'usage-bootstrap-signing': 'true',
      'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:ingress-1',
    });
    expect(messages(validateCreate(secret, s))).to.deep.equal([]);
  });

  it('accepts usage values other than "true" (they only mean false, as upstream)', () => {
    expect(messages(validateCreate(secret, token({ 'usage-bootstrap-signing': 'no' })))).to.deep.equal([]);
  });

  it('accepts offsets and fractions in the expiration (RFC 3339)', () => {
    for (const expiration of ['2030-01-02T03:04:05+02:00', '2030-01-02T03:04:05.123456789-07:30']) {
      expect(messages(validateCreate(secret, token({ expiration }))), expiration).to.deep.equal([]);
    }
  });

  const cases: Array<[string, Obj, string[]]> = [
    ['token-id and token-secret are required', (() => {
      const s = token();
      s.data = {};
      return s;
    })(), ['data[token-id]: Required value', 'data[token-secret]: Required value']],
    ['the token id is 6 lower-case alphanumerics', token({ 'token-id': 'ABCDEF' }, 'bootstrap-token-abcdef'), [
      "data[token-id]: Invalid value: \"ABCDEF\": a bootstrap token ID must consist of 6 lower case alphanumeric characters (regex used for validation is '[a-z0-9]{6}')",
    ]],
    ['the token secret is 16 lower-case alphanumerics, and is not shown', token({ 'token-secret': 'short' }), [
      "data[token-secret]: Invalid value: \"<secret contents redacted>\": a bootstrap token secret must consist of 16 lower case alphanumeric characters (regex used for validation is '[a-z0-9]{16}')",
    ]],
    ['the name is bootstrap-token-<token-id>', token({}, 'bootstrap-token-zzzzzz'), [
      'metadata.name: Invalid value: "bootstrap-token-zzzzzz": must be "bootstrap-token-abcdef": bootstrap-token- followed by data[token-id]',
    ]],
    ['the expiration is an RFC 3339 time', token({ expiration: 'tomorrow' }), [
      'data[expiration]: Invalid value: "tomorrow": must be an RFC 3339 time, e.g. "2006-01-02T15:04:05Z"',
    ]],
    ['an expiration out of calendar range is not a time', token({ expiration: '2030-02-30T00:00:00Z' }), [
      'data[expiration]: Invalid value: "2030-02-30T00:00:00Z": must be an RFC 3339 time, e.g. "2006-01-02T15:04:05Z"',
    ]],
    ['each extra group starts with system:bootstrappers: (upstream pattern and message)', token({ 'auth-extra-groups': 'system:bootstrappers:ok,system:masters' }), [
      `data[auth-extra-groups]: Invalid value: "system:bootstrappers:ok,system:masters": bootstrap group "system:masters" is invalid (must match ${REGEX})`,
    ]],
    ['an extra group may not end in a colon', token({ 'auth-extra-groups': 'system:bootstrappers:' }), [
      `data[auth-extra-groups]: Invalid value: "system:bootstrappers:": bootstrap group "system:bootstrappers:" is invalid (must match ${REGEX})`,
    ]],
  ];
  for (const [what, s, want] of cases) {
    it(`rejects: ${what}`, () => {
      expect(messages(validateCreate(secret, s))).to.deep.equal(want);
    });
  }

  it('applies the rules on update too', () => {
    const old = token();
    const next = token({ 'auth-extra-groups': 'admins' });
    (next.metadata as Obj).resourceVersion = '1';
    expect(messages(validateUpdate(secret, next, old))).to.deep.equal([
      `data[auth-extra-groups]: Invalid value: "admins": bootstrap group "admins" is invalid (must match ${REGEX})`,
    ]);
  });

  it('leaves Secrets of other types alone', () => {
    const s = token({ 'auth-extra-groups': 'admins' });
    s.type = 'Opaque';
    expect(messages(validateCreate(secret, s))).to.deep.equal([]);
  });
});
