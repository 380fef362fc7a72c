/**
 * The controllers of spec 001 that run inside our server, selected by `--controllers`: the
 * service account, tokens and root CA publisher controllers (on by default) that make service
 * accounts usable, the garbage collector (on), the resource quota controller (on) that keeps quota status
 * right, the PVC and PV protection controllers (on) that finish the deletions
 * StorageObjectInUseProtection holds up, and the bootstrap token cleaner and signer (off by default,
 * as upstream); plus the informers they and the bootstrap token authenticator share. Each controller is started by a
 * post-start hook once the informers it reads have synced, and stops with the server.
 */
import type { Obj } from '../apis/define.js';
import { ROOT_CA_CONFIGMAP_NAME, SYSTEM_NAMESPACE } from '../apis/vendor.js';
import { parseFieldSelector } from '../apimachinery/fields/selector.js';
import { parseLabelSelector } from '../apimachinery/labels/selector.js';
import type { SecretLister } from '../authentication/bootstrap/authenticator.js';
import { Informer } from '../client/informer.js';
import { CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE } from '../controllers/bootstrapsigner/cluster-info.js';
import { runBootstrapSigner } from '../controllers/bootstrapsigner/controller.js';
import { runClusterRoleAggregationController } from '../controllers/clusterrole-aggregation/controller.js';
import { GarbageCollector } from '../controllers/garbagecollector/collector.js';
import { ResourceQuotaController } from '../controllers/resourcequota/controller.js';
import { quotaCalculator } from '../admission/plugins/resource-quota/usage.js';
import { FLOWCONTROL_BOOTSTRAP_HOOK, flowControlStores, runFlowControlBootstrap } from '../controllers/flowcontrol-bootstrap/ensure.js';
import { ensureSystemPriorityClasses, priorityClassStore, SYSTEM_PRIORITY_CLASSES_HOOK } from '../controllers/priorityclass-bootstrap/ensure.js';
import { reconcileDefaultPolicy } from '../controllers/rbac-bootstrap/reconcile.js';
import { defaultPolicy } from '../apis/rbac/bootstrap-policy/index.js';
import { RBAC_GROUP } from '../apis/rbac/v1/types.js';
import { runRootCAPublisher } from '../controllers/root-ca-cert-publisher/controller.js';
import { runServiceAccountController } from '../controllers/serviceaccount/controller.js';
import { type LegacyTokenSigner, runTokensController } from '../controllers/serviceaccount/tokens-controller.js';
import { runTokenCleaner } from '../controllers/tokencleaner/controller.js';
import { runPVProtectionController } from '../controllers/volume-protection/pv-controller.js';
import { runPVCProtectionController } from '../controllers/volume-protection/pvc-controller.js';
import type { RequestContext } from '../request/context.js';
import type { SelectionPredicate } from '../storage/interface.js';
import type { ResourceStorage } from '../registry/generic/resource-storage.js';
import { newSelectionPredicate } from '../registry/generic/predicate.js';
import type { Store } from '../registry/generic/store.js';
import type { PostStartHooks } from '../server/hooks.js';
import type { LeaderTasks } from '../controllers/leaderelection/tasks.js';
import type { Logger } from '../server/logging.js';
import { isControllerEnabled } from '../server/options/controllers.js';
import { typeCheckPolicy } from '../admission/plugins/validating-admission-policy/type-check.js';
import { ADMISSIONREGISTRATION_GROUP } from '../apis/admissionregistration/v1/types.js';
import { POLICY_STATUS_CONTROLLER, runPolicyStatusController } from '../controllers/validatingadmissionpolicy-status/controller.js';
import { servedResourcesOf } from './admission.js';
import type { CustomResourceStores } from './custom-resource-stores.js';

