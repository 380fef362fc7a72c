import { expect } from 'chai';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { UPSTREAM_KUBECTLS, kubectl, requireKubectls } from '../framework/kubectl.js';
import { type ServerProcess, startServerProcess } from '../framework/server-process.js';

/** The plugin of README.md § Client credential plugin (exec), verbatim. */
const PLUGIN = `#!/bin/sh
# orch-token: a client credential plugin. Prints an ExecCredential carrying the token stored in
# the file named by --token-file. kubectl runs it with the kubeconfig's args and env and, with
# provideClusterInfo: true, passes the cluster in KUBERNETES_EXEC_INFO (appended to
# $ORCH_TOKEN_LOG when that is set).
set -eu
[ "$#" -eq 2 ] && [ "$1" = --token-file ] || { echo "usage: orch-token --token-file <file>" >&2; exit 1; }
token=$(cat "$2")
[ -z "\${ORCH_TOKEN_LOG:-}" ] || printf '%s\\n' "\${KUBERNETES_EXEC_INFO:-}" >>"$ORCH_TOKEN_LOG"
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}\\n' "$token"
`;

const TOKEN = 'exec-plugin-token-6f1d2a';

describe('stock kubectl 1.30 with a client credential plugin (exec) against --token-auth-file (spec 001 § Client credential plugin)', function () {
  this.timeout(60_000);
  const kubectl130 = UPSTREAM_KUBECTLS.find((k) => k.version === '1.30')!;
  let dir: string;
  let server: ServerProcess;
  let kubeconfig: string;

  before(async () => {
    requireKubectls([kubectl130]);
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-exec-plugin-'));
    const tokens = path.join(dir, 'tokens.csv');
    await writeFile(tokens, `${TOKEN},plugin-user,plugin-uid,"system:masters"\n`);
    server = await startServerProcess([`--token-auth-file=${tokens}`]);
    await writeFile(path.join(dir, 'orch-token'), PLUGIN);
    await chmod(path.join(dir, 'orch-token'), 0o755);
    // The cluster entry of the admin kubeconfig; the user authenticates with the plugin only.
    const admin = parse(await readFile(server.kubeconfig, 'utf8'));
    kubeconfig = path.join(dir, 'exec.kubeconfig');
    await writeFile(
      kubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'orch', cluster: admin.clusters[0].cluster }],
        users: [
          {
            name: 'plugin-user',
            user: {
              exec: {
                apiVersion: 'client.authentication.k8s.io/v1',
                command: path.join(dir, 'orch-token'),
                args: ['--token-file', path.join(dir, 'token')],
                env: [{ name: 'ORCH_TOKEN_LOG', value: path.join(dir, 'plugin.log') }],
                interactiveMode: 'Never',
                provideClusterInfo: true,
              },
            },
          },
        ],
        contexts: [{ name: 'orch', context: { cluster: 'orch', user: 'plugin-user' } }],
        'current-context': 'orch',
      }),
    );
  });
  after(async () => {
    if (server) await server.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Runs the 1.30 kubectl with the plugin kubeconfig and a fresh discovery cache. */
  const k = (...args: string[]) => kubectl(kubeconfig, [`--cache-dir=${path.join(dir, 'cache')}`, ...args], { binary: kubectl130.path });

  it('get namespaces works with the token the plugin prints (a system:masters user of the token file)', async () => {
    await writeFile(path.join(dir, 'token'), `${TOKEN}\n`);
    const res = await k('get', 'namespaces');
    expect(res.code, res.stderr).to.equal(0);
    const lines = res.stdout.trimEnd().split('\n').map((l) => l.trim().split(/\s{2,}/));
    expect(lines[0]).to.deep.equal(['NAME', 'STATUS', 'AGE']);
    expect(lines.find((l) => l[0] === 'default')?.[1]).to.equal('Active');
    // kubectl ran the plugin with the configured args and env and passed the cluster (provideClusterInfo).
    const info = JSON.parse((await readFile(path.join(dir, 'plugin.log'), 'utf8')).trim().split('\n')[0]);
    expect(info.apiVersion).to.equal('client.authentication.k8s.io/v1');
    expect(info.kind).to.equal('ExecCredential');
    expect(info.spec.interactive).to.equal(false);
    expect(info.spec.cluster.server).to.equal(server.url);
  });

  it('a token the server does not know is rejected (401): the plugin token is what authenticates', async () => {
    await writeFile(path.join(dir, 'token'), 'not-a-known-token\n');
    const res = await k('get', 'namespaces');
    expect(res.code).to.not.equal(0);
    expect(res.stderr).to.include('error: You must be logged in to the server (Unauthorized)');
  });
});
