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
import { ServerMetrics } from '../server/metrics.js';
import { Cacher } from '../storage/cacher/cacher.js';
import { PostStartHooks } from '../server/hooks.js';
import type { Logger } from '../server/logging.js';
import { newEtcdClient } from '../storage/etcd3/client.js';
import { startCompactor } from '../storage/etcd3/compactor.js';
import { Etcd3Storage } from '../storage/etcd3/store.js';
import { ObjectCodec } from '../storage/etcd3/codec.js';
import { canonicalize, sortedDeep } from '../apimachinery/schema/canonical.js';
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
import { createOnlyResources, readOnlyResources, servedResources } from './resources.js';
import { type APIEnablement, resolveAPIEnablement } from './api-enablement.js';
import { EMPTY_RUNTIME_CONFIG, type RuntimeConfig } from '../server/options/runtime-config.js';
import { legacyPodCreaters } from '../registry/core/pod/storage.js';
import { addTokenRequest, serviceAccountDeps } from './service-accounts.js';
import { ensureSystemNamespaces } from './system-namespaces.js';
import type { AdmissionChain } from '../admission/chain.js';
import { type AdmissionConfig, buildAdmissionChain, defaultAdmissionConfig } from './admission.js';
import { SharedInformers } from './informers.js';
import { newServiceNetworking, type ServiceNetworking, type ServiceNetworkingConfig } from './service-networking.js';

/** Configuration of the control plane (resolved options). */
export interface ControlPlaneConfig {
  etcdEndpoints: string[];
  etcdPrefix: string;
  /** 0 disables compaction. */
  etcdCompactionIntervalMs: number;
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
  log: Logger;
}

/** A running control plane. */
export interface ControlPlane {
  server: GenericAPIServer;
  /** The admission chain the handlers run (benchmarks time it in process). */
  admission: AdmissionChain;
  /** Graceful shutdown of the server, then its loops and the etcd client. */
  stop(): Promise<void>;
}

function entryOf(r: ResourceStorage): ResourceEntry {
  return {
    kind: r.store.strategy.kind,
    store: r.store,
    subresources: r.subresources,
    creaters: r.creaters,
    updaters: r.updaters,
    selectableFields: new Set(r.store.strategy.fieldLabels()),
  };
}

