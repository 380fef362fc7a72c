/**
 * The chart's API server command line, run for real: the container args rendered from the chart
 * (paths of the mounted Secrets mapped to a temporary directory holding the PKI that
 * hack/chart-pki.ts makes, `$(POD_IP)` as the kubelet would expand it) start the server against
 * an etcd requiring the chart's client certificate; the kubelet's anonymous probes pass; at
 * SIGTERM /readyz fails while requests are still served, then the process exits cleanly.
 */
import { expect } from 'chai';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freeLoopbackPort } from '../../../lib/server/etcd/free-port.js';
import { generateChartPKI } from '../../../hack/helm-render/pki.js';
import { TestClient } from '../../framework/client.js';
import { type EtcdCluster, startEtcdCluster } from '../../framework/etcd-cluster.js';
import { findObject, renderTestChart } from '../../framework/chart.js';
import { commandArgv } from '../../framework/server-process.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');

/** Polls `probe` every 100 ms until it answers true (bounded by the test's timeout). */
async function until(probe: () => Promise<boolean>, child: ChildProcess, log: () => string): Promise<void> {
  while (!(await probe().catch(() => false))) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log().slice(-3000)}`);
    await sleep(100);
  }
}

describe('Helm chart (manifests/): the rendered command line runs', function () {
  this.timeout(180_000);
  let dir: string;
  let etcd: EtcdCluster | undefined;
  let child: ChildProcess | undefined;
  let stderr = '';

  after(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await etcd?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves over the Secrets\' PKI, passes the probes and shuts down gracefully', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'chart-process-'));
    const pki = await generateChartPKI({ release: 'demo', namespace: 'ops' });
    const mount = path.join(dir, 'pki');
    const write = async (sub: string, files: Record<string, string>) => {
      await mkdir(path.join(mount, sub), { recursive: true });
      for (const [name, pem] of Object.entries(files)) await writeFile(path.join(mount, sub, name), pem, { mode: 0o600 });
    };
    await write('', pki.apiserver);
    await write('etcd', pki.etcd);
    const e = (name: string) => path.join(mount, 'etcd', name);
    etcd = await startEtcdCluster({
      members: 1,
      tls: { certFile: e('server.crt'), keyFile: e('server.key'), trustedCAFile: e('ca.crt'), clientCertFile: e('apiserver-etcd-client.crt'), clientKeyFile: e('apiserver-etcd-client.key') },
    });

    const port = await freeLoopbackPort();
    const { objects } = renderTestChart(
      {
        pki: { mountPath: mount },
        apiserver: { securePort: port, shutdown: { shutdownDelaySeconds: 5 } },
        etcd: { enabled: false, external: { servers: etcd.endpoints } },
      },
      'ops',
    );
    const container = findObject(objects, 'Deployment').spec.template.spec.containers[0];
    const args = (container.args as string[]).map((a) =>
      a.replace('$(POD_IP)', '127.0.0.1').replace(/^--bind-address=.*/, '--bind-address=127.0.0.1').replace(/^--data-dir=.*/, `--data-dir=${path.join(dir, 'data')}`),
    );
    child = spawn(process.execPath, [...commandArgv(), ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));

    const url = `https://127.0.0.1:${port}`;
    const kubelet = new TestClient(url, pki.apiserver['ca.crt']!, {});
    const admin = kubelet.as({ cert: pki.admin.adminCrt, key: pki.admin.adminKey });
    await until(async () => (await kubelet.get('/readyz')).status === 200, child, () => stderr);
    expect((await kubelet.get('/livez')).status).to.equal(200);
    expect((await admin.get('/api/v1/namespaces/default')).status).to.equal(200);

    child.kill('SIGTERM');
    await until(async () => (await kubelet.get('/readyz')).status !== 200, child, () => stderr);
    // Not ready, yet still serving: the shutdown delay keeps requests flowing while endpoints drain.
    expect((await admin.get('/api/v1/namespaces/default')).status).to.equal(200);
    expect(await exited).to.equal(0);
  });
});
