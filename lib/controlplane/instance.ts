/**
 * The control plane instance: our server's wiring — storage over etcd, the served resources,
 * admission plugins in order, the authenticator and authorizer unions, health checks and
 * post-start hooks (bootstrap namespaces, namespace controller, compaction).
 */
import { setMaxListeners } from 'node:events';
import { Informer } from '../client/informer.js';
import { runNamespaceController } from '../controllers/namespace/controller.js';
import { APISERVICE_REGISTRATION_HOOK, apiServiceRegistration } from '../controllers/apiservice-registration/controller.js';
import type { ResourceEntry } from '../endpoints/handlers/scope.js';
import { APIInstaller, versionEntry } from '../endpoints/installer.js';
import { internalContext } from '../request/context.js';
import { APISERVER_USER, MASTERS_GROUP } from '../request/user.js';
import type { ResourceStorage } from '../registry/generic/resource-storage.js';
import { GenericAPIServer } from '../server/generic-server.js';
import { rateLimitedEtcdCheck } from '../server/healthz/etcd-check.js';
import { ServerMetrics } from '../server/metrics.js';
import { Cacher } from '../storage/cacher/cacher.js';
import { DEFAULT_WINDOW } from '../storage/cacher/watch-cache.js';
import type { DebugConfig } from '../server/debug/routes.js';
import { DEFAULT_LOGS_DIR } from '../server/debug/logs.js';
import { defaultWatchCacheFlags, type WatchCacheFlags, watchCachePolicy } from '../server/options/watch-cache-flags.js';
import { defaultTimeoutFlags, type TimeoutFlags } from '../server/options/timeout-flags.js';
import { PostStartHooks } from '../server/hooks.js';
import { infoV, type Logger } from '../server/logging.js';
import { type EtcdTLS, newEtcdClient } from '../storage/etcd3/client.js';
import { startCompactor } from '../storage/etcd3/compactor.js';
import { Etcd3Storage } from '../storage/etcd3/store.js';
import { ObjectCodec } from '../storage/etcd3/codec.js';
import { canonicalize, sortedDeep } from '../apimachinery/schema/canonical.js';
import { carryJSONBody, forgetJSONBody } from '../apimachinery/serializers/json-cache.js';
import { beginEtcdCleanup } from './etcd-cleanup.js';
import { setUpAPIExtensions } from './apiextensions.js';
import { upgradeStoredObject } from '../apis/migration/stored.js';
import { CustomResourceStores } from './custom-resource-stores.js';
import type { KindDefinition } from '../apis/define.js';
import type { AuthenticationOptions } from '../server/options/authentication-options.js';
import { type FeatureGates, resolveFeatureGates } from '../server/options/feature-gates.js';
import { buildAuthentication } from './authentication.js';
import { buildAuthorization } from './authorization.js';
import { newNodeInformers } from './node-authorization.js';
import type { AuthorizationOptions } from '../server/options/authorization-options.js';
import { newControllers, retryUntilDone, serverURLOf } from './controllers.js';
import { createOnlyResources, gatedOff, readOnlyResources, servedResources } from './resources.js';
import { addConnecters } from '../registry/core/connect/index.js';
import type { KubeletClientConfig } from '../registry/core/connect/kubelet-connection.js';
import { DEFAULT_PREFERRED_ADDRESS_TYPES, defaultKubeletClientFlags } from '../server/options/kubelet-flags.js';
import { type APIEnablement, resolveAPIEnablement } from './api-enablement.js';
import { EMPTY_RUNTIME_CONFIG, type RuntimeConfig } from '../server/options/runtime-config.js';
import { legacyPodCreaters } from '../registry/core/pod/storage.js';
import { addTokenRequest, legacyTokenSigner, serviceAccountDeps } from './service-accounts.js';
import { ensureSystemNamespaces } from './system-namespaces.js';
import type { AdmissionChain } from '../admission/chain.js';
import { type AdmissionConfig, buildAdmissionChain, defaultAdmissionConfig } from './admission.js';
import { SharedInformers } from './informers.js';
import { newServiceNetworking, type ServiceNetworking, type ServiceNetworkingConfig } from './service-networking.js';
import { newFlowControl } from './flowcontrol.js';
import { ObjectCounts } from '../flowcontrol/work-estimator.js';
import type { FlowControlFlags } from '../server/options/flowcontrol-flags.js';
import { LeaderTasks } from '../controllers/leaderelection/tasks.js';
import { vendorGroup } from '../apis/vendor.js';
import { newServerIdentity, type ServerIdentity } from '../server/identity.js';
import type { LeaderElectionOptions } from '../server/options/leader-election-flags.js';
import { wireLeaderElection } from './leader-election.js';
import { buildAuditPipeline } from '../audit/pipeline.js';
import type { AuditOptions } from '../audit/options.js';
import { addIdentityLeaseHooks, type IdentityLeaseTimings } from './apiserver-identity.js';
import { type AggregatorOptions, newAggregation } from './aggregator.js';
import { defaultConsoleDir, loadConsoleFiles } from '../server/console.js';

