/**
 * Helpers of the flow-control integration tests: waiting for a condition, reading a sample of
 * `/metrics`, and a create that holds its seats until released.
 */
import { request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestClient } from './client.js';
import { usePKI } from './test-server.js';

/** Retries `check` until it returns true (bounded: the config consumer reacts within milliseconds). */
export async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await sleep(25);
  }
  throw new Error(`never happened: ${what}`);
}

/** The value of the sample of `name` with all of `labels` (none: the unlabelled sample), 0 when absent. */
export async function metric(admin: TestClient, name: string, labels: Record<string, string>): Promise<number> {
  const text = (await admin.get('/metrics')).text;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

/**
 * A create as `user` whose body is held back: the request occupies its seats from dispatch until
 * `release()` sends the rest of the body.
 */
export async function heldCreate(baseURL: string, user: string, name: string): Promise<{ release(): Promise<number> }> {
  const { pki } = await usePKI();
  const body = Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }));
  const url = new URL('/api/v1/namespaces/default/configmaps', baseURL);
  const req = httpsRequest({
    method: 'POST',
    hostname: url.hostname,
    port: url.port,
    path: url.pathname,
    ca: pki.caCertPem,
    cert: pki.adminCertPem,
    key: pki.adminKeyPem,
    agent: false,
    headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length), 'Impersonate-User': user },
  });
  const status = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  req.write(body.subarray(0, 5));
  return {
    release() {
      req.end(body.subarray(5));
      return status;
    },
  };
}
