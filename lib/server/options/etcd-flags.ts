/**
 * The etcd client TLS flags (issue #16 § HA replicas): `--etcd-cafile`, `--etcd-certfile`,
 * `--etcd-keyfile`, with upstream's help texts (section "Etcd"), and reading the files they name.
 */
import { readFile } from 'node:fs/promises';
import type { FlagSpec } from './flag-table.js';

/** The files of the etcd client TLS; '' when the flag is absent. */
export interface EtcdTLSFlags {
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** No TLS files. */
export function defaultEtcdTLSFlags(): EtcdTLSFlags {
  return { caFile: '', certFile: '', keyFile: '' };
}

/** The Etcd TLS flags, in help order (alphabetical, as upstream's section lists them). */
export const ETCD_TLS_FLAGS: readonly FlagSpec[] = [
  {
    name: 'etcd-cafile',
    section: 'Etcd',
    valueType: 'string',
    defaultText: '""',
    usage: 'SSL Certificate Authority file used to secure etcd communication.',
    apply: (d, v) => (d.etcdTLS.caFile = v),
  },
  {
    name: 'etcd-certfile',
    section: 'Etcd',
    valueType: 'string',
    defaultText: '""',
    usage: 'SSL certification file used to secure etcd communication.',
    apply: (d, v) => (d.etcdTLS.certFile = v),
  },
  {
    name: 'etcd-keyfile',
    section: 'Etcd',
    valueType: 'string',
    defaultText: '""',
    usage: 'SSL key file used to secure etcd communication.',
    apply: (d, v) => (d.etcdTLS.keyFile = v),
  },
];

/** One reason per problem: a certificate without its key or the reverse; TLS flags with the managed etcd. */
export function validateEtcdTLSFlags(t: EtcdTLSFlags, etcdServers: string[]): string[] {
  const problems: string[] = [];
  if ((t.certFile === '') !== (t.keyFile === '')) problems.push('--etcd-certfile and --etcd-keyfile must be specified together');
  if (etcdServers.length === 0 && (t.caFile !== '' || t.certFile !== '' || t.keyFile !== '')) {
    problems.push('--etcd-cafile, --etcd-certfile and --etcd-keyfile need --etcd-servers (the managed etcd serves plain HTTP on loopback)');
  }
  return problems;
}

/**
 * The PEM bytes of the files named by the flags, or undefined when none is set.
 * @throws Error naming the flag and the file when one cannot be read.
 */
export async function loadEtcdTLS(t: EtcdTLSFlags): Promise<{ ca?: Buffer; cert?: Buffer; key?: Buffer } | undefined> {
  if (t.caFile === '' && t.certFile === '' && t.keyFile === '') return undefined;
  const read = async (flag: string, file: string): Promise<Buffer | undefined> => {
    if (file === '') return undefined;
    try {
      return await readFile(file);
    } catch (err) {
      throw new Error(`--${flag}: cannot read ${file}: ${(err as Error).message}`, { cause: err });
    }
  };
  const [ca, cert, key] = await Promise.all([read('etcd-cafile', t.caFile), read('etcd-certfile', t.certFile), read('etcd-keyfile', t.keyFile)]);
  return { ca, cert, key };
}
