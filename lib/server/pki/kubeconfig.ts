/**
 * Client configuration files (the `kubeconfig` format read by kubectl and the client
 * libraries): one cluster, one user with an embedded client certificate, one context.
 */

import { stringify } from 'yaml';
import { ADMIN_USER, VENDOR } from '../../apis/vendor.js';
import { PRIVATE_FILE_MODE, writeFileAtomic } from './files.js';

/** What a kubeconfig names and embeds. */
export interface KubeconfigSpec {
  /** Server URL, e.g. `https://127.0.0.1:6443`. */
  server: string;
  /** PEM of the CA that signed the serving certificate (embedded as `certificate-authority-data`). */
  caPem: string;
  /** PEM client certificate (embedded as `client-certificate-data`). */
  clientCertPem: string;
  /** PEM private key of the client certificate (embedded as `client-key-data`). */
  clientKeyPem: string;
  /** User entry name (default {@link ADMIN_USER}). */
  user?: string;
  /** Cluster entry name (default the vendor word). */
  cluster?: string;
  /** Context name, also the current context (default `<user>@<cluster>`). */
  context?: string;
}

const base64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');

/** The kubeconfig document (`apiVersion: v1`, `kind: Config`) as YAML text. */
export function buildKubeconfig(spec: KubeconfigSpec): string {
  const cluster = spec.cluster ?? VENDOR;
  const user = spec.user ?? ADMIN_USER;
  const context = spec.context ?? `${user}@${cluster}`;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster, cluster: { server: spec.server, 'certificate-authority-data': base64(spec.caPem) } }],
    users: [
      {
        name: user,
        user: { 'client-certificate-data': base64(spec.clientCertPem), 'client-key-data': base64(spec.clientKeyPem) },
      },
    ],
    contexts: [{ name: context, context: { cluster, user } }],
    'current-context': context,
    preferences: {},
  });
}

/**
 * Writes {@link buildKubeconfig}'s document to `file` atomically with mode 0600 (it holds a
 * private key), creating the directory if needed.
 * @throws filesystem errors.
 */
export async function writeKubeconfig(file: string, spec: KubeconfigSpec): Promise<void> {
  await writeFileAtomic(file, buildKubeconfig(spec), PRIVATE_FILE_MODE);
}
