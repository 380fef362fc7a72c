#!/usr/bin/env node
/**
 * The `orch-apiserver` command: flags → options → TLS material (generated PKI unless given) →
 * etcd (the given cluster, or a managed local one under `--data-dir`) → control plane; stops
 * gracefully on SIGINT/SIGTERM (issue #2 items 1–3). `orch-apiserver convert …` runs the offline
 * manifest converter instead (lib/cmd/convert.ts; issue #15 item 7).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN_USER, SERVER_NAME } from '../apis/vendor.js';
import { startControlPlane } from '../controlplane/instance.js';
import { readAllStdin, runConvert } from './convert.js';
import { type ManagedEtcd, startManagedEtcd } from '../server/etcd/managed-etcd.js';
import { type LoggingFormat, newLogger } from '../server/logging.js';
import { FlagError, HelpRequested, formatHelp, parseServerFlags } from '../server/options/flags.js';
import { loadEtcdTLS } from '../server/options/etcd-flags.js';
import type { ServerOptions } from '../server/options/server-options.js';
import { writeKubeconfig } from '../server/pki/kubeconfig.js';
import { ensureServingPKI } from '../server/pki/serving-pki.js';

/** TLS material and, when generated here, the admin client identity. */
interface TLSMaterial {
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

async function tlsMaterial(o: ServerOptions): Promise<TLSMaterial> {
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

async function main(argv: string[]): Promise<void> {
  let o: ServerOptions;
  try {
    o = parseServerFlags(argv);
  } catch (err) {
    if (err instanceof HelpRequested) {
      process.stdout.write(formatHelp());
      return;
    }
    if (err instanceof FlagError) {
      process.stderr.write(`Error: ${err.message}\n`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
  const log = newLogger(o.verbosity, 2, o.logging.format as LoggingFormat);
  for (const warning of o.featureGates.warnings) log.warn(warning);
  const tls = await tlsMaterial(o);
  let etcd: ManagedEtcd | undefined;
  let endpoints = o.etcdServers;
  if (endpoints.length === 0) {
    etcd = await startManagedEtcd({ dataDir: o.dataDir, binary: o.etcdBinary, logger: log });
    endpoints = [etcd.endpoint];
    log.info({ endpoint: etcd.endpoint, dataDir: etcd.etcdDataDir }, 'started managed etcd');
  }
  const cp = await startControlPlane({
    etcdEndpoints: endpoints,
    etcdTLS: await loadEtcdTLS(o.etcdTLS),
    etcdPrefix: o.etcdPrefix,
    etcdCompactionIntervalMs: o.etcdCompactionIntervalMs,
    bindAddress: o.bindAddress,
    securePort: o.securePort,
    tls,
    authentication: o.authentication,
    authorization: o.authorization,
    admission: { enablePlugins: o.admission.enablePlugins, disablePlugins: o.admission.disablePlugins, configFile: o.admission.configFile || undefined, options: o.admission.options },
    shutdownDelayMs: o.shutdownDelayMs,
    livezGracePeriodMs: o.livezGracePeriodMs,
    featureGates: o.featureGates.gates,
    upstreamAliases: o.upstreamAliases,
    showHiddenMetrics: o.showHiddenMetricsForVersion !== '',
    flowControl: o.flowControl,
    audit: o.audit.policyFile ? o.audit : undefined,
    controllers: o.controllers,
    runtimeConfig: o.runtimeConfig,
    serviceNetworking: o.serviceNetworking,
    leaderElection: o.leaderElection,
    timeouts: o.timeouts,
    watchCache: o.watchCache,
    debug: { profiling: o.logging.profiling, logsHandler: o.logging.enableLogsHandler },
    rootCAPem: tls.rootCAPem,
    log,
  }).catch(async (err: unknown) => {
    await etcd?.stop();
    throw err;
  });
  if (tls.admin) {
    const file = path.join(o.dataDir, 'admin.kubeconfig');
    await writeKubeconfig(file, {
      server: `https://127.0.0.1:${cp.server.port}`,
      caPem: tls.admin.caPem,
      clientCertPem: tls.admin.certPem,
      clientKeyPem: tls.admin.keyPem,
      user: ADMIN_USER,
    });
    log.info({ kubeconfig: file }, 'wrote admin kubeconfig');
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting immediately');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'stopping');
    void (async () => {
      await cp.stop();
      await etcd?.stop();
      log.flush();
      process.exit(0);
    })();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

const args = process.argv.slice(2);
if (args[0] === 'convert') {
  process.exitCode = await runConvert(args.slice(1), {
    readStdin: readAllStdin,
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
} else {
  main(args).catch((err: unknown) => {
    process.stderr.write(`${SERVER_NAME}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
