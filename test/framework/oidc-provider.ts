/**
 * A real OpenID provider for tests (issue #10 item 4): an HTTPS server on 127.0.0.1 with its own
 * CA (made with the server's PKI helpers), serving the discovery document and the JWKS, holding
 * RSA and EC signing keys and signing ID tokens with them (jose). Tests configure the API server
 * with its issuer URL and CA and send it the tokens it signs — nothing in the verifier is mocked.
 * Keys can be added, removed and rotated while it runs; it counts the documents it served.
 */
import { type KeyObject, generateKeyPair, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type JWTPayload, SignJWT, exportJWK } from 'jose';
import { createCaCertificate, createSignedCertificate } from '../../lib/server/pki/certificates.js';
import { generateRsaKey } from '../../lib/server/pki/keys.js';

const generate = promisify(generateKeyPair);

/** A CA and a serving certificate for 127.0.0.1 and localhost, made once per run. */
let tlsMaterial: Promise<{ caPem: string; certPem: string; keyPem: string }> | undefined;
function testProviderTLS(): Promise<{ caPem: string; certPem: string; keyPem: string }> {
  tlsMaterial ??= (async () => {
    const [caKey, key] = await Promise.all([generateRsaKey(), generateRsaKey()]);
    const caPem = createCaCertificate(caKey, 'test-oidc-provider-ca', 30);
    const certPem = createSignedCertificate({ certPem: caPem, key: caKey }, { key, commonName: 'test-oidc-provider', usage: 'server', dnsNames: ['localhost'], ips: ['127.0.0.1'], validDays: 30 });
    return { caPem, certPem, keyPem: key.privateKeyPem };
  })();
  return tlsMaterial;
}

/** A signing key of the provider. */
export interface SigningKey {
  kid: string;
  alg: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** Options of a test provider. */
export interface TestOIDCProviderOptions {
  /** Path of the issuer below the server's origin (default `''`: the issuer is the origin). */
  issuerPath?: string;
  /** Also (or only, with `wellKnown: false`) serve the discovery document at this path. */
  discoveryPath?: string;
  /** Serve discovery at `<issuer>/.well-known/openid-configuration` (default true). */
  wellKnown?: boolean;
  /** Algorithm of the first key (default RS256). */
  alg?: string;
}

/** Options of one signed token. */
export interface SignOptions {
  /** The key to sign with (default the first). */
  key?: SigningKey;
  /** Header fields to set or override (`kid: undefined` removes the key id). */
  header?: Record<string, unknown>;
}

/** A running provider. Stop it with stop(). */
export class TestOIDCProvider {
  /** `https://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The issuer URL (origin + issuer path). */
  readonly issuer: string;
  /** PEM of the CA that signed the provider's serving certificate. */
  readonly caPem: string;
  /** The keys published in the JWKS, in order. */
  keys: SigningKey[] = [];
  /** How many discovery and JWKS documents were served. */
  readonly served = { discovery: 0, jwks: 0 };
  /** When set, the discovery document names this issuer instead of the real one. */
  discoveryIssuer: string | undefined;
  /** When false, every request answers 503. */
  available = true;
  /** Distributed claim endpoints by path: the JWT each answers with, to a request bearing `accessToken` when set (else 401). */
  readonly claimEndpoints = new Map<string, { jwt: string; accessToken?: string }>();

  private constructor(
    private readonly server: Server,
    private readonly opts: TestOIDCProviderOptions,
    caPem: string,
  ) {
    const { port } = server.address() as AddressInfo;
    this.origin = `https://127.0.0.1:${port}`;
    this.issuer = `${this.origin}${opts.issuerPath ?? ''}`;
    this.caPem = caPem;
  }

  /** Starts a provider on a free loopback port with one signing key. */
  static async start(opts: TestOIDCProviderOptions = {}): Promise<TestOIDCProvider> {
    const tls = await testProviderTLS();
    const server = createServer({ cert: tls.certPem, key: tls.keyPem });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const provider = new TestOIDCProvider(server, opts, tls.caPem);
    server.on('request', (req: IncomingMessage, res: ServerResponse) =>
      provider.handle(req, res).catch((err: Error) => {
        res.writeHead(500);
        res.end(err.message);
      }),
    );
    await provider.addKey(opts.alg ?? 'RS256');
    return provider;
  }

  /** The discovery URL the server would fetch by default. */
  get wellKnownURL(): string {
    return `${this.issuer}/.well-known/openid-configuration`;
  }

