/**
 * The aggregation layer's flags (spec 000 § Other paths; spec 001 § Authenticating proxy flags;
 * issue #20 capability 1): `--proxy-client-cert-file` and `--proxy-client-key-file`, the identity
 * the server presents to an extension API server it proxies to, and `--enable-aggregator-routing`,
 * which routes to a Service's endpoint addresses instead of its ClusterIP. Unlike upstream, routing
 * defaults to true: nothing here programs ClusterIPs. Listed under upstream's "Misc" section.
 */
import { readFile } from 'node:fs/promises';
import type { FlagSpec } from './flag-table.js';
import { parseGoBool } from './flag-values.js';

/** The aggregation layer's flags as given ('' when a file flag is absent). */
export interface AggregatorFlags {
  /** `--proxy-client-cert-file`: PEM client certificate presented to extension API servers. */
  proxyClientCertFile: string;
  /** `--proxy-client-key-file`: PEM private key of {@link proxyClientCertFile}. */
  proxyClientKeyFile: string;
  /** `--enable-aggregator-routing` (default true): proxy to the Service's endpoint addresses rather than its ClusterIP. */
  enableAggregatorRouting: boolean;
}

/** The defaults: no proxy client certificate, routing to endpoints. */
export function defaultAggregatorFlags(): AggregatorFlags {
  return { proxyClientCertFile: '', proxyClientKeyFile: '', enableAggregatorRouting: true };
}

/** The flags, in help order (alphabetical within the section). */
export const AGGREGATOR_FLAGS: readonly FlagSpec[] = [
  {
    name: 'enable-aggregator-routing',
    section: 'Misc',
    valueType: '',
    defaultText: 'true',
    usage:
      "Send requests for an APIService backed by a Service to one of the Service's endpoint addresses instead of its cluster IP. " +
      'Defaults to true here (upstream: false) because this server programs no cluster IPs; false resolves the cluster IP (or an ExternalName).',
    apply: (d, v) => (d.aggregator.enableAggregatorRouting = parseGoBool(v)),
  },
  {
    name: 'proxy-client-cert-file',
    section: 'Misc',
    valueType: 'string',
    defaultText: '""',
    usage:
      'Client certificate the server presents when it calls out during a request, such as when it proxies a request to an extension API server. ' +
      'It should be signed by a CA of --requestheader-client-ca-file, which is published in the extension-apiserver-authentication ConfigMap of the system namespace so that extension servers can verify it.',
    apply: (d, v) => (d.aggregator.proxyClientCertFile = v),
  },
  {
    name: 'proxy-client-key-file',
    section: 'Misc',
    valueType: 'string',
    defaultText: '""',
    usage: 'Private key of the client certificate of --proxy-client-cert-file.',
    apply: (d, v) => (d.aggregator.proxyClientKeyFile = v),
  },
];

/** One reason per problem: a certificate without its key or the reverse. */
export function validateAggregatorFlags(f: AggregatorFlags): string[] {
  if ((f.proxyClientCertFile === '') !== (f.proxyClientKeyFile === '')) return ['--proxy-client-cert-file and --proxy-client-key-file must be specified together'];
  return [];
}

/** The proxy client identity read from its files, or undefined when none is set. */
export interface ProxyClientIdentity {
  certPem: string;
  keyPem: string;
}

/**
 * Reads the files of `--proxy-client-cert-file` and `--proxy-client-key-file`.
 * @throws Error naming the flag and the file when one cannot be read.
 */
export async function loadProxyClientIdentity(f: AggregatorFlags): Promise<ProxyClientIdentity | undefined> {
  if (f.proxyClientCertFile === '') return undefined;
  const read = async (flag: string, file: string) => {
    try {
      return await readFile(file, 'utf8');
    } catch (err) {
      throw new Error(`--${flag}: cannot read ${JSON.stringify(file)}: ${(err as Error).message}`, { cause: err });
    }
  };
  return { certPem: await read('proxy-client-cert-file', f.proxyClientCertFile), keyPem: await read('proxy-client-key-file', f.proxyClientKeyFile) };
}
