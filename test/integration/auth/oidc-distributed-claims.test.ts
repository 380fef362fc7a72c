/**
 * Distributed claims (OpenID Connect Core § 5.6.2) for the groups claim, against a real HTTPS
 * provider on loopback (spec 001 § OpenID Connect flags, § Authentication configuration file:
 * distributed claims work with claim mappings and the `--oidc-*` flags, not with expressions;
 * issue #20 with issue #10): the endpoint is fetched with the source's access token, its JWT must
 * verify against its issuer for the authenticator's audience and hold the claim; the first token of
 * an issuer not yet discovered is refused, as upstream's asynchronous verifier does.
 */
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type JWTAuthentication, type OIDCOptions, buildJWTAuthentication, defaultOIDCOptions } from '../../../lib/authentication/jwt/index.js';
import type { AuthResult } from '../../../lib/authentication/interface.js';
import { TestOIDCProvider, useOIDCProvider } from '../../framework/oidc-provider.js';
import { rejection } from '../../framework/authentication.js';

const CLIENT = 'orch-dist-client';
const silent = { info: () => undefined, error: () => undefined };
const TIMING = { initRetryMs: 50 };

describe('distributed groups claims (spec 001 § OpenID Connect flags, § Authentication configuration file)', function () {
  this.timeout(30_000);
  const suite = useOIDCProvider('orch-oidc-dist-');
  const built = suite.built;
  let provider: TestOIDCProvider;
  let dir: string;
  let caFile: string;
  let n = 0;

  before(() => ({ provider, dir, caFile } = suite));

  async function started(j: JWTAuthentication): Promise<JWTAuthentication> {
    built.push(j);
    j.start();
    for (const a of j.authenticator.authenticators) expect(await a.provider.waitReady(10_000), 'provider initialised').to.equal(true);
    return j;
  }

  const fromFlags = async (o: Partial<OIDCOptions>) =>
    started((await buildJWTAuthentication({ oidc: { ...defaultOIDCOptions(), issuerURL: provider.issuer, clientID: CLIENT, caFile, flagsSet: true, ...o }, log: silent, timing: TIMING }))!);

  async function fromConfig(claimMappings: Record<string, unknown>): Promise<JWTAuthentication> {
    const file = path.join(dir, `authn-${built.length}.json`);
    const jwt = [{ issuer: { url: provider.issuer, audiences: [CLIENT], certificateAuthority: provider.caPem }, claimMappings }];
    await writeFile(file, JSON.stringify({ apiVersion: 'apiserver.config.orch.io/v1beta1', kind: 'AuthenticationConfiguration', jwt }));
    return started((await buildJWTAuthentication({ oidc: defaultOIDCOptions(), authenticationConfig: file, log: silent, timing: TIMING }))!);
  }

  /** An ID token whose `groups` claim lives at a fresh endpoint answering `endpointClaims` signed by the provider. */
  async function distributedToken(endpointClaims: Record<string, unknown>, accessToken = 'secret-access'): Promise<{ token: string; url: string }> {
    const endpoint = `/claims-${++n}`;
    provider.claimEndpoints.set(endpoint, { jwt: await provider.sign(provider.claims(CLIENT, endpointClaims)), accessToken });
    const url = `${provider.origin}${endpoint}`;
    const token = await provider.sign(provider.claims(CLIENT, { _claim_names: { groups: 'src1' }, _claim_sources: { src1: { endpoint: url, access_token: accessToken } } }));
    return { token, url };
  }

  /** Authenticates `token` until the distributed claim's issuer is discovered (the first tries are refused as not initialised). */
  async function authenticated(j: JWTAuthentication, token: string): Promise<AuthResult | null> {
    for (let i = 0; ; i++) {
      try {
        return await j.authenticator.authenticateToken(token);
      } catch (err) {
        if (!/verifier not initialized for issuer/.test((err as Error).message) || i >= 200) throw err;
        await sleep(50);
      }
    }
  }

  it('the --oidc-groups-claim flag: groups fetched from the endpoint with the access token, with the groups prefix', async () => {
    const j = await fromFlags({ groupsClaim: 'groups', groupsPrefix: 'oidc:' });
    const { token } = await distributedToken({ groups: ['devs', 'ops'] });
    const first = await rejection(j.authenticator.authenticateToken(token));
    expect(first).to.equal(`oidc: could not expand distributed claims: verifying untrusted issuer ${provider.issuer} failed: verifier not initialized for issuer: "${provider.issuer}"`);
    const res = await authenticated(j, token);
    expect(res!.user.groups).to.deep.equal(['oidc:devs', 'oidc:ops']);
  });

  it('claimMappings.groups.claim of the configuration file: groups from the endpoint, with the prefix', async () => {
    const j = await fromConfig({ username: { claim: 'sub', prefix: '' }, groups: { claim: 'groups', prefix: 'cfg:' } });
    const { token } = await distributedToken({ groups: 'admins' });
    const res = await authenticated(j, token);
    expect(res!.user).to.deep.include({ name: 'alice', groups: ['cfg:admins'] });
  });

  it('a claim present in the token itself is used without fetching', async () => {
    const j = await fromFlags({ groupsClaim: 'groups' });
    const token = await provider.sign(provider.claims(CLIENT, { groups: ['inline'], _claim_names: { groups: 'src1' }, _claim_sources: { src1: { endpoint: `${provider.origin}/nowhere` } } }));
    expect((await j.authenticator.authenticateToken(token))!.user.groups).to.deep.equal(['inline']);
  });

  it('refuses a token whose endpoint answers without the claim, refuses the access token, or is for another audience', async () => {
    const j = await fromFlags({ groupsClaim: 'groups' });
    const missing = await distributedToken({ roles: ['x'] });
    await authenticated(j, missing.token).then(
      () => expect.fail('accepted'),
      (err: Error) => expect(err.message).to.equal(`oidc: could not expand distributed claims: jwt returned by distributed claim endpoint "${missing.url}" did not contain claim: groups`),
    );
    const endpoint = `/claims-${++n}`;
    provider.claimEndpoints.set(endpoint, { jwt: await provider.sign(provider.claims(CLIENT, { groups: ['x'] })), accessToken: 'right' });
    const wrongAccess = await provider.sign(provider.claims(CLIENT, { _claim_names: { groups: 's' }, _claim_sources: { s: { endpoint: `${provider.origin}${endpoint}`, access_token: 'wrong' } } }));
    expect(await rejection(j.authenticator.authenticateToken(wrongAccess))).to.match(/^oidc: could not expand distributed claims: while getting distributed claim "groups": error while getting distributed claim JWT: 401/);
    const other = `/claims-${++n}`;
    provider.claimEndpoints.set(other, { jwt: await provider.sign(provider.claims('another-client', { groups: ['x'] })) });
    const otherAudience = await provider.sign(provider.claims(CLIENT, { _claim_names: { groups: 's' }, _claim_sources: { s: { endpoint: `${provider.origin}${other}` } } }));
    expect(await rejection(j.authenticator.authenticateToken(otherAudience))).to.equal(
      'oidc: could not expand distributed claims: verify distributed claim token: oidc: expected audience "orch-dist-client" got ["another-client"]',
    );
  });

  it('refuses a source named in _claim_names but missing from _claim_sources', async () => {
    const j = await fromFlags({ groupsClaim: 'groups' });
    const token = await provider.sign(provider.claims(CLIENT, { _claim_names: { groups: 'src9' }, _claim_sources: { src1: { endpoint: `${provider.origin}/x` } } }));
    expect(await rejection(j.authenticator.authenticateToken(token))).to.equal('oidc: could not expand distributed claims: id token _claim_names contained a source src9 missing in _claims_sources');
  });

  it('expressions never see distributed claims: a groups expression over them yields no groups', async () => {
    const j = await fromConfig({ username: { claim: 'sub', prefix: '' }, groups: { expression: "has(claims.groups) ? claims.groups : []" } });
    const { token } = await distributedToken({ groups: ['devs'] });
    expect((await j.authenticator.authenticateToken(token))!.user.groups).to.deep.equal([]);
  });
});
