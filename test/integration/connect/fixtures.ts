/**
 * Shared setup of the connect subresources' tests (issue #20): a test server whose `--kubelet-*`
 * configuration trusts a kubelet stand-in, a Node that points at the stand-in (InternalIP
 * 127.0.0.1, `daemonEndpoints.kubeletEndpoint.Port`), a namespace with Pods bound to it, and
 * kubeconfigs of token users for kubectl.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestResponse } from '../../framework/client.js';
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
