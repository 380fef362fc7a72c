/**
 * The client credential plugin of a kubeconfig the server reads (spec 001 § Client credential
 * plugin; lib/client/exec-credential.ts), with small shell-script plugins: the block's checks,
 * what the plugin is given (args, env, ORCH_EXEC_INFO / KUBERNETES_EXEC_INFO with the cluster),
 * the token and client certificate it returns, reuse until `expirationTimestamp`, and upstream's
 * errors.
 */
import { expect } from 'chai';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { KubeconfigError, loadKubeconfig } from '../../../lib/client/kubeconfig.js';
import { createCaCertificate, createSignedCertificate } from '../../../lib/server/pki/certificates.js';
import { generateRsaKey } from '../../../lib/server/pki/keys.js';

const V1 = 'client.authentication.orch.io/v1';
const UPSTREAM_V1 = 'client.authentication.k8s.io/v1';

describe('client/exec-credential: kubeconfig users with an exec plugin (spec 001 § Client credential plugin)', () => {
  let dir: string;
  let ca: string;
  let cert: string;
  let key: string;
  let n = 0;

  before(async function () {
    this.timeout(30_000);
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-exec-credential-'));
    const [caKey, clientKey] = await Promise.all([generateRsaKey(), generateRsaKey()]);
    ca = createCaCertificate(caKey, 'exec-ca', 1);
    cert = createSignedCertificate({ certPem: ca, key: caKey }, { key: clientKey, commonName: 'exec-user', usage: 'client', validDays: 1 });
    key = clientKey.privateKeyPem;
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /**
   * Writes a plugin script that appends one line per run to `<name>.runs` (its args, then both
   * info variables) and prints `output` (a shell word list, e.g. a printf).
   */
  async function plugin(output: string): Promise<{ command: string; runs: () => Promise<string[]> }> {
    const name = `plugin-${n++}`;
    const command = path.join(dir, name);
    const log = `${command}.runs`;
    await writeFile(
      command,
      `#!/bin/sh\nprintf '%s|%s|%s|%s\\n' "$*" "\${ORCH_EXEC_INFO:-}" "\${KUBERNETES_EXEC_INFO:-}" "\${PLUGIN_ENV:-}" >>'${log}'\n${output}\n`,
    );
    await chmod(command, 0o755);
    return { command, runs: async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean) };
  }

  const credential = (apiVersion: string, status: object) => `printf '%s' '${JSON.stringify({ apiVersion, kind: 'ExecCredential', status })}'`;

  async function load(exec: object, user: object = {}, cluster: object = {}) {
    const file = path.join(dir, `k${n++}.yaml`);
    await writeFile(
      file,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:9443/hook', 'certificate-authority-data': Buffer.from(ca).toString('base64'), ...cluster } }],
        users: [{ name: 'u', user: { exec, ...user } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    return loadKubeconfig(file);
  }

  async function loadError(exec: object): Promise<string> {
    const err = await load(exec).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(KubeconfigError);
    return (err as Error).message;
  }

  async function requestError(config: Awaited<ReturnType<typeof load>>): Promise<string> {
    const err = await config.requestOptions('POST').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err, 'the request fails').to.be.instanceOf(Error);
    return (err as Error).message;
  }

  it('runs the plugin with its args and env, sends its token as the bearer, and reuses it without an expiry', async () => {
    const p = await plugin(credential(V1, { token: 'tok-1' }));
    const config = await load({ apiVersion: V1, command: p.command, args: ['--a', 'b'], env: [{ name: 'PLUGIN_ENV', value: 'set' }], interactiveMode: 'Never' });
    expect((await config.requestOptions('POST')).headers.Authorization).to.equal('Bearer tok-1');
    expect(await config.authorization()).to.equal('Bearer tok-1');
    const runs = await p.runs();
    expect(runs).to.have.length(1);
    const [args, info, upstreamInfo, env] = runs[0]!.split('|');
    expect([args, upstreamInfo, env]).to.deep.equal(['--a b', '', 'set']);
    expect(JSON.parse(info!)).to.deep.equal({ kind: 'ExecCredential', apiVersion: V1, spec: { interactive: false } });
  });

  it('with provideClusterInfo passes the cluster, its CA and its exec extension', async () => {
    const p = await plugin(credential(V1, { token: 'tok' }));
    const config = await load(
      { apiVersion: V1, command: p.command, interactiveMode: 'IfAvailable', provideClusterInfo: true },
      {},
      { 'tls-server-name': 'hook.local', extensions: [{ name: 'client.authentication.orch.io/exec', extension: { audience: 'hooks' } }] },
    );
    await config.requestOptions('POST');
    const info = JSON.parse((await p.runs())[0]!.split('|')[1]!);
    expect(info.spec).to.deep.equal({
      cluster: { server: 'https://127.0.0.1:9443/hook', 'tls-server-name': 'hook.local', 'certificate-authority-data': Buffer.from(ca).toString('base64'), config: { audience: 'hooks' } },
      interactive: false,
    });
  });

  it('runs again once expirationTimestamp has passed, not before', async () => {
    const past = await plugin(credential(V1, { token: 'old', expirationTimestamp: '2000-01-01T00:00:00Z' }));
    const expired = await load({ apiVersion: V1, command: past.command, interactiveMode: 'Never' });
    await expired.requestOptions('POST');
    await expired.requestOptions('POST');
    expect(await past.runs()).to.have.length(2);
    const future = await plugin(credential(V1, { token: 'new', expirationTimestamp: '2999-01-01T00:00:00Z' }));
    const valid = await load({ apiVersion: V1, command: future.command, interactiveMode: 'Never' });
    await Promise.all([valid.requestOptions('POST'), valid.requestOptions('POST')]);
    await valid.requestOptions('POST');
    expect(await future.runs()).to.have.length(1);
  });

  it('presents the client certificate and key the plugin returns', async () => {
    const p = await plugin(credential(V1, { clientCertificateData: cert, clientKeyData: key }));
    const options = await (await load({ apiVersion: V1, command: p.command, interactiveMode: 'Never' })).requestOptions('POST');
    expect([options.cert, options.key, options.headers.Authorization]).to.deep.equal([cert, key, undefined]);
  });

  it('the upstream spelling: the plugin gets KUBERNETES_EXEC_INFO and must answer in that version', async () => {
    const p = await plugin(credential(UPSTREAM_V1, { token: 'up' }));
    const config = await load({ apiVersion: UPSTREAM_V1, command: p.command, interactiveMode: 'Never' });
    expect((await config.requestOptions('POST')).headers.Authorization).to.equal('Bearer up');
    const [, info, upstreamInfo] = (await p.runs())[0]!.split('|');
    expect(info).to.equal('');
    expect(JSON.parse(upstreamInfo!).apiVersion).to.equal(UPSTREAM_V1);
  });

  it('is not run for a user that also has a token or a client certificate (as upstream)', async () => {
    const p = await plugin(credential(V1, { token: 'plugin' }));
    const withToken = await load({ apiVersion: V1, command: p.command, interactiveMode: 'Never' }, { token: 'static' });
    expect((await withToken.requestOptions('POST')).headers.Authorization).to.equal('Bearer static');
    const withCert = await load(
      { apiVersion: V1, command: p.command, interactiveMode: 'Never' },
      { 'client-certificate-data': Buffer.from(cert).toString('base64'), 'client-key-data': Buffer.from(key).toString('base64') },
    );
    expect((await withCert.requestOptions('POST')).headers.Authorization).to.equal(undefined);
    expect(await p.runs()).to.deep.equal([]);
  });

  const failures: Array<[string, string, (command: string) => object, string]> = [
    ['a version other than the configured one', credential(UPSTREAM_V1, { token: 't' }), (c) => ({ apiVersion: V1, command: c, interactiveMode: 'Never' }), `getting credentials: exec plugin is configured to use API version ${V1}, plugin returned version ${UPSTREAM_V1}`],
    ['no status', `printf '{"apiVersion":"${V1}","kind":"ExecCredential"}'`, (c) => ({ apiVersion: V1, command: c, interactiveMode: 'Never' }), "getting credentials: exec plugin didn't return a status field"],
    ['an empty status', credential(V1, {}), (c) => ({ apiVersion: V1, command: c, interactiveMode: 'Never' }), "getting credentials: exec plugin didn't return a token or cert/key pair"],
    ['a certificate without its key', credential(V1, { clientCertificateData: 'x' }), (c) => ({ apiVersion: V1, command: c, interactiveMode: 'Never' }), 'getting credentials: exec plugin returned only certificate or key, not both'],
    ['a non-zero exit', 'exit 3', (c) => ({ apiVersion: V1, command: c, interactiveMode: 'Never' }), 'exit code 3'],
    ['interactiveMode Always (a server has no terminal)', credential(V1, { token: 't' }), (c) => ({ apiVersion: V1, command: c, interactiveMode: 'Always' }), 'getting credentials: exec plugin cannot support interactive mode: standard input is not a terminal'],
  ];
  for (const [title, output, exec, message] of failures) {
    it(`fails the request, with upstream's message, for ${title}`, async () => {
      const p = await plugin(output);
      const got = await requestError(await load(exec(p.command)));
      if (message.startsWith('getting credentials')) expect(got).to.equal(message);
      else expect(got).to.equal(`getting credentials: exec: executable ${p.command} failed with ${message}`);
    });
  }

  it('a command that does not exist: "executable … not found" with the install hint', async () => {
    const got = await requestError(await load({ apiVersion: V1, command: 'orch-no-such-plugin', interactiveMode: 'Never', installHint: 'install it with make plugin' }));
    expect(got).to.equal('getting credentials: exec: executable orch-no-such-plugin not found\n\ninstall it with make plugin');
  });

  it('refuses an incomplete block when the file is loaded, with upstream\'s messages', async () => {
    expect(await loadError({ env: [{ value: 'v' }] })).to.equal(
      'invalid configuration: [command must be specified for u to use exec authentication plugin, apiVersion must be specified for u to use exec authentication plugin, env variable name must be specified for u to use exec authentication plugin, interactiveMode must be specified for u to use exec authentication plugin]',
    );
    expect(await loadError({ command: 'x', apiVersion: V1, interactiveMode: 'Sometimes' })).to.equal(
      'invalid configuration: invalid interactiveMode: one of Never, IfAvailable, Always must be specified for u to use exec authentication plugin',
    );
    expect(await loadError({ command: 'x', apiVersion: 'client.authentication.orch.io/v2', interactiveMode: 'Never' })).to.equal(
      'invalid configuration: exec plugin: invalid apiVersion "client.authentication.orch.io/v2"',
    );
  });

  it('v1beta1 defaults interactiveMode to IfAvailable; a relative command path is resolved against the file', async () => {
    const p = await plugin(credential('client.authentication.orch.io/v1beta1', { token: 'beta' }));
    const config = await load({ apiVersion: 'client.authentication.orch.io/v1beta1', command: `./${path.basename(p.command)}` });
    expect((await config.requestOptions('POST')).headers.Authorization).to.equal('Bearer beta');
  });
});
