/**
 * The serving TLS material of the `orch-apiserver` command (issue #2 § TLS and identity): the
 * given certificate files, or the PKI generated once under `--cert-dir` (reused byte for byte
 * afterwards, so every server worker reads the files the primary generated), and the admin
 * kubeconfig written from the generated admin identity.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN_USER } from '../apis/vendor.js';
import type { Logger } from '../server/logging.js';
import type { ServerOptions } from '../server/options/server-options.js';
import { writeKubeconfig } from '../server/pki/kubeconfig.js';
import { ensureServingPKI } from '../server/pki/serving-pki.js';

/** TLS material and, when generated here, the admin client identity. */
export interface TLSMaterial {
  certPem: string;
  keyPem: string;
  clientCAPem?: string;
  admin?: { caPem: string; certPem: string; keyPem: string };
  /**
   * The CA bundle that verifies the serving certificate, published to clients (root CA
   * ConfigMaps, `cluster-info`): the generated CA; with `--tls-cert-file`, the CA certificates
   * concatenated after the serving certificate, else the `--client-ca-file` bundle.
   */
  rootCAPem?: string;
}

/**
 * Reads the certificate flags' files, or generates (first call) or reuses the PKI under `--cert-dir`.
 * @throws Error when a file cannot be read or the PKI cannot be written.
 */
export async function tlsMaterial(o: ServerOptions): Promise<TLSMaterial> {
  const clientCAPem = o.clientCaFile ? await readFile(o.clientCaFile, 'utf8') : undefined;
  if (o.tlsCertFile && o.tlsPrivateKeyFile) {
    const certPem = await readFile(o.tlsCertFile, 'utf8');
    return { certPem, keyPem: await readFile(o.tlsPrivateKeyFile, 'utf8'), clientCAPem, rootCAPem: chainAfterLeaf(certPem) ?? clientCAPem };
  }
  const pki = await ensureServingPKI({ certDir: o.certDir });
  return {
    certPem: pki.servingCertPem,
    keyPem: pki.servingKeyPem,
    clientCAPem: clientCAPem ? `${clientCAPem}\n${pki.caCertPem}` : pki.caCertPem,
    admin: { caPem: pki.caCertPem, certPem: pki.adminCertPem, keyPem: pki.adminKeyPem },
    rootCAPem: pki.caCertPem,
  };
}

/** The PEM certificates after the first one in `pem` (a serving chain's CAs), or undefined when there are none. */
function chainAfterLeaf(pem: string): string | undefined {
  const certs = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return certs.length > 1 ? `${certs.slice(1).join('\n')}\n` : undefined;
}

/**
 * Writes `<data-dir>/admin.kubeconfig` for the generated admin identity, pointing at
 * `https://127.0.0.1:<port>`, and logs `wrote admin kubeconfig`; nothing when the PKI was given.
 */
export async function writeAdminKubeconfig(o: ServerOptions, tls: TLSMaterial, port: number, log: Logger): Promise<void> {
  if (!tls.admin) return;
  const file = path.join(o.dataDir, 'admin.kubeconfig');
  await writeKubeconfig(file, {
    server: `https://127.0.0.1:${port}`,
    caPem: tls.admin.caPem,
    clientCertPem: tls.admin.certPem,
    clientKeyPem: tls.admin.keyPem,
    user: ADMIN_USER,
  });
  log.info({ kubeconfig: file }, 'wrote admin kubeconfig');
}