  /** Generates a key for `alg` (RS*, PS*: RSA 2048; ES256/384/512: the matching curve) and publishes it. */
  async addKey(alg = 'RS256', kid: string = randomUUID()): Promise<SigningKey> {
    const curve = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' }[alg];
    const pair = curve ? await generate('ec', { namedCurve: curve }) : await generate('rsa', { modulusLength: 2048 });
    const key: SigningKey = { kid, alg, privateKey: pair.privateKey, publicKey: pair.publicKey };
    this.keys.push(key);
    return key;
  }

  /** Unpublishes a key (tokens it signed no longer verify once the server refreshes). */
  removeKey(key: SigningKey): void {
    this.keys = this.keys.filter((k) => k !== key);
  }

  /** Signs `claims` with a key (default the first), header `{alg, kid, typ: JWT}` plus overrides. */
  async sign(claims: JWTPayload & Record<string, unknown>, opts: SignOptions = {}): Promise<string> {
    const key = opts.key ?? this.keys[0]!;
    const header = { alg: key.alg, kid: key.kid, typ: 'JWT', ...opts.header } as { alg: string; [k: string]: unknown };
    if (header.kid === undefined) delete header.kid;
    return new SignJWT(claims).setProtectedHeader(header).sign(key.privateKey);
  }

  /**
   * The usual claims of an ID token of this issuer for `aud`: `iss`, `aud`, `sub`, `iat` now and
   * `exp` in an hour, plus `extra` (which may override them; `undefined` removes a claim).
   */
  claims(aud: string | string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
    const now = Math.floor(Date.now() / 1000);
    const out: Record<string, unknown> = { iss: this.issuer, aud, sub: 'alice', iat: now, exp: now + 3600, jti: randomUUID(), ...extra };
    for (const [k, v] of Object.entries(out)) if (v === undefined) delete out[k];
    return out;
  }

  /** Stops the server and closes its connections. */
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0]!;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!this.available) return send(503, { error: 'unavailable' });
    const issuerPath = this.opts.issuerPath ?? '';
    const isDiscovery = (this.opts.wellKnown !== false && path === `${issuerPath}/.well-known/openid-configuration`) || (this.opts.discoveryPath !== undefined && path === this.opts.discoveryPath);
    if (isDiscovery) {
      this.served.discovery++;
      return send(200, {
        issuer: this.discoveryIssuer ?? this.issuer,
        jwks_uri: `${this.origin}/keys`,
        id_token_signing_alg_values_supported: [...new Set(this.keys.map((k) => k.alg))],
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
      });
    }
    if (path === '/keys') {
      this.served.jwks++;
      const keys = await Promise.all(this.keys.map(async (k) => ({ ...(await exportJWK(k.publicKey)), kid: k.kid, alg: k.alg, use: 'sig' })));
      return send(200, { keys });
    }
    const ep = this.claimEndpoints.get(path);
    if (ep) {
      if (ep.accessToken !== undefined && req.headers.authorization !== `Bearer ${ep.accessToken}`) return send(401, { error: 'unauthorized' });
      res.writeHead(200, { 'Content-Type': 'application/jwt' });
      res.end(ep.jwt);
      return;
    }
    send(404, { error: 'not found' });
  }
}

/** A token with header `{"alg":"none"}` and no signature (never acceptable). */
export function unsignedToken(claims: Record<string, unknown>): string {
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${enc({ alg: 'none', typ: 'JWT' })}.${enc(claims)}.`;
}

/** A token signed with HS256 and `secret` (the key confusion an RSA public key must not allow). */
export function hmacToken(claims: Record<string, unknown>, secret: string | Uint8Array, kid?: string): Promise<string> {
  const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...(kid !== undefined && { kid }) }).sign(key);
}

/**
 * One suite's provider (mocha hooks): before, a started TestOIDCProvider and a temporary `dir`
 * (named from `dirPrefix`) holding its CA as `caFile`; after, every entry of `built` (the
 * authenticators the suite started) stopped, the provider stopped and `dir` removed. The fields
 * are set once the suite's `before` hooks have run.
 */
export interface OIDCSuite {
  provider: TestOIDCProvider;
  dir: string;
  caFile: string;
  built: { stop(): void }[];
}

/** Registers the hooks of an {@link OIDCSuite} in the calling `describe`. */
export function useOIDCProvider(dirPrefix: string): OIDCSuite {
  const suite = { built: [] as { stop(): void }[] } as OIDCSuite;
  before(async () => {
    suite.provider = await TestOIDCProvider.start();
    suite.dir = await mkdtemp(path.join(os.tmpdir(), dirPrefix));
    suite.caFile = path.join(suite.dir, 'idp-ca.crt');
    await writeFile(suite.caFile, suite.provider.caPem);
  });
  after(async () => {
    for (const j of suite.built) j.stop();
    await suite.provider?.stop();
    if (suite.dir) await rm(suite.dir, { recursive: true, force: true });
  });
  return suite;
}