/** Configuration of the control plane (resolved options). */
export interface ControlPlaneConfig {
  etcdEndpoints: string[];
  /** Client TLS towards etcd (`--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`); absent: plain or system-root TLS by URL scheme. */
  etcdTLS?: EtcdTLS;
  etcdPrefix: string;
  /** 0 disables compaction. */
  etcdCompactionIntervalMs: number;
  /** `--etcd-healthcheck-timeout` and `--etcd-readycheck-timeout`, in ms (> 0): the `etcd` and `etcd-readiness` health checks. */
  etcdHealthcheckTimeoutMs: number;
  etcdReadycheckTimeoutMs: number;
  bindAddress: string;
  securePort: number;
  /**
   * Serving certificate and key; `clientCAPem`: the CAs of user client certificates
   * (`--client-ca-file`, plus the generated CA). The listener also accepts the request-header CA.
   */
  tls: { certPem: string; keyPem: string; clientCAPem?: string };
  /** The Authentication flags. */
  authentication: AuthenticationOptions;
  /** The Authorization flags. */
  authorization: AuthorizationOptions;
  /** The Admission flags (default: the default plugin set, upstream's toleration seconds). */
  admission?: AdmissionConfig;
  shutdownDelayMs: number;
  livezGracePeriodMs: number;
  /**
   * `--feature-gates`: the gates that differ from upstream v1.30's defaults
   * (lib/server/options/feature-gates.ts); `watchList` and `responseCompression` override theirs.
   */
  featureGates?: Partial<FeatureGates>;
  /** The WatchList feature gate (`sendInitialEvents` on watches; default from `featureGates`). */
  watchList?: boolean;
  /** The APIResponseCompression feature gate (default from `featureGates`: on). */
  responseCompression?: boolean;
  /**
   * `--upstream-aliases` (default true): serve every vendor API group under its upstream alias
   * too, with the meta and discovery aliases and the upstream protobuf media type (issue #9).
   */
  upstreamAliases?: boolean;
  /** `--show-hidden-metrics-for-version` was given (validated): deprecated metrics hidden in this release are exported again. */
  showHiddenMetrics?: boolean;
  /**
   * `--runtime-config`: which built-in group versions and resources are served (default: the GA
   * ones and the deprecated betas still on; lib/controlplane/api-enablement.ts). A bad key or value
   * fails the start with upstream's message.
   */
  runtimeConfig?: RuntimeConfig;
  /** Interval of periodic watch BOOKMARKs (ms; default one minute). */
  bookmarkIntervalMs?: number;
  /** `--controllers`: which in-process controllers run (default `[*]`; lib/server/options/controllers.ts). */
  controllers?: readonly string[];
  /** The resource quota controller's full recount period (ms; default 5 min). */
  resourceQuotaSyncPeriodMs?: number;
  /** How often the CRD finalizer checks that a deleted CRD's objects are gone (ms; default upstream's 5 s). */
  crdFinalizerPollIntervalMs?: number;
  /**
   * Run the CRD naming, establishing and finalizer controllers (default true; upstream has no
   * switch: only tests that pin a CRD's bytes before any controller wrote to it turn them off).
   */
  crdControllers?: boolean;
  /**
   * PEM CA bundle that verifies the serving certificate: the root CA ConfigMap of every
   * namespace and the `cluster-info` CA. Absent: the controllers that publish it do not run.
   */
  rootCAPem?: string;
  /** The `https://host:port` clients reach the server at (`cluster-info`); default from the bind address and the bound port. */
  advertiseURL?: string;
  /** `--service-cluster-ip-range`, `--service-node-port-range`, `--advertise-address` (and timings tests shorten). */
  serviceNetworking?: ServiceNetworkingConfig;
  /** `--watch-cache`, `--watch-cache-sizes` (default: cached, except events as upstream; issue #16 item 6). */
  watchCache?: WatchCacheFlags;
  /**
   * `--profiling` (`/debug/pprof/`) and `--enable-logs-handler` (`/logs/` over `logsDir`); default:
   * profiling on, the logs handler off, over `/var/log` (issue #16 item 7).
   */
  debug?: Partial<DebugConfig>;
  /**
   * The `--leader-elect*` flags (issue #16): absent or `leaderElect: false`, the once-per-cluster
   * controllers run in this server unconditionally; else only while it holds the Lease.
   */
  leaderElection?: LeaderElectionOptions;
  /** `--request-timeout`, `--min-request-timeout` (issue #19 item 3; default upstream's 1m0s and 1800). */
  timeouts?: TimeoutFlags;
  /** How the connect subresources reach kubelets (`--kubelet-*`; issue #20); default: no client certificate, kubelets not verified, upstream's address preference and 5 s. */
  kubelet?: KubeletClientConfig;
  /** Identity lease timings of the APIServerIdentity gate (default upstream's 3600 s, 10 s, 1 h; tests shorten them). */
  identityLease?: IdentityLeaseTimings;
  /** `--enable-priority-and-fairness`, `--max-requests-inflight`, `--max-mutating-requests-inflight` (default upstream's: APF over 400 + 200 seats). */
  flowControl?: FlowControlFlags;
  /** The audit flags (`--audit-policy-file`, `--audit-log-*`, `--audit-webhook-*`; lib/audit/options.ts); absent: no auditing. */
  audit?: AuditOptions;
  /** Listen only once every post-start hook has finished (a server worker; lib/server/generic-server.ts). */
  listenWhenReady?: boolean;
  /** The aggregation layer (`--proxy-client-*`, `--enable-aggregator-routing`; issue #20; default: routing on, no client certificate). */
  aggregator?: AggregatorOptions;
  /**
   * The web console at `/console/` (`--console`; issue #22): served from `dir` (default
   * `dist/console` under the package root); absent: not served.
   */
  console?: { dir?: string };
  log: Logger;
}

