/**
 * The authorizer chain of our server, built from the Authorization flags: the privileged group
 * (`system:masters`, always allowed, as upstream's privileged-group rule), then each mode of
 * `--authorization-mode` in order (spec 001 § Authorization).
 */
import type { Authorizer, RuleResolver } from '../authorization/interface.js';
import type { BuiltAuthorizer } from '../authorization/config/reloadable.js';
import { nameForAuthorizerType } from '../authorization/config/configuration.js';
import { instrumentedAuthorizer } from '../authorization/instrumented.js';
import { PrivilegedGroupAuthorizer } from '../authorization/privileged-group/authorizer.js';
import { UnionAuthorizer, UnionRuleResolver } from '../authorization/union.js';
import { RBACAuthorizer } from '../authorization/rbac/authorizer.js';
import { EscalationGuard, type RbacResource } from '../authorization/rbac/escalation.js';
import { RBAC_GROUP, RbacPolicyCache } from '../authorization/rbac/policy-cache.js';
import { Informer } from '../client/informer.js';
import { type NodeGraphInformers, newNodeAuthorizer } from './node-authorization.js';
import type { ResourceStorage } from '../registry/generic/resource-storage.js';
import { withWriteCheck } from '../registry/rbac/policy-based.js';
import type { PostStartHooks } from '../server/hooks.js';
import type { Logger } from '../server/logging.js';
import type { AuthorizationMode, AuthorizationOptions } from '../server/options/authorization-options.js';
import type { ServerMetrics } from '../server/metrics.js';
import { type FileModes, buildFileMode, loadFileModes, readAuthorizationConfig, startConfiguredChain } from './authorization-files.js';

/** The built authorization: the chain the handler chain runs and the rule resolver of SelfSubjectRulesReview. */
export interface Authorization {
  authorizer: Authorizer;
  /** The rules a user holds in a namespace, from the modes that can list them. */
  ruleResolver: RuleResolver;
  /** Stops background work (informers, file reloads, webhook connections). */
  stop(): void;
  /**
   * The effective modes: `--authorization-mode`, or the authorizer types of
   * `--authorization-config` (authentication turns anonymous requests off for AlwaysAllow).
   */
  modes: string[];
  /**
   * Adds the post-start hooks of the modes: `start-rbac-informers` runs the Role, ClusterRole,
   * RoleBinding and ClusterRoleBinding informers and finishes once they have synced, so
   * `/readyz` fails until RBAC decides from a complete cache.
   */
  addHooks(hooks: PostStartHooks): void;
}

/** What the modes need from the control plane. */
export interface AuthorizationDeps {
  /**
   * The served resources: RBAC reads the four RBAC stores through informers, and their main
   * stores are replaced (in place) by ones that refuse privilege escalation (spec 001 § RBAC
   * mode) — call before the API is installed.
   */
  resources: ResourceStorage[];
  /**
   * The informers the Node mode's graph follows (pods; persistent volumes and volume attachments
   * once served). The control plane runs them: they are shared with NodeRestriction.
   */
  nodeGraph: NodeGraphInformers;
  log: Logger;
  /** The server's metrics: reloads of `--authorization-config` are recorded there. */
  metrics?: ServerMetrics;
  /** This server's identity hash, the reload metrics' `apiserver_id_hash` (lib/server/identity.ts). */
  apiServerIDHash?: string;
  /** How often `--authorization-config` is read again besides watching it, in milliseconds (default 60 s). */
  authorizationConfigPollIntervalMs?: number;
}

/** The name upstream gives the Webhook authorizer of `--authorization-mode` (its metrics' `name`). */
const FLAG_WEBHOOK_NAME = 'default';

const RBAC_RESOURCES: readonly RbacResource[] = ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'];

/** The RBAC resources of `resources` by name. */
function rbacStorages(resources: readonly ResourceStorage[]): Record<RbacResource, ResourceStorage> {
  const find = (resource: RbacResource) => {
    const r = resources.find((x) => x.store.strategy.kind.group === RBAC_GROUP && x.store.strategy.kind.resource === resource);
    if (!r) throw new Error(`the control plane serves no ${resource}`);
    return r;
  };
  return { roles: find('roles'), clusterroles: find('clusterroles'), rolebindings: find('rolebindings'), clusterrolebindings: find('clusterrolebindings') };
}