/** Builds and starts the control plane; resolves once it listens. */
export async function startControlPlane(cfg: ControlPlaneConfig): Promise<ControlPlane> {
  const client = newEtcdClient(cfg.etcdEndpoints);
  const storage = new Etcd3Storage(client);
  let networking: ServiceNetworking;
  try {
    networking = newServiceNetworking(cfg.serviceNetworking ?? {}, storage, cfg.etcdPrefix, cfg.log);
  } catch (err) {
    client.close();
    throw err;
  }
  const metrics = new ServerMetrics({ showHidden: cfg.showHiddenMetrics ?? false });
  const cachers: Cacher[] = [];
  const storageFor = (keyRoot: string, kind: KindDefinition) => {
    const resource = keyRoot.slice(keyRoot.lastIndexOf('/') + 1);
    const cacher = new Cacher({
      // A value an older server wrote in a version since removed is read in the kind's version (spec 001 § Removed API versions).
      delegate: new Etcd3Storage(client, new ObjectCodec((obj) => canonicalize(kind.schema, upgradeStoredObject(kind, obj)))),
      prefix: `${keyRoot}/`,
      bookmarkIntervalMs: cfg.bookmarkIntervalMs,
      onStats: (s) => metrics.watchCache(resource, s),
      onError: (err) => cfg.log.warn({ err, resource }, 'watch cache reflector failed; retrying'),
    });
    cachers.push(cacher);
    return cacher;
  };
  const gates = resolveFeatureGates(cfg.featureGates);
  const resources = servedResources(storageFor, cfg.etcdPrefix, networking.allocators, gates);
  const namespaces = resources[0]!;
  const loops = new AbortController();
  // Every informer and controller loop of the server listens to this one signal.
  setMaxListeners(0, loops.signal);
  const onError = (what: string) => (err: unknown) => cfg.log.error({ err }, what);

  const sys = internalContext({ name: APISERVER_USER, groups: [MASTERS_GROUP] });
  const namespaceInformer = new Informer(namespaces.store.storage, namespaces.store.prefixFor(''), onError('namespace informer'));
  // Pods and nodes: the Node authorizer's graph and NodeRestriction read them.
  const nodeInformers = newNodeInformers(resources, sys, onError);

  const customResourceStores = new CustomResourceStores();
  const controllers = newControllers({
    resources,
    customResources: customResourceStores,
    namespaces: namespaceInformer,
    controllers: cfg.controllers,
    resourceQuotaSyncPeriodMs: cfg.resourceQuotaSyncPeriodMs,
    bootstrapTokenAuth: cfg.authentication.enableBootstrapTokenAuth,
    rootCAPem: cfg.rootCAPem,
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
  const authorization = await buildAuthorization(cfg.authorization, { resources, nodeGraph: { pods: nodeInformers.pods }, log: cfg.log, metrics }).catch((err: unknown) => abandon(err));
  const authentication = await buildAuthentication(cfg.authentication, authorization.modes, {
    systemSecrets: controllers.systemSecrets,
    log: cfg.log,
    clientCAPem: cfg.tls.clientCAPem,
    serviceAccounts: serviceAccountDeps(resources, cfg.tls.keyPem, sys, onError('legacy service account token tracking')),
    metrics,
  }).catch((err: unknown) => abandon(err, authorization));
  const informers = new SharedInformers(resources, onError);
  informers.adopt('', 'namespaces', namespaceInformer, true);
  informers.adopt('', 'pods', nodeInformers.pods, true);
  informers.adopt('', 'nodes', nodeInformers.nodes, true);
  const admission = await buildAdmissionChain(cfg.admission ?? defaultAdmissionConfig(), {
    resources,
    informers,
    authorizer: authorization.authorizer,
    systemContext: sys,
    signal: loops.signal,
    log: cfg.log,
  }).catch((err: unknown) => abandon(err, authentication, authorization));
  const installer = new APIInstaller(admission, {
    watchList: cfg.watchList ?? gates.WatchList,
    responseCompression: cfg.responseCompression ?? gates.APIResponseCompression,
    upstreamAliases: cfg.upstreamAliases ?? true,
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
  const served = (k: KindDefinition) => enabled.resourceEnabled(k.group, k.version, k.resource);
  for (const e of [...stored, ...versions]) if (served(e.kind)) installer.install(e);
  for (const c of createOnly) if (served(c.kind)) installer.installCreater(c);
  for (const l of readOnly) if (served(l.kind)) installer.installReadOnly(l);

  const hooks = new PostStartHooks();
  // Custom resources: one watch cache per CRD, objects stored with every object's keys sorted (Go's map order).
  const customResources = setUpAPIExtensions(
    {
      resources,
      informers,
      installer,
      prefix: cfg.etcdPrefix,
      newStorage(keyRoot) {
        const resource = keyRoot.slice(keyRoot.lastIndexOf('/') + 1);
        const cacher = new Cacher({
          delegate: new Etcd3Storage(client, new ObjectCodec((obj) => sortedDeep(obj) as typeof obj)),
          prefix: `${keyRoot}/`,
          bookmarkIntervalMs: cfg.bookmarkIntervalMs,
          onStats: (st) => metrics.watchCache(resource, st),
          onError: (err) => cfg.log.warn({ err, resource }, 'watch cache reflector failed; retrying'),
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
  controllers.addHooks(hooks);
  authorization.addHooks(hooks);
  hooks.add('start-node-informers', () => nodeInformers.run(loops.signal));
  hooks.add('start-admission-informers', () => admission.whenReady(informers.run(loops.signal)));
  networking.addHooks(hooks, { resources, ctx: sys, signal: loops.signal, securePort: () => server.port, bindAddress: cfg.bindAddress });
  hooks.add('bootstrap-namespaces', () => retryUntilDone(() => ensureSystemNamespaces(sys, namespaces.store), loops.signal, onError('bootstrap-namespaces')));
  const syncAPIServices = apiServiceRegistration(sys, resources, () => installer.groupVersions());
  hooks.add(APISERVICE_REGISTRATION_HOOK, (signal) => retryUntilDone(syncAPIServices, signal, onError(APISERVICE_REGISTRATION_HOOK)));
  hooks.add('start-namespace-controller', async () => {
    void namespaceInformer.run(loops.signal);
    await namespaceInformer.waitForSync();
    void runNamespaceController(
      {
        informer: namespaceInformer,
        namespaces: namespaces.store,
        finalize: namespaces.subresources.get('finalize')!,
        status: namespaces.subresources.get('status')!,
        namespaced: () => [...resources.filter((r) => r.store.strategy.namespaceScoped()).map((r) => r.store), ...customResources.namespacedStores()],
        ctx: sys,
        onError: onError('namespace controller'),
      },
      loops.signal,
    );
  });
  const compactor = startCompactor(client, cfg.etcdCompactionIntervalMs, onError('etcd compaction'));

  const server = new GenericAPIServer({
    bindAddress: cfg.bindAddress,
    port: cfg.securePort,
    // Client certificates of every CA some method trusts are asked for; each method checks its own.
    tls: { certPem: cfg.tls.certPem, keyPem: cfg.tls.keyPem, clientCAPem: authentication.clientCertificateCAs },
    authenticator: authentication.authenticator,
    authorizer: authorization.authorizer,
    installer,
    checks: [{ name: 'etcd', check: () => withTimeout(storage.currentRevision(), 2000, 'etcd did not answer within 2s').then(() => undefined) }],
    hooks,
    shutdownDelayMs: cfg.shutdownDelayMs,
    livezGracePeriodMs: cfg.livezGracePeriodMs,
    log: cfg.log,
    metrics,
    serviceAccountIssuerDiscovery: saDiscovery && 'metadata' in saDiscovery ? saDiscovery.metadata : undefined,
  });
  await server.start().catch((err: unknown) => abandon(err, authentication, authorization, compactor));
  return {
    server,
    admission,
    async stop() {
      await server.shutdown();
      await networking.stop();
      authentication.stop();
      authorization.stop();
      loops.abort();
      compactor.stop();
      customResources.stop();
      for (const c of cachers) c.stop();
      client.close();
    },
  };
}

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(message)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}
