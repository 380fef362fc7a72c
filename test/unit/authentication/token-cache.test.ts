import { expect } from 'chai';
import { type AuthResult, AuthenticationError, type TokenAuthenticator } from '../../../lib/authentication/interface.js';
import { CachedTokenAuthenticator, UPSTREAM_TOKEN_CACHE, msUntilExpiry } from '../../../lib/authentication/token-cache.js';

/** A token authenticator knowing `known` (token → user; an Error rejects), counting calls; `gate` holds answers back. */
function backend(known: Record<string, string | Error>) {
  const b = {
    calls: [] as [string, readonly string[]][],
    gate: undefined as Promise<void> | undefined,
    authenticateToken: async (t: string, audiences: readonly string[]): Promise<AuthResult | null> => {
      b.calls.push([t, audiences]);
      if (b.gate) await b.gate;
      const v = known[t];
      if (v instanceof Error) throw v;
      return v ? { user: { name: v, groups: ['g'] }, audiences: [...audiences] } : null;
    },
  };
  return b satisfies TokenAuthenticator;
}

/** A clock the test moves. */
function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t };
  return c;
}

/** A JWT-shaped token (unsigned: the cache only reads `exp`). */
function jwt(claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'RS256' })}.${b64(claims)}.c2ln`;
}

describe('authentication/token-cache (upstream cached token authenticator)', () => {
  it('upstream kube-apiserver settings: successes 10 s, failures not cached', () => {
    expect(UPSTREAM_TOKEN_CACHE).to.deep.equal({ successTTLMs: 10_000, failureTTLMs: 0 });
  });

  it('a success is served from the cache within its TTL, asked again after it', async () => {
    const b = backend({ t: 'alice' });
    const c = clock();
    const cache = new CachedTokenAuthenticator(b, { ...UPSTREAM_TOKEN_CACHE, now: c.now });
    expect((await cache.authenticateToken('t', []))?.user.name).to.equal('alice');
    c.t += 9_999;
    expect((await cache.authenticateToken('t', []))?.user.name).to.equal('alice');
    expect(b.calls).to.have.length(1);
    c.t += 1;
    await cache.authenticateToken('t', []);
    expect(b.calls).to.have.length(2);
  });

  it('an unknown token is not cached with a failure TTL of 0', async () => {
    const b = backend({});
    const cache = new CachedTokenAuthenticator(b, UPSTREAM_TOKEN_CACHE);
    expect(await cache.authenticateToken('x', [])).to.equal(null);
    expect(await cache.authenticateToken('x', [])).to.equal(null);
    expect(b.calls).to.have.length(2);
    expect(cache.size).to.equal(0);
  });

  it('a rejection is not cached with a failure TTL of 0, and is rethrown', async () => {
    const b = backend({ x: new AuthenticationError('token has expired') });
    const cache = new CachedTokenAuthenticator(b, UPSTREAM_TOKEN_CACHE);
    for (let i = 0; i < 2; i++) {
      const err = await cache.authenticateToken('x', []).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(AuthenticationError).with.property('message', 'token has expired');
    }
    expect(b.calls).to.have.length(2);
  });

  it('failures are cached for a positive failure TTL (unknown and rejected alike)', async () => {
    const b = backend({ x: new AuthenticationError('nope') });
    const c = clock();
    const cache = new CachedTokenAuthenticator(b, { successTTLMs: 10_000, failureTTLMs: 1_000, now: c.now });
    await cache.authenticateToken('x', []).catch(() => undefined);
    await cache.authenticateToken('y', []);
    const err = await cache.authenticateToken('x', []).catch((e: unknown) => e);
    expect((err as Error).message).to.equal('nope');
    expect(await cache.authenticateToken('y', [])).to.equal(null);
    expect(b.calls).to.have.length(2);
    c.t += 1_000;
    await cache.authenticateToken('y', []);
    expect(b.calls).to.have.length(3);
  });

  it('the audiences are part of the key', async () => {
    const b = backend({ t: 'alice' });
    const cache = new CachedTokenAuthenticator(b, UPSTREAM_TOKEN_CACHE);
    expect((await cache.authenticateToken('t', ['a']))?.audiences).to.deep.equal(['a']);
    expect((await cache.authenticateToken('t', ['b']))?.audiences).to.deep.equal(['b']);
    expect((await cache.authenticateToken('t', ['a', 'b']))?.audiences).to.deep.equal(['a', 'b']);
    expect((await cache.authenticateToken('t', ['a']))?.audiences).to.deep.equal(['a']);
    expect(b.calls).to.have.length(3);
  });

  it('keys are unambiguous: ("a", ["b"]) and ("ab", []) or ("a", ["", "b"]) differ', async () => {
    const b = backend({ a: 'alice', ab: 'bob' });
    const cache = new CachedTokenAuthenticator(b, UPSTREAM_TOKEN_CACHE);
    await cache.authenticateToken('a', ['b']);
    await cache.authenticateToken('ab', []);
    await cache.authenticateToken('a', ['', 'b']);
    await cache.authenticateToken('a', ['b', '']);
    expect(b.calls).to.have.length(4);
  });

  it('distinct strings with the same UTF-8 bytes (a lone surrogate and U+FFFD) are distinct keys', async () => {
    const b = backend({ '\ufffd': 'alice' });
    const cache = new CachedTokenAuthenticator(b, UPSTREAM_TOKEN_CACHE);
    expect((await cache.authenticateToken('\ufffd', []))?.user.name).to.equal('alice');
    expect(await cache.authenticateToken('\ud800', [])).to.equal(null);
  });

  it('concurrent lookups of one token share one call of the wrapped authenticator', async () => {
    const b = backend({ t: 'alice' });
    let open!: () => void;
    b.gate = new Promise((r) => (open = r));
    const cache = new CachedTokenAuthenticator(b, UPSTREAM_TOKEN_CACHE);
    const pending = Array.from({ length: 10 }, () => cache.authenticateToken('t', ['api']));
    open();
    const results = await Promise.all(pending);
    expect(results.map((r) => r?.user.name)).to.deep.equal(Array(10).fill('alice'));
    expect(b.calls).to.have.length(1);
  });

  it('concurrent lookups share a rejection too, and the next lookup asks again (failures not cached)', async () => {
    const b = backend({ x: new AuthenticationError('bad') });
    let open!: () => void;
    b.gate = new Promise((r) => (open = r));
    const cache = new CachedTokenAuthenticator(b, UPSTREAM_TOKEN_CACHE);
    const pending = Array.from({ length: 5 }, () => cache.authenticateToken('x', []).catch((e: unknown) => (e as Error).message));
    open();
    expect(await Promise.all(pending)).to.deep.equal(Array(5).fill('bad'));
    expect(b.calls).to.have.length(1);
    b.gate = undefined;
    await cache.authenticateToken('x', []).catch(() => undefined);
    expect(b.calls).to.have.length(2);
  });

  it('a defect of the wrapped authenticator (not an AuthenticationError) propagates and is not cached', async () => {
    const boom = new TypeError('boom');
    let calls = 0;
    const cache = new CachedTokenAuthenticator(
      {
        authenticateToken: async () => {
          calls++;
          throw boom;
        },
      },
      { successTTLMs: 10_000, failureTTLMs: 10_000 },
    );
    expect(await cache.authenticateToken('t', []).catch((e: unknown) => e)).to.equal(boom);
    expect(await cache.authenticateToken('t', []).catch((e: unknown) => e)).to.equal(boom);
    expect(calls).to.equal(2);
  });

  it('callers get their own copy: changing one result does not change the cached one', async () => {
    const cache = new CachedTokenAuthenticator(backend({ t: 'alice' }), UPSTREAM_TOKEN_CACHE);
    const first = (await cache.authenticateToken('t', []))!;
    first.user.groups.push('injected');
    first.user.name = 'mallory';
    const second = (await cache.authenticateToken('t', []))!;
    expect(second.user).to.deep.include({ name: 'alice', groups: ['g'] });
  });

  it("a JWT-shaped token is never cached beyond its exp", async () => {
    const c = clock(1_700_000_000_000);
    const token = jwt({ exp: 1_700_000_003 });
    const b = backend({ [token]: 'sa' });
    const cache = new CachedTokenAuthenticator(b, { ...UPSTREAM_TOKEN_CACHE, now: c.now });
    await cache.authenticateToken(token, []);
    c.t += 2_999;
    await cache.authenticateToken(token, []);
    expect(b.calls).to.have.length(1);
    c.t += 1;
    await cache.authenticateToken(token, []);
    expect(b.calls).to.have.length(2);
  });

  it('a success for a token already past its exp is not cached', async () => {
    const c = clock(1_700_000_000_000);
    const token = jwt({ exp: 1_699_999_999 });
    const b = backend({ [token]: 'sa' });
    const cache = new CachedTokenAuthenticator(b, { ...UPSTREAM_TOKEN_CACHE, now: c.now });
    await cache.authenticateToken(token, []);
    expect(cache.size).to.equal(0);
  });

  it('holds at most maxEntries, evicting the least recently used', async () => {
    const b = backend({ a: 'a', b: 'b', c: 'c' });
    const cache = new CachedTokenAuthenticator(b, { ...UPSTREAM_TOKEN_CACHE, maxEntries: 2 });
    await cache.authenticateToken('a', []);
    await cache.authenticateToken('b', []);
    await cache.authenticateToken('a', []); // a is now the most recent
    await cache.authenticateToken('c', []); // evicts b
    expect(cache.size).to.equal(2);
    const before = b.calls.length;
    await cache.authenticateToken('a', []);
    expect(b.calls.length).to.equal(before);
    await cache.authenticateToken('b', []);
    expect(b.calls.length).to.equal(before + 1);
  });
});

describe('authentication/token-cache: msUntilExpiry', () => {
  const now = 1_700_000_000_000;
  const rows: Array<[string, string, number]> = [
    ['an opaque token', 'abcdef', Infinity],
    ['a JWT with exp', jwt({ exp: 1_700_000_010 }), 10_000],
    ['a JWT without exp', jwt({ sub: 'x' }), Infinity],
    ['a JWT with a string exp', jwt({ exp: '1700000010' }), Infinity],
    ['a bootstrap token (one dot)', 'abcdef.0123456789abcdef', Infinity],
    ['three dots', 'a.b.c.d', Infinity],
    ['a payload that is not base64url JSON', 'a.%%%.c', Infinity],
    ['a payload that is JSON null', `a.${Buffer.from('null').toString('base64url')}.c`, Infinity],
  ];
  for (const [what, token, want] of rows) it(`${what} → ${want}`, () => expect(msUntilExpiry(token, now)).to.equal(want));
});
