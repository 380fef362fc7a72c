/**
 * Shared setup of the connect subresources' tests (issue #20): a test server whose `--kubelet-*`
 * configuration trusts a kubelet stand-in, a Node that points at the stand-in (InternalIP
 * 127.0.0.1, `daemonEndpoints.kubeletEndpoint.Port`), a namespace with Pods bound to it, and
 * kubeconfigs of token users for kubectl.
 */
import { expect } from 'chai';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestResponse } from '../../framework/client.js';
import { findKubectl } from '../../framework/kubectl.js';
import { type TestServer, type TestServerOptions, startTestServer } from '../../framework/test-server.js';
import { KubeletStandIn } from './kubelet-stand-in.js';

export const NS = 'connect';
export const expectStatus = (res: TestResponse, status: number) => expect(res.status, res.text).to.equal(status);

/** A pod of `NS` with `containers` on node `nodeName` ('' unscheduled). */
export function pod(name: string, containers: string[], nodeName: string): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS }, spec: { containers: containers.map((c) => ({ name: c, image: 'busybox', ports: [{ containerPort: 8080 }] })), ...(nodeName && { nodeName }) } };
}

/** A started server, stand-in, node `n1` and namespace, with a kubeconfig per token user; `stop` ends them all. */
export interface ConnectEnv {
  server: TestServer;
  kubelet: KubeletStandIn;
  kubeconfigs: Record<string, string>;
  stop(): Promise<void>;
}

/** A kubeconfig for `server` authenticating with a bearer token. */
function tokenKubeconfig(server: TestServer, user: string, token: string): string {
  const ca = Buffer.from(server.admin.ca).toString('base64');
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters:\n- name: test\n  cluster:\n    server: ${server.url}\n    certificate-authority-data: ${ca}`,
    `users:\n- name: ${user}\n  user:\n    token: ${token}`,
    `contexts:\n- name: ${user}\n  context:\n    cluster: test\n    user: ${user}`,
    `current-context: ${user}`,
    '',
  ].join('\n');
}

/**
 * Starts the stand-in and a server configured for it; creates node `n1` (InternalIP 127.0.0.1
 * and the stand-in's port), namespace `NS`, and token users `users` (token `<user>-token`).
 */
export async function startConnectEnv(users: readonly string[], opts: TestServerOptions = {}): Promise<ConnectEnv> {
  const kubelet = await KubeletStandIn.start();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orch-connect-'));
  let server: TestServer | undefined;
  try {
    server = await startTestServer({
      ...opts,
      tokens: users.map((u) => `${u}-token,${u},uid-${u},`).join('\n'),
      kubelet: { certPem: kubelet.pki.clientCertPem, keyPem: kubelet.pki.clientKeyPem, caPem: kubelet.pki.servingCAPem, preferredAddressTypes: ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'], timeoutMs: 5000 },
    });
    const admin = server.admin;
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: kubelet.port } } } };
    expectStatus(await admin.post('/api/v1/nodes', node), 201);
    expectStatus(await admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }), 201);
    const kubeconfigs: Record<string, string> = { admin: server.kubeconfig };
    for (const u of users) {
      kubeconfigs[u] = path.join(dir, `${u}.kubeconfig`);
      await writeFile(kubeconfigs[u]!, tokenKubeconfig(server, u, `${u}-token`));
    }
    const s = server;
    return {
      server: s,
      kubelet,
      kubeconfigs,
      async stop() {
        await s.stop();
        await kubelet.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await server?.stop();
    await kubelet.stop();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The kubectl processes started, killed after the suite whatever happened. */
const children = new Set<ChildProcess>();

/** Runs `kubectl port-forward` until the round trip is done; resolves with the local port once it forwards. */
export function portForward(kubeconfig: string, args: string[]): Promise<{ port: number; stop(): void }> {
  const child = spawn(findKubectl(), ['--kubeconfig', kubeconfig, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /Forwarding from 127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve({ port: Number(m[1]), stop: () => child.kill() });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`kubectl port-forward exited ${code}: ${out}`)));
  });
}

/** Sends `text` to 127.0.0.1:`port` and resolves with what comes back once as many bytes arrived. */
export function roundTrip(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let got = '';
    socket.on('data', (c: Buffer) => {
      got += c.toString();
      if (got.length >= text.length) {
        socket.end();
        resolve(got);
      }
    });
    socket.on('error', reject);
  });
}

/** Kills every kubectl `portForward` started that is still running (a suite's `after`). */
export function stopKubectlChildren(): void {
  for (const c of children) c.kill();
}
