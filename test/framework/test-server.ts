/**
 * A real server for integration tests (ARCHITECTURE.md § Tests): in this process, on
 * `127.0.0.1:0`, over real HTTPS with the run's PKI, against the run's etcd with its own key
 * prefix `/<uuid>/registry`; ready when `/readyz` answers 200.
 */
import { randomUUID } from 'node:crypto';
import { openSync, rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ControlPlane, type ControlPlaneConfig, startControlPlane } from '../../lib/controlplane/instance.js';
import { newLogger } from '../../lib/server/logging.js';
import type { AdmissionConfig } from '../../lib/controlplane/admission.js';
import { type AdmissionOptions, defaultAdmissionOptions } from '../../lib/admission/plugin-deps.js';
import { DEFAULT_ON_PLUGINS } from '../../lib/admission/plugins/index.js';
import { type AuthenticationOptions, defaultAuthenticationOptions } from '../../lib/server/options/authentication-options.js';
import { type AuthorizationOptions, defaultAuthorizationOptions } from '../../lib/server/options/authorization-options.js';
import { writeKubeconfig } from '../../lib/server/pki/kubeconfig.js';
import { type ServingPKI, ensureServingPKI } from '../../lib/server/pki/serving-pki.js';
import { TestClient } from './client.js';
import { useEtcd } from './etcd.js';
import { defaultFlowControlFlags, type FlowControlFlags } from '../../lib/server/options/flowcontrol-flags.js';
import { applyRuntimeConfig, EMPTY_RUNTIME_CONFIG } from '../../lib/server/options/runtime-config.js';
import { DEFAULT_ETCD_CHECK_TIMEOUT_MS } from '../../lib/server/healthz/etcd-check.js';

let pki: Promise<{ dir: string; pki: ServingPKI }> | undefined;

/** The run's PKI (generated once into a temporary directory). */
export function usePKI(): Promise<{ dir: string; pki: ServingPKI }> {
  pki ??= (async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'orch-test-pki-'));
    // Synchronously: an 'exit' listener cannot wait for a promise.
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return { dir, pki: await ensureServingPKI({ certDir: dir }) };
  })();
  return pki;
}

/** A started test server. */
export interface TestServer {
  /** `https://127.0.0.1:<port>`. */
  url: string;
  /** The etcd key prefix of this server. */
  prefix: string;
  /** Client with the admin certificate. */
  admin: TestClient;
  /** Client without credentials (anonymous). */
  anonymous: TestClient;
  /** A kubeconfig file for the admin user. */
  kubeconfig: string;
  cp: ControlPlane;
  stop(): Promise<void>;
}

/** Options of a test server. */
export type TestServerOptions = Partial<
  Pick<ControlPlaneConfig, 'shutdownDelayMs' | 'livezGracePeriodMs' | 'etcdCompactionIntervalMs' | 'etcdHealthcheckTimeoutMs' | 'etcdReadycheckTimeoutMs' | 'watchList' | 'bookmarkIntervalMs' | 'responseCompression' | 'featureGates' | 'upstreamAliases' | 'serviceNetworking' | 'resourceQuotaSyncPeriodMs' | 'crdFinalizerPollIntervalMs' | 'crdControllers' | 'audit' | 'watchCache' | 'debug' | 'leaderElection' | 'identityLease' | 'timeouts' | 'aggregator' | 'kubelet' | 'console'>
> & {
  /**
   * Flow-control flags over the defaults, except that `--max-event-loop-delay` defaults to 0
   * (off): a test server shares the test runner's event loop, whose delay is the runner's too.
   */
  flowControl?: Partial<FlowControlFlags>;
  /** Authentication flags over the defaults (`--anonymous-auth` and the rest). */
  authentication?: Partial<AuthenticationOptions>;
  /** Authorization flags over the defaults (`--authorization-mode` and the rest). */
  authorization?: Partial<AuthorizationOptions>;
  /** `--anonymous-auth` (shorthand for `authentication.anonymousAuth`). */
  anonymousAuth?: boolean;
  /** `--token-auth-file` (shorthand for `authentication.tokenAuthFile`). */
  tokenAuthFile?: string;
  /** Static token file content (written to a temporary file). */
  tokens?: string;
  /** Use this key prefix instead of a fresh one (to restart a server over the same data). */
  prefix?: string;
  /** etcd members to use instead of the run's etcd (an etcd started with other flags). */
  etcdEndpoints?: string[];
  /**
   * `--controllers` (default none, unlike the binary's `[*]`: as upstream's integration tests run
   * the API server without a controller manager, a fresh namespace stays empty; pass `['*']` for
   * the binary's default set). The namespace controller is appended, so namespaces finish
   * deleting unless the list disables it (`-namespace`).
   */
  controllers?: string[];
  /**
   * Admission: `plugins` is the exact set of enabled plugins (they run in the server's fixed
   * order; default NamespaceLifecycle and NodeRestriction, so suites about other things see no
   * defaulting by plugins — as upstream's integration tests disable most), `configFile`
   * (`--admission-control-config-file`) and the toleration flags.
   */
  admission?: { plugins?: readonly string[]; configFile?: string; options?: Partial<AdmissionOptions> };
  /** `--runtime-config` as on the command line (`api/all=false,v1=true`); default: none. */
  runtimeConfig?: string;
};

/** The plugins a test server enables unless told otherwise. */
export const TEST_ADMISSION_PLUGINS: readonly string[] = ['NamespaceLifecycle', 'NodeRestriction'];