/** What the controllers need from the control plane. */
export interface ControllersConfig {
  /** The served resources (the stores of namespaces, secrets, configmaps and serviceaccounts are used). */
  resources: readonly ResourceStorage[];
  /** `--controllers` (default `[*]`). */
  controllers?: readonly string[];
  /** Whether `--enable-bootstrap-token-auth` is on (the system namespace's Secrets are then watched). */
  bootstrapTokenAuth: boolean;
  /**
   * The PEM CA bundle that verifies the server's serving certificate: published by the root CA
   * publisher and put in a `cluster-info` the bootstrap signer creates. Absent: those two
   * controllers do not run (logged at start).
   */
  rootCAPem?: string;
  /** The `https://host:port` clients reach the server at (called once the server listens). */
  serverURL: () => string;
  /** The resource quota controller's full recount period (ms; default 5 min, `--resource-quota-sync-period`). */
  resourceQuotaSyncPeriodMs?: number;
  /** The stores of the custom resources served (issue #14): the garbage collector follows them too. */
  customResources?: CustomResourceStores;
  /**
   * The signer of legacy service-account tokens, asked when the tokens controller starts (the
   * authenticators are built after the controllers); absent or undefined: that controller does
   * not run (logged), as upstream's without a private key.
   */
  legacyTokenSigner?: () => LegacyTokenSigner | undefined;
  /** Context of the controllers' writes (a privileged internal user). */
  ctx: RequestContext;
  /** Aborted when the server stops: informers and controllers end. */
  signal: AbortSignal;
  log: Logger;
}

/** The controllers of one server and what they share. */
export interface Controllers {
  /** Secrets of the system namespace by name, from an informer's cache (the bootstrap token authenticator reads it). */
  systemSecrets: SecretLister;
  /** Whether `--controllers` enables the controller `name` (canonical or alias) that the control plane wires itself (the namespace controller). */
  runs(name: string): boolean;
  /**
   * Adds the post-start hooks every replica runs (bootstrap policy, flow-control and priority
   * classes, the informers authentication reads) and, to `tasks`, the enabled once-per-cluster
   * controllers (issue #16: run under leader election, each with informers of its own term).
   */
  addHooks(hooks: PostStartHooks, tasks: LeaderTasks): void;
}