/** A running control plane. */
export interface ControlPlane {
  server: GenericAPIServer;
  /** The admission chain the handlers run (benchmarks time it in process). */
  admission: AdmissionChain;
  /** This server's identity (identity Lease name, leader-election identity). */
  identity: ServerIdentity;
  /** Resolves once every post-start hook has finished (what `/readyz` waits for besides etcd); stays pending while one has failed. */
  postStartHooksDone(): Promise<void>;
  /**
   * Graceful shutdown of the server, then its loops and the etcd client; the etcd clean-up writes
   * in between are skipped when etcd is unreachable and each bounded otherwise (etcd-cleanup.ts).
   */
  stop(): Promise<void>;
}

function entryOf(r: ResourceStorage): ResourceEntry {
  return {
    kind: r.store.strategy.kind,
    store: r.store,
    subresources: r.subresources,
    creaters: r.creaters,
    updaters: r.updaters,
    connecters: r.connecters,
    selectableFields: new Set(r.store.strategy.fieldLabels()),
  };
}

/** Builds and starts the control plane; resolves once it listens. */
export async function startControlPlane(cfg: ControlPlaneConfig): Promise<ControlPlane> {
  const watchCacheFlags = cfg.watchCache ?? defaultWatchCacheFlags();
  const timeouts = cfg.timeouts ?? defaultTimeoutFlags();
  const watchCache = watchCachePolicy(watchCacheFlags);
  const client = newEtcdClient(cfg.etcdEndpoints, cfg.etcdTLS);
  const storage = new Etcd3Storage(client);
  let networking: ServiceNetworking;
  try {
    networking = newServiceNetworking(cfg.serviceNetworking ?? {}, storage, cfg.etcdPrefix, cfg.log);
  } catch (err) {
    client.close();
    throw err;
  }
  const metrics = new ServerMetrics({ showHidden: cfg.showHiddenMetrics ?? false });
  metrics.storage.sizeSource = () => storage.dbSize();
  const objectCounts = new ObjectCounts();
  const cachers: Cacher[] = [];
  const storageFor = (keyRoot: string, kind: KindDefinition) => {
    const resource = keyRoot.slice(keyRoot.lastIndexOf('/') + 1);
    const rm = metrics.resourceMetrics(keyRoot, cfg.etcdPrefix);
    // A value an older server wrote in a version since removed is read in the kind's version (spec 001 § Removed API versions).
    const delegate = new Etcd3Storage(client, new ObjectCodec((obj) => canonicalize(kind.schema, upgradeStoredObject(kind, obj))), rm.etcd);
    // Uncached resources (`--watch-cache-sizes=<resource>#0`, events by default) are read and watched from etcd directly.
    const choice = watchCache.choose(kind.group, kind.resource);
    if (!choice.cached) return delegate;
    const indexed = kind.watchIndexField;
    const indexValue = indexed ? kind.fieldSelectors[indexed] : undefined;
    const cacher = new Cacher({
      ...(indexed && indexValue && { indexField: { name: indexed, valueOf: indexValue } }),
      delegate,
      prefix: `${keyRoot}/`,
      ...(choice.maxEvents !== undefined && { window: { ...DEFAULT_WINDOW, maxEvents: choice.maxEvents } }),
      bookmarkIntervalMs: cfg.bookmarkIntervalMs,
      metrics: rm.cacher(choice.maxEvents ?? DEFAULT_WINDOW.maxEvents),
      onStats: (s) => {
        rm.onStats(s);
        objectCounts.set(kind.group, kind.resource, s.objects);
      },
      onError: (err) => cfg.log.warn({ err, resource }, 'watch cache reflector failed; retrying'),
      onWatcherTerminated: (w) => infoV(cfg.log, 1, { resource, ...w }, 'Forcing watcher close due to unresponsiveness'),
      onSuperseded: forgetJSONBody,
      onReplacing: carryJSONBody,
      // The caches the start reads (its informers') start then; the others once the hooks are done, below.
      startOnFirstUse: true,
    });
    cachers.push(cacher);
    return cacher;
  };
  const gates = resolveFeatureGates(cfg.featureGates);
  const resources = servedResources(storageFor, cfg.etcdPrefix, networking.allocators, gates);
  addConnecters(resources, cfg.kubelet ?? { preferredAddressTypes: DEFAULT_PREFERRED_ADDRESS_TYPES, timeoutMs: defaultKubeletClientFlags().timeoutMs });
  const namespaces = resources[0]!;
  const loops = new AbortController();
  // Every informer and controller loop of the server listens to this one signal.
  setMaxListeners(0, loops.signal);
  const onError = (what: string) => (err: unknown) => cfg.log.error({ err }, what);
  // One identity per server (issue #16): identity lease, reload metrics, leader election.
  const identity = newServerIdentity();

  const sys = internalContext({ name: APISERVER_USER, groups: [MASTERS_GROUP] });
  const namespaceInformer = new Informer(namespaces.store.storage, namespaces.store.prefixFor(''), onError('namespace informer'));
  // Pods and nodes: the Node authorizer's graph and NodeRestriction read them.
  const nodeInformers = newNodeInformers(resources, sys, onError);

  const customResourceStores = new CustomResourceStores();
  const controllers = newControllers({
    resources,
    customResources: customResourceStores,
    controllers: cfg.controllers,
    resourceQuotaSyncPeriodMs: cfg.resourceQuotaSyncPeriodMs,
    bootstrapTokenAuth: cfg.authentication.enableBootstrapTokenAuth,
    rootCAPem: cfg.rootCAPem,
    legacyTokenSigner: () => legacyTokenSigner(authentication.serviceAccounts),
    serverURL: () => cfg.advertiseURL ?? serverURLOf(cfg.bindAddress, server.port),
    ctx: sys,
    signal: loops.signal,
    log: cfg.log,
  });
  /** A start-up failure: stops what was started so far (informers, caches, the etcd client), then rethrows. */
  const abandon = (err: unknown, ...started: Array<{ stop(): void } | undefined>): never => {
    for (const s of started) s?.stop();
    loops.abort();
    for (const c of cachers) c.stop();
    client.close();
    throw err;
  };
  const audit = cfg.audit ? await buildAuditPipeline(cfg.audit, metrics.stability, cfg.log).catch((err: unknown) => abandon(err)) : undefined;
  const authorization = await buildAuthorization(cfg.authorization, { resources, nodeGraph: { pods: nodeInformers.pods }, log: cfg.log, metrics, apiServerIDHash: identity.idHash }).catch((err: unknown) => abandon(err));
  const authentication = await buildAuthentication(cfg.authentication, authorization.modes, {
    systemSecrets: controllers.systemSecrets,
    log: cfg.log,
    clientCAPem: cfg.tls.clientCAPem,
    serviceAccounts: serviceAccountDeps(resources, cfg.tls.keyPem, sys, onError('legacy service account token tracking')),
    metrics,
    apiServerIDHash: identity.idHash,
  }).catch((err: unknown) => abandon(err, authorization));
  const informers = new SharedInformers(resources, onError);
  informers.adopt('', 'namespaces', namespaceInformer, true);
  informers.adopt('', 'pods', nodeInformers.pods, true);
  informers.adopt('', 'nodes', nodeInformers.nodes, true);
  const aggregation = newAggregation(cfg.aggregator, { informers, authentication: cfg.authentication, clientCAPem: cfg.tls.clientCAPem, ctx: sys, signal: loops.signal, log: cfg.log, metrics: metrics.stability });
  const admission = await buildAdmissionChain(cfg.admission ?? defaultAdmissionConfig(), {
    resources,
    informers,
    authorizer: authorization.authorizer,
    systemContext: sys,
    signal: loops.signal,
    log: cfg.log,
    metrics: metrics.admission,
  }).catch((err: unknown) => abandon(err, authentication, authorization));
  const installer = new APIInstaller(admission, {
    watchList: cfg.watchList ?? gates.WatchList,
    responseCompression: cfg.responseCompression ?? gates.APIResponseCompression,
    upstreamAliases: cfg.upstreamAliases ?? true,
    minRequestTimeoutSeconds: timeouts.minRequestTimeoutSeconds,
    authorizer: authorization.authorizer,
  }, metrics);
  const saDiscovery = authentication.serviceAccounts?.discovery;
  if (saDiscovery && 'error' in saDiscovery) cfg.log.warn({ err: saDiscovery.error }, 'service account issuer discovery is not served');
  if (authentication.serviceAccounts) addTokenRequest(resources, authentication.serviceAccounts, cfg.authentication);
  const stored = resources.map(entryOf);
  // The other versions of stored kinds (issue #12) after every stored version: preferred versions first.
  const versions = resources.flatMap((r) => (r.versions ?? []).map(versionEntry));
  const createOnly = [...createOnlyResources(authentication.authenticator, authorization), ...legacyPodCreaters(resources)];
  const readOnly = readOnlyResources(() => storage.currentRevision());
  // `--runtime-config` decides which of them are installed (issue #15 item 2); the others answer 404.
  const kinds = [...stored, ...versions, ...createOnly, ...readOnly].map((e) => e.kind);
  let enabled: APIEnablement;
  try {
    enabled = resolveAPIEnablement(cfg.runtimeConfig ?? EMPTY_RUNTIME_CONFIG, kinds);
  } catch (err) {
    return abandon(err, authentication, authorization);
  }
  const served = (k: KindDefinition) => enabled.resourceEnabled(k.group, k.version, k.resource) && !gatedOff(k, gates);
  for (const e of [...stored, ...versions]) if (served(e.kind)) installer.install(e);
  for (const c of createOnly) if (served(c.kind)) installer.installCreater(c);
  for (const l of readOnly) if (served(l.kind)) installer.installReadOnly(l);

  const hooks = new PostStartHooks();
  // The ~60 caches' first lists and watches compete with the hooks for the one event loop: those
  // no hook reads start once the hooks are done, one after another, so that the loop stays free
  // for the requests that come then (issue #22 § Ready in under a second).
  void hooks.whenDone().then(async () => {
    for (const c of cachers) await c.start();
  });
  // Custom resources: one watch cache per CRD, objects stored with every object's keys sorted (Go's map order).
  const customResources = setUpAPIExtensions(
    {
      resources,
      informers,
      installer,
      prefix: cfg.etcdPrefix,
      newStorage(keyRoot) {
        const resource = keyRoot.slice(keyRoot.lastIndexOf('/') + 1);
        const rm = metrics.resourceMetrics(keyRoot, cfg.etcdPrefix);
        const delegate = new Etcd3Storage(client, new ObjectCodec((obj) => sortedDeep(obj) as typeof obj), rm.etcd);
        // `--watch-cache=false` applies to custom resources too; their sizes are not consulted, as upstream.
        if (!watchCacheFlags.enabled) return { storage: delegate, stop: () => undefined };
        const cacher = new Cacher({
          delegate,
          prefix: `${keyRoot}/`,
          bookmarkIntervalMs: cfg.bookmarkIntervalMs,
          metrics: rm.cacher(DEFAULT_WINDOW.maxEvents),
          onStats: rm.onStats,
          onError: (err) => cfg.log.warn({ err, resource }, 'watch cache reflector failed; retrying'),
          onWatcherTerminated: (w) => infoV(cfg.log, 1, { resource, ...w }, 'Forcing watcher close due to unresponsiveness'),
          onSuperseded: forgetJSONBody,
          onReplacing: carryJSONBody,
        });
        return { storage: cacher, stop: () => cacher.stop() };
      },
      ctx: sys,
      signal: loops.signal,
      log: cfg.log,
      ...(cfg.crdFinalizerPollIntervalMs ? { finalizerPollIntervalMs: cfg.crdFinalizerPollIntervalMs } : {}),
      controllers: cfg.crdControllers ?? true,
      customResources: { ratcheting: gates.CRDValidationRatcheting, selectableFields: gates.CustomResourceFieldSelectors },
      stores: customResourceStores,
    },
    hooks,
  );
  // The once-per-cluster controllers: hooks, or started under leader election (wired below).
  const leaderTasks = new LeaderTasks();
  controllers.addHooks(hooks, leaderTasks);
  authorization.addHooks(hooks);
  const flowControl = newFlowControl(cfg.flowControl, { resources, metrics, ctx: sys, requestTimeoutMs: timeouts.requestTimeoutMs, signal: loops.signal, objectCounts, onError });
  flowControl.addHooks(hooks);
  hooks.add('start-node-informers', () => nodeInformers.run(loops.signal));
  hooks.add('start-admission-informers', () => admission.whenReady(informers.run(loops.signal)));
  networking.addHooks(hooks, { resources, ctx: sys, signal: loops.signal, securePort: () => server.port, bindAddress: cfg.bindAddress, tasks: leaderTasks });
  hooks.add('bootstrap-namespaces', () => retryUntilDone(() => ensureSystemNamespaces(sys, namespaces.store), loops.signal, onError('bootstrap-namespaces')));
  aggregation.addHooks(hooks);
  const syncAPIServices = apiServiceRegistration(sys, resources, () => installer.groupVersions());
  hooks.add(APISERVICE_REGISTRATION_HOOK, (signal) => retryUntilDone(syncAPIServices, signal, onError(APISERVICE_REGISTRATION_HOOK)));
  hooks.add('start-namespace-informer', async () => {
    void namespaceInformer.run(loops.signal);
    await namespaceInformer.waitForSync();
  });
  // Upstream kube-controller-manager's namespace-controller: selectable with --controllers (on by default).
  if (controllers.runs('namespace')) leaderTasks.add('start-namespace-controller', async (signal) => {
    const informer = new Informer(namespaces.store.storage, namespaces.store.prefixFor(''), onError('namespace informer'));
    void informer.run(signal);
    void runNamespaceController(
      {
        informer,
        namespaces: namespaces.store,
        finalize: namespaces.subresources.get('finalize')!,
        status: namespaces.subresources.get('status')!,
        namespaced: () => [...resources.filter((r) => r.store.strategy.namespaceScoped()).map((r) => r.store), ...customResources.namespacedStores()],
        ctx: sys,
        onError: onError('namespace controller'),
      },
      signal,
    );
    await informer.waitForSync();
  });
  const leaseStore = resources.find((r) => r.store.strategy.kind.group === vendorGroup('coordination') && r.store.strategy.kind.resource === 'leases')!.store;
  if (gates.APIServerIdentity) addIdentityLeaseHooks(hooks, { leases: leaseStore, identity, timings: cfg.identityLease, ctx: sys, signal: loops.signal, log: cfg.log });
  let election: ReturnType<typeof wireLeaderElection>;
  try {
    election = wireLeaderElection(cfg.leaderElection, { hooks, tasks: leaderTasks, leases: leaseStore, identity: identity.electionID, ctx: sys, signal: loops.signal, log: cfg.log });
  } catch (err) {
    return abandon(err, authentication, authorization);
  }
  const compactor = startCompactor(client, cfg.etcdCompactionIntervalMs, onError('etcd compaction'));

  const server = new GenericAPIServer({
    bindAddress: cfg.bindAddress,
    port: cfg.securePort,
    // Client certificates of every CA some method trusts are asked for; each method checks its own.
    tls: { certPem: cfg.tls.certPem, keyPem: cfg.tls.keyPem, clientCAPem: authentication.clientCertificateCAs },
    authenticator: authentication.authenticator,
    authorizer: authorization.authorizer,
    installer,
    checks: [rateLimitedEtcdCheck('etcd', () => storage.currentRevision(), cfg.etcdHealthcheckTimeoutMs)],
    readyzChecks: [rateLimitedEtcdCheck('etcd-readiness', () => storage.currentRevision(), cfg.etcdReadycheckTimeoutMs), informers.syncCheck],
    healthzChecks: election.healthChecks,
    hooks,
    shutdownDelayMs: cfg.shutdownDelayMs,
    livezGracePeriodMs: cfg.livezGracePeriodMs,
    requestTimeoutMs: timeouts.requestTimeoutMs,
    log: cfg.log,
    metrics,
    serviceAccountIssuerDiscovery: saDiscovery && 'metadata' in saDiscovery ? saDiscovery.metadata : undefined,
    debug: { profiling: true, logsHandler: false, logsDir: DEFAULT_LOGS_DIR, ...cfg.debug },
    flowControl: flowControl.filter,
    audit,
    listenWhenReady: cfg.listenWhenReady,
    aggregator: aggregation.aggregator,
    console: cfg.console && { files: loadConsoleFiles(cfg.console.dir ?? defaultConsoleDir(), cfg.log) },
  });
  await server.start().catch((err: unknown) => abandon(err, authentication, authorization, compactor));
  return {
    server,
    admission,
    identity,
    postStartHooksDone: () => hooks.whenDone(),
    async stop() {
      await server.shutdown();
      const cleanup = await beginEtcdCleanup(() => storage.currentRevision(), cfg.log);
      await cleanup.run('remove this server from the API server Service endpoints', () => networking.stop());
      authentication.stop();
      authorization.stop();
      loops.abort();
      await cleanup.run('release the leader election lease', () => election.stopped());
      compactor.stop();
      customResources.stop();
      for (const c of cachers) c.stop();
      client.close();
    },
  };
}