/** The control plane's admission flags that enable exactly `plugins`. */
function admissionConfig(a: NonNullable<TestServerOptions['admission']> = {}): AdmissionConfig {
  const plugins = a.plugins ?? TEST_ADMISSION_PLUGINS;
  return {
    enablePlugins: [...plugins],
    disablePlugins: DEFAULT_ON_PLUGINS.filter((p) => !plugins.includes(p)),
    configFile: a.configFile,
    options: { ...defaultAdmissionOptions(), ...a.options },
  };
}

/** Starts a server; resolves when `/readyz` is 200. */
export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const endpoints = opts.etcdEndpoints ?? [(await useEtcd()).endpoint];
  const { pki: p } = await usePKI();
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'orch-test-server-'));
  let tokenAuthFile = opts.tokenAuthFile;
  if (opts.tokens !== undefined) {
    tokenAuthFile = path.join(tmp, 'tokens.csv');
    await writeFile(tokenAuthFile, opts.tokens);
  }
  const prefix = opts.prefix ?? `/${randomUUID()}/registry`;
  // A start that fails (a test of a refused configuration) leaves no directory behind.
  const cp = await startControlPlane({
    etcdEndpoints: endpoints,
    etcdPrefix: prefix,
    etcdCompactionIntervalMs: opts.etcdCompactionIntervalMs ?? 0,
    etcdHealthcheckTimeoutMs: opts.etcdHealthcheckTimeoutMs ?? DEFAULT_ETCD_CHECK_TIMEOUT_MS,
    etcdReadycheckTimeoutMs: opts.etcdReadycheckTimeoutMs ?? DEFAULT_ETCD_CHECK_TIMEOUT_MS,
    bindAddress: '127.0.0.1',
    securePort: 0,
    tls: { certPem: p.servingCertPem, keyPem: p.servingKeyPem, clientCAPem: p.caCertPem },
    authentication: {
      ...defaultAuthenticationOptions(),
      ...opts.authentication,
      ...(opts.anonymousAuth !== undefined && { anonymousAuth: opts.anonymousAuth }),
      ...(tokenAuthFile !== undefined && { tokenAuthFile }),
    },
    authorization: { ...defaultAuthorizationOptions(), ...opts.authorization },
    shutdownDelayMs: opts.shutdownDelayMs ?? 0,
    livezGracePeriodMs: opts.livezGracePeriodMs ?? 0,
    watchList: opts.watchList ?? false,
    responseCompression: opts.responseCompression ?? true,
    featureGates: opts.featureGates,
    upstreamAliases: opts.upstreamAliases ?? true,
    bookmarkIntervalMs: opts.bookmarkIntervalMs,
    serviceNetworking: opts.serviceNetworking,
    leaderElection: opts.leaderElection,
    identityLease: opts.identityLease,
    timeouts: opts.timeouts,
    kubelet: opts.kubelet,
    controllers: [...(opts.controllers ?? []), 'namespace'],
    resourceQuotaSyncPeriodMs: opts.resourceQuotaSyncPeriodMs,
    // Deleted CRDs' objects are checked for often, so that tests do not wait upstream's 5 s.
    crdFinalizerPollIntervalMs: opts.crdFinalizerPollIntervalMs ?? 100,
    crdControllers: opts.crdControllers,
    aggregator: opts.aggregator,
    // The web console (issue #22): off unless asked (`{}`: the built dist/console).
    console: opts.console,
    flowControl: { ...defaultFlowControlFlags(), maxEventLoopDelayMs: 0, ...opts.flowControl },
    audit: opts.audit,
    watchCache: opts.watchCache,
    debug: opts.debug,
    admission: admissionConfig(opts.admission),
    ...(opts.runtimeConfig !== undefined && { runtimeConfig: applyRuntimeConfig(EMPTY_RUNTIME_CONFIG, opts.runtimeConfig) }),
    rootCAPem: p.caCertPem,
    log: newLogger(process.env.TEST_LOG_VERBOSITY ? Number(process.env.TEST_LOG_VERBOSITY) : 0, process.env.TEST_LOG ? 2 : openDevNull()),
  }).catch(async (err: unknown) => {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  });
  const url = `https://127.0.0.1:${cp.server.port}`;
  const admin = new TestClient(url, p.caCertPem, { cert: p.adminCertPem, key: p.adminKeyPem });
  const kubeconfig = path.join(tmp, 'admin.kubeconfig');
  await writeKubeconfig(kubeconfig, { server: url, caPem: p.caCertPem, clientCertPem: p.adminCertPem, clientKeyPem: p.adminKeyPem });
  for (let i = 0; ; i++) {
    const res = await admin.get('/readyz');
    if (res.status === 200) break;
    if (i > 200) throw new Error(`test server not ready: ${res.text}`);
    await sleep(50);
  }
  return {
    url,
    prefix,
    admin,
    anonymous: admin.as({}),
    kubeconfig,
    cp,
    async stop() {
      await cp.stop();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}

let devNull: number | undefined;
function openDevNull(): number {
  devNull ??= openSync('/dev/null', 'w');
  return devNull;
}

/**
 * Mocha helper: a server started before the suite's tests and stopped after them. Use the
 * returned getter inside tests: `const server = useTestServer(); … server().admin.get(…)`.
 */
export function useTestServer(opts: TestServerOptions = {}): () => TestServer {
  let s: TestServer | undefined;
  before(async function () {
    this.timeout(60_000);
    s = await startTestServer(opts);
  });
  after(async () => {
    await s?.stop();
  });
  return () => {
    if (!s) throw new Error('test server not started');
    return s;
  };
}
