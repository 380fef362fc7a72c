/**
 * The kubelet client flags of the Misc section (issue #20; upstream kube-apiserver's
 * `KubeletConfig` flags, help texts as upstream): `--kubelet-client-certificate`,
 * `--kubelet-client-key`, `--kubelet-certificate-authority`, `--kubelet-preferred-address-types`
 * (default `Hostname,InternalDNS,InternalIP,ExternalDNS,ExternalIP`) and `--kubelet-timeout`
 * (default 5s). The connect subresources reach kubelets with them (spec 000 § Verb mapping).
 */
import { readFile } from 'node:fs/promises';
import { formatDuration, parseDuration } from '../../apimachinery/duration.js';
import type { KubeletClientConfig } from '../../registry/core/connect/kubelet-connection.js';
import type { FlagSpec } from './flag-table.js';
import { optionalPath, parseStringSlice } from './flag-values.js';

/** The flags as given (paths, not yet read). */
export interface KubeletClientFlags {
  clientCertificate?: string;
  clientKey?: string;
  certificateAuthority?: string;
  preferredAddressTypes: string[];
  /** `--kubelet-timeout` in milliseconds. */
  timeoutMs: number;
}

/** Upstream's default preference of node address types. */
export const DEFAULT_PREFERRED_ADDRESS_TYPES: readonly string[] = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

/** Upstream's defaults: no client certificate or CA, the default address preference, 5s. */
export function defaultKubeletClientFlags(): KubeletClientFlags {
  return { preferredAddressTypes: [...DEFAULT_PREFERRED_ADDRESS_TYPES], timeoutMs: 5000 };
}

/**
 * The kubelet client configuration: the flags with the certificate, key and CA files read.
 * @throws Error naming the flag and the file when one cannot be read.
 */
export async function kubeletClientConfig(f: KubeletClientFlags): Promise<KubeletClientConfig> {
  const read = async (flag: string, file: string | undefined) => {
    if (file === undefined) return undefined;
    try {
      return await readFile(file, 'utf8');
    } catch (err) {
      throw new Error(`--${flag}: ${(err as Error).message}`, { cause: err });
    }
  };
  const [certPem, keyPem, caPem] = await Promise.all([read('kubelet-client-certificate', f.clientCertificate), read('kubelet-client-key', f.clientKey), read('kubelet-certificate-authority', f.certificateAuthority)]);
  return {
    ...(certPem !== undefined && { certPem }),
    ...(keyPem !== undefined && { keyPem }),
    ...(caPem !== undefined && { caPem }),
    preferredAddressTypes: f.preferredAddressTypes,
    timeoutMs: f.timeoutMs,
  };
}

/** The flags, in upstream's help order. */
export const KUBELET_FLAGS: readonly FlagSpec[] = [
  {
    name: 'kubelet-certificate-authority',
    section: 'Misc',
    valueType: 'string',
    defaultText: '""',
    usage: 'Path to a cert file for the certificate authority.',
    apply: (d, v) => (d.kubelet.certificateAuthority = optionalPath(v)),
  },
  {
    name: 'kubelet-client-certificate',
    section: 'Misc',
    valueType: 'string',
    defaultText: '""',
    usage: 'Path to a client cert file for TLS.',
    apply: (d, v) => (d.kubelet.clientCertificate = optionalPath(v)),
  },
  {
    name: 'kubelet-client-key',
    section: 'Misc',
    valueType: 'string',
    defaultText: '""',
    usage: 'Path to a client key file for TLS.',
    apply: (d, v) => (d.kubelet.clientKey = optionalPath(v)),
  },
  {
    name: 'kubelet-preferred-address-types',
    section: 'Misc',
    valueType: 'strings',
    defaultText: `[${DEFAULT_PREFERRED_ADDRESS_TYPES.join(',')}]`,
    usage: 'List of the preferred NodeAddressTypes to use for kubelet connections.',
    apply: (d, v) => (d.kubelet.preferredAddressTypes = parseStringSlice(v)),
  },
  {
    name: 'kubelet-timeout',
    section: 'Misc',
    valueType: 'duration',
    defaultText: formatDuration(5000),
    usage: 'Timeout for kubelet operations.',
    apply: (d, v) => (d.kubelet.timeoutMs = parseDuration(v)),
  },
];
