/**
 * Writes the PKI of a chart release into a directory and prints the `kubectl create secret`
 * commands that make the chart's two Secrets from it (README.md § Deploying with the chart).
 * Usage: npx tsx hack/chart-pki.ts --release R --namespace NS --out DIR
 *        [--fullname F] [--cluster-domain D] [--extra-name NAME_OR_IP]...
 * DIR/apiserver and DIR/etcd hold the Secrets' files; DIR/private the CA keys and the admin
 * client certificate, and DIR/admin.kubeconfig reaches the API through
 * `kubectl port-forward … 6443:443`.
 */
import path from 'node:path';
import { PRIVATE_FILE_MODE, PUBLIC_FILE_MODE, writeFileAtomic } from '../lib/server/pki/files.js';
import { writeKubeconfig } from '../lib/server/pki/kubeconfig.js';
import { generateChartPKI, type ChartPKIRequest } from './helm-render/pki.js';

async function main(argv: string[]): Promise<void> {
  const req: Partial<ChartPKIRequest> = { extraNames: [] };
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${argv[i]} needs a value`);
    switch (argv[i++]) {
      case '--release': req.release = value; break;
      case '--namespace': req.namespace = value; break;
      case '--fullname': req.fullname = value; break;
      case '--cluster-domain': req.clusterDomain = value; break;
      case '--extra-name': req.extraNames!.push(value); break;
      case '--out': out = value; break;
      default: throw new Error(`unknown flag ${argv[i - 1]}`);
    }
  }
  if (!req.release || !req.namespace || !out) throw new Error('usage: chart-pki --release R --namespace NS --out DIR [--fullname F] [--cluster-domain D] [--extra-name N]...');
  const pki = await generateChartPKI(req as ChartPKIRequest);
  const write = async (dir: string, files: Record<string, string>): Promise<string[]> => {
    for (const [name, pem] of Object.entries(files)) await writeFileAtomic(path.join(out!, dir, name), pem, name.endsWith('.key') ? PRIVATE_FILE_MODE : PUBLIC_FILE_MODE);
    return Object.keys(files).map((name) => `--from-file=${path.join(out!, dir, name)}`);
  };
  const apiserverArgs = await write('apiserver', pki.apiserver);
  const etcdArgs = await write('etcd', pki.etcd);
  await write('private', { 'ca.key': pki.admin.caKey, 'etcd-ca.key': pki.admin.etcdCaKey, 'admin.crt': pki.admin.adminCrt, 'admin.key': pki.admin.adminKey });
  await writeKubeconfig(path.join(out, 'admin.kubeconfig'), {
    server: 'https://127.0.0.1:6443', caPem: pki.admin.caCrt, clientCertPem: pki.admin.adminCrt, clientKeyPem: pki.admin.adminKey,
  });
  const ns = req.namespace;
  process.stdout.write(
    `kubectl -n ${ns} create secret generic ${pki.names.fullname}-pki ${apiserverArgs.join(' ')}\n` +
      `kubectl -n ${ns} create secret generic ${pki.names.etcd}-pki ${etcdArgs.join(' ')}\n`,
  );
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`Error: ${err.message}\n`);
  process.exitCode = 1;
});
