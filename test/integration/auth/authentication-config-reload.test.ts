import { expect } from 'chai';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { APISERVER_CONFIG_GROUP } from '../../../lib/apis/vendor.js';
import { type JWTAuthentication, type ReloadStatus, buildJWTAuthentication, defaultOIDCOptions } from '../../../lib/authentication/jwt/index.js';
import { TestOIDCProvider } from '../../framework/oidc-provider.js';

const CLIENT = 'reload-client';

/** A configuration document (JSON) with one authenticator for `p`, usernames prefixed with `prefix`. */
function document(p: TestOIDCProvider, prefix: string): string {
  return JSON.stringify({
    apiVersion: `${APISERVER_CONFIG_GROUP}/v1beta1`,
    kind: 'AuthenticationConfiguration',
    jwt: [{ issuer: { url: p.issuer, certificateAuthority: p.caPem, audiences: [CLIENT] }, claimMappings: { username: { claim: 'sub', prefix } } }],
  });
}

/** Polls `cond` every 50 ms for up to 10 s. */
async function eventually(cond: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await cond()) return;
    await sleep(50);
  }
  throw new Error('condition not met within 10s');
}

/**
 * The reload controller of `--authentication-config` on its own, with short intervals (spec 001
 * § Authentication configuration file: "Reloaded automatically on change").
 */
describe('authentication configuration reload (spec 001 § Authentication configuration file)', function () {
  this.timeout(30_000);
  let provider: TestOIDCProvider;
  let dir: string;
  const started: JWTAuthentication[] = [];

  before(async () => {
    provider = await TestOIDCProvider.start();
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-authn-reload-'));
  });
  after(async () => {
    for (const j of started) j.stop();
    await provider.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function start(file: string, opts: { reloadIntervalMs: number; reloadHealthTimeoutMs?: number }): Promise<{ j: JWTAuthentication; reloads: ReloadStatus[] }> {
    const reloads: ReloadStatus[] = [];
    const j = (await buildJWTAuthentication({
      oidc: defaultOIDCOptions(),
      authenticationConfig: file,
      log: { info: () => undefined, error: () => undefined },
      onReload: (s) => reloads.push(s),
      timing: { initRetryMs: 50 },
      ...opts,
    }))!;
    started.push(j);
    j.start();
    return { j, reloads };
  }

  const username = async (j: JWTAuthentication): Promise<string | undefined> =>
    (await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT))).catch(() => null))?.user.name;

  it('re-reads the file on its interval when no file event comes (a symlinked file changed in place)', async () => {
    const real = path.join(dir, 'real');
    const linked = path.join(dir, 'linked');
    await mkdir(real);
    await mkdir(linked);
    await writeFile(path.join(real, 'config.json'), document(provider, 'one:'));
    await symlink(path.join(real, 'config.json'), path.join(linked, 'config.json'));
    const { j, reloads } = await start(path.join(linked, 'config.json'), { reloadIntervalMs: 200 });
    await eventually(async () => (await username(j)) === 'one:alice');
    await writeFile(path.join(real, 'config.json'), document(provider, 'two:'));
    await eventually(async () => (await username(j)) === 'two:alice');
    expect(reloads).to.deep.equal(['success']);
  });

  it('keeps the old authenticators while new providers do not initialise, and retries until they do', async () => {
    const file = path.join(dir, 'health.json');
    await writeFile(file, document(provider, 'old:'));
    const { j, reloads } = await start(file, { reloadIntervalMs: 300, reloadHealthTimeoutMs: 200 });
    await eventually(async () => (await username(j)) === 'old:alice');
    const late = await TestOIDCProvider.start({ issuerPath: '/late' });
    try {
      late.available = false;
      await writeFile(file, document(late, 'late:'));
      await eventually(() => reloads.includes('failure'));
      expect(await username(j)).to.equal('old:alice');
      late.available = true;
      await eventually(() => reloads.includes('success'));
      const who = await j.authenticator.authenticateToken(await late.sign(late.claims(CLIENT)));
      expect(who!.user.name).to.equal('late:alice');
      expect(await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT)))).to.equal(null);
    } finally {
      await late.stop();
    }
  });

  it('reports an invalid file once and keeps the old configuration until the file changes', async () => {
    const file = path.join(dir, 'invalid.json');
    await writeFile(file, document(provider, 'kept:'));
    const { j, reloads } = await start(file, { reloadIntervalMs: 100 });
    await eventually(async () => (await username(j)) === 'kept:alice');
    await writeFile(file, document(provider, 'kept:').replace('"prefix":"kept:"', '"expression":"claims.sub","prefix":"x"'));
    await eventually(() => reloads.length === 1);
    await sleep(400);
    expect(reloads).to.deep.equal(['failure']);
    expect(await username(j)).to.equal('kept:alice');
  });
});
