/**
 * `kubectl create token` (kubectl 1.30, unmodified) against the real server command started
 * without any service-account flag (issue #10 item 2): the default issuer and the serving key
 * sign, `--audience`, `--duration` and `--bound-object-kind Pod` reach the TokenRequest, and a
 * kubeconfig holding the token authenticates as the service account.
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER, SERVICE_ACCOUNT_PRIVATE_CLAIM } from '../../lib/apis/vendor.js';
import { findKubectl, kubectl, kubectlOk } from '../framework/kubectl.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

/** The payload of a compact JWS. */
function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('kubectl create token (kubectl 1.30; issue #10 item 2)', function () {
  this.timeout(120_000);
  let server: ServerProcess;
  let dataDir: string;
  const k = (...args: string[]) => kubectlOk(server.kubeconfig, args);

  before(async () => {
    findKubectl();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'orch-e2e-token-'));
    server = await startServerProcess([], dataDir);
    await k('create', 'serviceaccount', 'robot');
  });
  after(async () => {
    if (server) expect(await server.stop()).to.equal(0);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints a token of the default issuer for the default audiences, valid an hour', async () => {
    const token = (await k('create', 'token', 'robot')).trim();
    const p = payloadOf(token);
    expect(p).to.include({ iss: DEFAULT_SERVICE_ACCOUNT_ISSUER, sub: 'system:serviceaccount:default:robot' });
    expect(p.aud).to.deep.equal([DEFAULT_SERVICE_ACCOUNT_ISSUER]);
    expect(p.exp).to.equal((p.iat as number) + 3600);
  });

  it('passes --audience and --duration', async () => {
    const p = payloadOf((await k('create', 'token', 'robot', '--audience', 'vault', '--audience', 'db', '--duration', '20m')).trim());
    expect(p.aud).to.deep.equal(['vault', 'db']);
    expect(p.exp).to.equal((p.iat as number) + 1200);
  });

  it('binds the token to a Pod with --bound-object-kind Pod --bound-object-name', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'worker' }, spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'busybox' }] } };
    await kubectlOk(server.kubeconfig, ['create', '-f', '-'], { stdin: JSON.stringify(pod) });
    const uid = (await k('get', 'pod', 'worker', '-o', 'jsonpath={.metadata.uid}')).trim();
    const p = payloadOf((await k('create', 'token', 'robot', '--bound-object-kind', 'Pod', '--bound-object-name', 'worker')).trim());
    expect(p[SERVICE_ACCOUNT_PRIVATE_CLAIM]).to.deep.include({ pod: { name: 'worker', uid } });
  });

  it('reports the server\'s refusal of a duration under 10 minutes', async () => {
    const res = await kubectl(server.kubeconfig, ['create', 'token', 'robot', '--duration', '5m']);
    expect(res.code).to.equal(1);
    expect(res.stderr).to.include('may not specify a duration less than 10 minutes');
  });

  it('reports a missing service account', async () => {
    const res = await kubectl(server.kubeconfig, ['create', 'token', 'ghost']);
    expect(res.code).to.equal(1);
    expect(res.stderr).to.include('serviceaccounts "ghost" not found');
  });

  it('authenticates a kubeconfig holding the token as the service account', async () => {
    const token = (await k('create', 'token', 'robot')).trim();
    const admin = parse(await readFile(server.kubeconfig, 'utf8')) as { clusters: Array<{ cluster: Record<string, string> }> };
    const cluster = admin.clusters[0]!.cluster;
    const kubeconfig = path.join(dataDir, 'robot.kubeconfig');
    await writeFile(
      kubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: cluster.server, 'certificate-authority-data': cluster['certificate-authority-data'] } }],
        users: [{ name: 'robot', user: { token } }],
        contexts: [{ name: 'robot', context: { cluster: 'c', user: 'robot', namespace: 'default' } }],
        'current-context': 'robot',
      }),
    );
    const whoami = await kubectlOk(kubeconfig, ['auth', 'whoami', '-o', 'json']);
    const userInfo = (JSON.parse(whoami) as { status: { userInfo: Record<string, unknown> } }).status.userInfo;
    expect(userInfo).to.deep.include({ username: 'system:serviceaccount:default:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] });
    expect(JSON.parse(await kubectlOk(kubeconfig, ['get', '--raw', '/version']))).to.have.property('major', '1');
    const pods = await kubectl(kubeconfig, ['get', 'pods']);
    expect(pods.code).to.equal(1);
    expect(pods.stderr).to.include('User "system:serviceaccount:default:robot" cannot list resource "pods"');
  });
});