/** Creates the informers and returns the hooks that start them and the enabled controllers. */
export function newControllers(cfg: ControllersConfig): Controllers {
  const list = cfg.controllers ?? ['*'];
  const enabled = (name: string) => isControllerEnabled(name, list);
  const onError = (what: string) => (err: unknown) => cfg.log.error({ err }, what);
  const storeOf = (resource: string): Store => {
    const r = cfg.resources.find((x) => x.store.strategy.kind.group === '' && x.store.strategy.kind.resource === resource);
    if (!r) throw new Error(`the control plane serves no ${resource}`);
    return r.store;
  };
  const rbacStoreOf = (resource: string): Store => {
    const r = cfg.resources.find((x) => x.store.strategy.kind.group === RBAC_GROUP && x.store.strategy.kind.resource === resource);
    if (!r) throw new Error(`the control plane serves no ${resource}`);
    return r.store;
  };
  const informerOf = (store: Store, namespace: string, what: string, predicate?: SelectionPredicate) =>
    new Informer(store.storage, store.prefixFor(namespace), onError(`${what} informer`), predicate);

  const secrets = storeOf('secrets');
  const configMaps = storeOf('configmaps');
  const serviceAccounts = storeOf('serviceaccounts');
  const systemSecrets = informerOf(secrets, SYSTEM_NAMESPACE, `${SYSTEM_NAMESPACE} secrets`);
  // The informers of one leadership term, shared by its controllers and stopped with it.
  const terms = new WeakMap<AbortSignal, Map<string, Informer>>();
  const termInformer = (signal: AbortSignal, store: Store, namespace: string, what: string, predicate?: SelectionPredicate): Informer => {
    let informers = terms.get(signal);
    if (!informers) terms.set(signal, (informers = new Map()));
    let informer = informers.get(what);
    if (!informer) {
      informers.set(what, (informer = informerOf(store, namespace, what, predicate)));
      void informer.run(signal);
    }
    return informer;
  };
  const namespacesOf = (signal: AbortSignal) => termInformer(signal, storeOf('namespaces'), '', 'namespaces');
  // The ConfigMaps a controller looks after by name (in `namespace`, '' for every namespace),
  // selected by `metadata.name` so that no other ConfigMap's change reaches the informer.
  const configMapsNamed = (signal: AbortSignal, namespace: string, name: string) =>
    termInformer(signal, configMaps, namespace, `configmaps ${namespace}/${name}`, newSelectionPredicate(parseLabelSelector(''), parseFieldSelector(`metadata.name=${name}`), configMaps.strategy));
  const secretsOf = (signal: AbortSignal) => termInformer(signal, secrets, SYSTEM_NAMESPACE, `${SYSTEM_NAMESPACE} secrets`);

  const withCA = (name: string): boolean => {
    if (!enabled(name)) return false;
    if (cfg.rootCAPem === undefined) cfg.log.warn({ controller: name }, 'no cluster CA bundle is known: controller not started');
    return cfg.rootCAPem !== undefined;
  };
  const run = {
    serviceAccount: enabled('serviceaccount'),
    serviceAccountToken: enabled('serviceaccount-token'),
    rootCA: withCA('root-ca-cert-publisher'),
    tokenCleaner: enabled('tokencleaner'),
    signer: withCA('bootstrapsigner'),
    aggregation: enabled('clusterrole-aggregation'),
    garbageCollector: enabled('garbagecollector'),
    resourceQuota: enabled('resourcequota'),
    pvcProtection: enabled('pvc-protection'),
    pvProtection: enabled('pv-protection'),
    policyStatus: enabled('validatingadmissionpolicy-status'),
  };
  const rbac = {
    clusterRoles: rbacStoreOf('clusterroles'),
    clusterRoleBindings: rbacStoreOf('clusterrolebindings'),
    roles: rbacStoreOf('roles'),
    roleBindings: rbacStoreOf('rolebindings'),
  };

  return {
    systemSecrets: { get: (name: string): Obj | undefined => systemSecrets.get(`${SYSTEM_NAMESPACE}/${name}`) },
    runs: enabled,
    addHooks(hooks: PostStartHooks, tasks: LeaderTasks): void {
      const started = (informer: Informer, signal: AbortSignal) => {
        void informer.run(signal);
        return informer.waitForSync();
      };
      const spawn = (what: string, loop: Promise<void>) => void loop.catch(onError(what));
      // Upstream's rbac/bootstrap-roles: the default policy, created and reconciled at every start.
      hooks.add('rbac/bootstrap-roles', (signal) =>
        retryUntilDone(() => reconcileDefaultPolicy(cfg.ctx, rbac, defaultPolicy()), signal, onError('rbac/bootstrap-roles')),
      );
      // Upstream's priority-and-fairness-config-producer: the default flow-control objects, at start and every minute.
      hooks.add(FLOWCONTROL_BOOTSTRAP_HOOK, () =>
        runFlowControlBootstrap({ ...flowControlStores(cfg.resources), ctx: cfg.ctx, onError: onError(FLOWCONTROL_BOOTSTRAP_HOOK) }, cfg.signal),
      );
      // Upstream's scheduling/bootstrap-system-priority-classes: the system PriorityClasses, created when missing.
      hooks.add(SYSTEM_PRIORITY_CLASSES_HOOK, (signal) =>
        retryUntilDone(() => ensureSystemPriorityClasses(cfg.ctx, priorityClassStore(cfg.resources)), signal, onError(SYSTEM_PRIORITY_CLASSES_HOOK)),
      );
      // ValidatingAdmissionPolicy type checking into status.typeChecking (upstream's validatingadmissionpolicy-status-controller).
      if (run.policyStatus) {
        tasks.add(`start-${POLICY_STATUS_CONTROLLER}`, async (signal) => {
          const r = cfg.resources.find((x) => x.store.strategy.kind.group === ADMISSIONREGISTRATION_GROUP && x.store.strategy.kind.resource === 'validatingadmissionpolicies');
          if (!r) throw new Error('the control plane serves no validatingadmissionpolicies');
          const policies = informerOf(r.store, '', 'validatingadmissionpolicies');
          const served = servedResourcesOf(cfg.resources);
          spawn(POLICY_STATUS_CONTROLLER, runPolicyStatusController(
            { policies, statusStore: r.subresources.get('status') ?? r.store, check: (p) => typeCheckPolicy(p, served), ctx: cfg.ctx, onError: onError(POLICY_STATUS_CONTROLLER) },
            signal,
          ));
          await started(policies, signal);
        });
      }
      if (run.aggregation) {
        tasks.add('start-clusterrole-aggregation-controller', async (signal) => {
          const clusterRoles = informerOf(rbac.clusterRoles, '', 'clusterroles');
          spawn('clusterrole aggregation controller', runClusterRoleAggregationController(
            { clusterRoles, store: rbac.clusterRoles, ctx: cfg.ctx, onError: onError('clusterrole aggregation controller') },
            signal,
          ));
          await started(clusterRoles, signal);
        });
      }
      if (run.resourceQuota) {
        tasks.add('start-resourcequota-controller', async (signal) => {
          const quotas = cfg.resources.find((r) => r.store.strategy.kind.group === '' && r.store.strategy.kind.resource === 'resourcequotas');
          if (!quotas) throw new Error('the control plane serves no resourcequotas');
          const rq = new ResourceQuotaController({
            quotas: quotas.store,
            quotaStatus: quotas.subresources.get('status') ?? quotas.store,
            storeOf: (gr) =>
              cfg.resources.find((r) => r.store.strategy.kind.group === gr.group && r.store.strategy.kind.resource === gr.resource)?.store ??
              cfg.customResources?.get(`${gr.resource}.${gr.group}`),
            calculator: quotaCalculator(),
            ctx: cfg.ctx,
            onError: onError('resource quota controller'),
            resyncMs: cfg.resourceQuotaSyncPeriodMs,
          });
          spawn('resource quota controller', rq.run(signal));
          await rq.waitForSync();
        });
      }
      if (run.garbageCollector) {
        tasks.add('start-garbage-collector', async (signal) => {
          const gc = new GarbageCollector({ stores: cfg.resources.map((r) => r.store), ctx: cfg.ctx, onError: onError('garbage collector') });
          const followed = new Map<string, () => void>();
          const unsubscribe = cfg.customResources?.subscribe((crd, store) => {
            followed.get(crd)?.();
            followed.delete(crd);
            if (store) followed.set(crd, gc.addResource(store));
          });
          if (unsubscribe) signal.addEventListener('abort', unsubscribe, { once: true });
          spawn('garbage collector', gc.run(signal));
          await gc.waitForSync();
        });
      }
      if (run.pvcProtection) {
        tasks.add('start-pvc-protection-controller', async (signal) => {
          const claimStore = storeOf('persistentvolumeclaims');
          const podStore = storeOf('pods');
          const claims = informerOf(claimStore, '', 'persistentvolumeclaims');
          const pods = informerOf(podStore, '', 'pods');
          spawn('pvc protection controller', runPVCProtectionController(
            { claims, pods, claimStore, podStore, ctx: cfg.ctx, onError: onError('pvc protection controller') },
            signal,
          ));
          await Promise.all([started(claims, signal), started(pods, signal)]);
        });
      }
      if (run.pvProtection) {
        tasks.add('start-pv-protection-controller', async (signal) => {
          const store = storeOf('persistentvolumes');
          const volumes = informerOf(store, '', 'persistentvolumes');
          spawn('pv protection controller', runPVProtectionController({ volumes, store, ctx: cfg.ctx, onError: onError('pv protection controller') }, signal));
          await started(volumes, signal);
        });
      }
      if (cfg.bootstrapTokenAuth) hooks.add(`start-${SYSTEM_NAMESPACE}-secrets-informer`, () => started(systemSecrets, cfg.signal));
      if (run.serviceAccount) {
        tasks.add('start-serviceaccount-controller', async (signal) => {
          const allServiceAccounts = termInformer(signal, serviceAccounts, '', 'serviceaccounts');
          const namespaces = namespacesOf(signal);
          spawn('serviceaccount controller', runServiceAccountController(
            { namespaces, serviceAccounts: allServiceAccounts, store: serviceAccounts, ctx: cfg.ctx, onError: onError('serviceaccount controller') },
            signal,
          ));
          await Promise.all([allServiceAccounts.waitForSync(), namespaces.waitForSync()]);
        });
      }
      if (run.serviceAccountToken) {
        tasks.add('start-serviceaccount-token-controller', async (signal) => {
          const sign = cfg.legacyTokenSigner?.();
          if (!sign) return cfg.log.warn({ controller: 'serviceaccount-token-controller' }, 'no service-account signing key: controller not started');
          const [allSecrets, allServiceAccounts] = [termInformer(signal, secrets, '', 'secrets'), termInformer(signal, serviceAccounts, '', 'serviceaccounts')];
          spawn('serviceaccount tokens controller', runTokensController(
            { secrets: allSecrets, serviceAccounts: allServiceAccounts, secretStore: secrets, serviceAccountStore: serviceAccounts, sign, rootCAPem: cfg.rootCAPem, ctx: cfg.ctx, onError: onError('serviceaccount tokens controller') },
            signal,
          ));
          await Promise.all([allSecrets.waitForSync(), allServiceAccounts.waitForSync()]);
        });
      }
      if (run.rootCA) {
        tasks.add('start-root-ca-cert-publisher', async (signal) => {
          const [namespaces, rootCAConfigMaps] = [namespacesOf(signal), configMapsNamed(signal, '', ROOT_CA_CONFIGMAP_NAME)];
          spawn('root CA publisher', runRootCAPublisher(
            { namespaces, configMaps: rootCAConfigMaps, store: configMaps, rootCAPem: cfg.rootCAPem!, ctx: cfg.ctx, onError: onError('root CA publisher') },
            signal,
          ));
          await Promise.all([namespaces.waitForSync(), rootCAConfigMaps.waitForSync()]);
        });
      }
      if (run.tokenCleaner) {
        tasks.add('start-tokencleaner', async (signal) => {
          const termSecrets = secretsOf(signal);
          spawn('token cleaner', runTokenCleaner({ secrets: termSecrets, store: secrets, ctx: cfg.ctx, onError: onError('token cleaner') }, signal));
          await termSecrets.waitForSync();
        });
      }
      if (run.signer) {
        tasks.add('start-bootstrapsigner', async (signal) => {
          const [namespaces, termSecrets, clusterInfo] = [namespacesOf(signal), secretsOf(signal), configMapsNamed(signal, CLUSTER_INFO_NAMESPACE, CLUSTER_INFO_NAME)];
          spawn('bootstrap signer', runBootstrapSigner(
            {
              namespaces,
              secrets: termSecrets,
              configMaps: clusterInfo,
              store: configMaps,
              serverURL: cfg.serverURL,
              caPem: cfg.rootCAPem!,
              ctx: cfg.ctx,
              onError: onError('bootstrap signer'),
            },
            signal,
          ));
          await Promise.all([namespaces.waitForSync(), termSecrets.waitForSync(), clusterInfo.waitForSync()]);
        });
      }
    },
  };
}

/**
 * The URL clients reach a server listening on `bindAddress:port` at, as the server advertises it
 * in `/api`: the bind address, or 127.0.0.1 when it listens on every interface.
 */
export function serverURLOf(bindAddress: string, port: number): string {
  const host = bindAddress === '0.0.0.0' || bindAddress === '::' ? '127.0.0.1' : bindAddress;
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Runs `fn` until it succeeds or `signal` aborts, reporting each failure and waiting a second between attempts. */
export async function retryUntilDone(fn: () => Promise<void>, signal: AbortSignal, onError: (err: unknown) => void): Promise<void> {
  while (!signal.aborted) {
    try {
      await fn();
      return;
    } catch (err) {
      onError(err);
      await new Promise((r) => setTimeout(r, 1000).unref());
    }
  }
}
