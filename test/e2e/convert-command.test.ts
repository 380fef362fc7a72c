/**
 * The real `orch-apiserver convert` command (issue #15 item 7): a multi-document manifest of
 * removed versions (Ingress in extensions/v1beta1 and networking v1beta1, IngressClass,
 * NetworkPolicy) converted to `networking.orch.io/v1` by the binary's entry point, offline; the
 * output is then created on a real server, which accepts every object as written.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { parse as parseYAML } from 'yaml';
import { useTestServer } from '../framework/test-server.js';
import { commandArgv } from '../framework/server-process.js';

const execFileAsync = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const MANIFEST = path.join(HERE, 'manifests', 'removed-versions.yaml');

/** Runs `orch-apiserver convert <args>` from the sources; resolves with the exit code and streams. */
async function runCommand(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [...commandArgv(), 'convert', ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

interface Item {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  spec: Record<string, unknown>;
}

describe('orch-apiserver convert (the real command)', function () {
  this.timeout(60_000);
  const server = useTestServer();
  let items: Item[] = [];

  before(async () => {
    const r = await runCommand(['-f', MANIFEST, '--output-version', 'networking.orch.io/v1']);
    expect(r.stderr).to.equal('');
    expect(r.code).to.equal(0);
    const list = parseYAML(r.stdout);
    expect(list).to.include({ apiVersion: 'v1', kind: 'List' });
    items = list.items;
  });

  it('converts every document to networking.orch.io/v1 with the migration rewrites', () => {
    expect(items.map((i) => `${i.apiVersion} ${i.kind} ${i.metadata.name}`)).to.deep.equal([
      'networking.orch.io/v1 Ingress web',
      'networking.orch.io/v1 Ingress shop',
      'networking.orch.io/v1 IngressClass example',
      'networking.orch.io/v1 NetworkPolicy deny-all',
    ]);
    expect(items[0]!.spec).to.deep.equal({
      defaultBackend: { service: { name: 'web', port: { number: 80 } } },
      rules: [{ host: 'example.com', http: { paths: [{ path: '/api', pathType: 'ImplementationSpecific', backend: { service: { name: 'api', port: { name: 'http' } } } }] } }],
    });
    expect(items[1]!.spec).to.deep.equal({
      rules: [{ host: 'shop.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'shop', port: { number: 8080 } } } }] } }],
    });
  });

  it('the server accepts the converted objects', async () => {
    const s = server();
    const plural: Record<string, string> = { Ingress: 'ingresses', IngressClass: 'ingressclasses', NetworkPolicy: 'networkpolicies' };
    for (const item of items) {
      const ns = item.metadata.namespace ? `/namespaces/${item.metadata.namespace}` : '';
      const res = await s.admin.post(`/apis/networking.orch.io/v1${ns}/${plural[item.kind]}`, item);
      expect(res.status, `${item.kind} ${item.metadata.name}: ${res.text}`).to.equal(201);
    }
  });

  it('fails with upstream-worded errors and exit code 1', async () => {
    const r = await runCommand(['-f', MANIFEST, '--output-version', 'apps/v1']);
    expect(r.code).to.equal(1);
    expect(r.stdout).to.equal('');
    expect(r.stderr.split('\n')[0]).to.equal('error: *networking.Ingress is not suitable for converting to "apps/v1" in scheme "lib/cmd/convert-scheme.ts"');
  });
});