/**
 * Builds the mode `mode`. RBAC is the RBAC authorizer over `rbac`'s cache (the default policy,
 * lib/apis/rbac/bootstrap-policy, grants health, version, discovery and SelfSubjectReview). Node is
 * the Node authorizer over a graph fed by `deps.nodeGraph` (its handlers registered only when
 * the mode is configured). AlwaysAllow, AlwaysDeny, ABAC and Webhook come from
 * authorization-files.ts (`files`: what their flags' files hold, loaded beforehand).
 */
function buildMode(mode: AuthorizationMode, rbac: RBACAuthorizer, deps: AuthorizationDeps, files: FileModes): BuiltAuthorizer | undefined {
  switch (mode) {
    case 'AlwaysAllow':
    case 'AlwaysDeny':
    case 'ABAC':
    case 'Webhook':
      return buildFileMode(mode, files);
    case 'Node': {
      const node = newNodeAuthorizer(deps.nodeGraph);
      return { authorizer: node, ruleResolver: node };
    }
    case 'RBAC':
      return { authorizer: rbac, ruleResolver: rbac };
    default:
      return undefined;
  }
}

/**
 * Builds the authorizer chain from `opts`.
 * @throws Error when a configured file cannot be read or parsed (a start-up error).
 */
export async function buildAuthorization(opts: AuthorizationOptions, deps: AuthorizationDeps): Promise<Authorization> {
  const initialConfig = opts.config ? await readAuthorizationConfig(opts.config) : undefined;
  const types = initialConfig?.types ?? opts.modes;
  const files = await loadFileModes(opts, types, deps.log);
  const rbacResources = rbacStorages(deps.resources);
  const informerOf = (resource: RbacResource) => {
    const store = rbacResources[resource].store;
    return new Informer(store.storage, store.prefixFor(''), (err) => deps.log.error({ err }, `${resource} informer`));
  };
  const rbacInformers = {
    roles: informerOf('roles'),
    clusterRoles: informerOf('clusterroles'),
    roleBindings: informerOf('rolebindings'),
    clusterRoleBindings: informerOf('clusterrolebindings'),
  };
  const rbacCache = new RbacPolicyCache(rbacInformers);
  const rbac = new RBACAuthorizer(rbacCache);
  const loops = new AbortController();
  let modes: BuiltAuthorizer[];
  let configured: Awaited<ReturnType<typeof startConfiguredChain>> | undefined;
  if (initialConfig) {
    // --authorization-config: the non-Webhook authorizers are built once and kept across reloads.
    const nonWebhook = new Map<string, BuiltAuthorizer>();
    for (const t of new Set(types)) {
      const built = t === 'Webhook' ? undefined : buildMode(t as AuthorizationMode, rbac, deps, files);
      if (built) nonWebhook.set(t, built);
    }
    configured = await startConfiguredChain(opts.config, initialConfig, nonWebhook, {
      log: deps.log,
      ...(deps.metrics && { metrics: deps.metrics }),
      ...(deps.apiServerIDHash !== undefined && { apiServerIDHash: deps.apiServerIDHash }),
      ...(deps.authorizationConfigPollIntervalMs !== undefined && { pollIntervalMs: deps.authorizationConfigPollIntervalMs }),
    });
    modes = [{ authorizer: configured, ruleResolver: configured }];
  } else {
    // Each mode reports its decisions under the type and name upstream gives the flags' modes.
    const record = deps.metrics ? deps.metrics.auth.authorizationDecision.bind(deps.metrics.auth) : undefined;
    modes = opts.modes
      .map((m) => {
        const built = buildMode(m, rbac, deps, files);
        if (!built || !record) return built;
        const name = m === 'Webhook' ? FLAG_WEBHOOK_NAME : nameForAuthorizerType(m);
        return { authorizer: instrumentedAuthorizer(m, name, built.authorizer, record), ruleResolver: built.ruleResolver };
      })
      .filter((m): m is BuiltAuthorizer => m !== undefined);
  }
  const authorizer = new UnionAuthorizer([new PrivilegedGroupAuthorizer(), ...modes.map((m) => m.authorizer)]);
  const escalation = new EscalationGuard(rbacCache, authorizer);
  for (const resource of RBAC_RESOURCES) withWriteCheck(rbacResources[resource], escalation.checkFor(resource));
  return {
    authorizer,
    ruleResolver: new UnionRuleResolver(modes.map((m) => m.ruleResolver)),
    modes: [...types],
    stop() {
      loops.abort();
      configured?.stop();
      files.webhook?.close();
    },
    addHooks(hooks) {
      hooks.add('start-rbac-informers', async () => {
        for (const informer of Object.values(rbacInformers)) void informer.run(loops.signal);
        await rbacCache.waitForSync();
      });
    },
  };
}
