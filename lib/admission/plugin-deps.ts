/**
 * What admission plugins are given when the chain is built (upstream's plugin initializers):
 * informer-backed listers and live access to served resources, the authorizer, the served kinds,
 * the admission flags and the per-plugin configuration of `--admission-control-config-file`
 * (spec 001 § Admission control). Implemented by lib/controlplane/admission.ts over the stores.
 */
import type { KindDefinition, Obj } from '../apis/define.js';
import type { VersionConversion } from '../apis/version-conversion.js';
import type { Authorizer } from '../request/authorization.js';
import type { AdmissionMetrics } from '../metrics/admission.js';
import type { RequestContext } from '../request/context.js';
import type { AdmissionPlugin } from './interface.js';

/** A read-only view of one resource's current objects, kept by an informer (lib/client). */
export interface Lister {
  /** The object `namespace/name` ('' namespace for cluster-scoped ones), or undefined. */
  get(namespace: string, name: string): Obj | undefined;
  /** The objects of `namespace` ('' or absent: of every namespace). A new array of shared objects: do not mutate them. */
  list(namespace?: string): Obj[];
  /** A number that changes whenever the cache does: what is derived from the objects need be rebuilt only then. */
  generation(): number;
}

/** Access to one served resource. */
export interface ResourceAccess {
  /**
   * Its informer cache. The informer starts when the chain is built and has synced before the
   * server serves; it may lag a write by a few milliseconds (and another replica's by more).
   */
  readonly lister: Lister;
  /** Reads `namespace/name` from storage (through the watch cache); null when absent. */
  get(namespace: string, name: string): Promise<Obj | null>;
  /** Lists `namespace` ('' for all) from storage. */
  list(namespace: string): Promise<Obj[]>;
  /**
   * Writes `obj` as the new state of its object, through the status subresource when the
   * resource has one, on the condition that `obj.metadata.resourceVersion` is still current (an
   * etcd compare-and-swap: safe across replicas). Runs the resource's strategy; no admission.
   * @returns the stored object.
   * @throws StatusError 409 Conflict when the object changed since `resourceVersion`, 404 NotFound, 422 Invalid.
   */
  updateStatus(ctx: RequestContext, obj: Obj): Promise<Obj>;
}

/** One served version of a resource (the kinds' registry webhooks and policies match against). */
export interface ServedResource {
  group: string;
  version: string;
  /** Plural resource name. */
  resource: string;
  kind: string;
  namespaced: boolean;
  /** Subresource names (`status`, `scale`, `eviction`, …). */
  subresources: readonly string[];
  /** The kind as served in this version (schema for type checking, defaults). */
  definition: KindDefinition;
  /**
   * Present when this version is not the storage version: converts objects between the two
   * (admission objects are in the storage version).
   */
  conversion?: VersionConversion;
}

/** The admission flags (lib/server/options/admission-flags.ts). */
export interface AdmissionOptions {
  /** `--default-not-ready-toleration-seconds` (default 300). */
  defaultNotReadyTolerationSeconds: number;
  /** `--default-unreachable-toleration-seconds` (default 300). */
  defaultUnreachableTolerationSeconds: number;
}

/** Upstream's defaults of {@link AdmissionOptions}. */
export function defaultAdmissionOptions(): AdmissionOptions {
  return { defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300 };
}

/** A place to log (pino-compatible subset). */
export interface AdmissionLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** Everything a plugin factory may use. */
export interface AdmissionPluginDeps {
  /**
   * Access to the served resource `group`/`resource` (group '' = core, vendor spelling).
   * Calling it while the chain is built starts that resource's informer.
   * @throws Error when the resource is not served.
   */
  resource(group: string, resource: string): ResourceAccess;
  /** Every served resource version (storage versions first). */
  servedResources(): readonly ServedResource[];
  /** The server's authorizer chain (CertificateApproval, ValidatingAdmissionPolicy `authorizer`). */
  authorizer: Authorizer;
  options: AdmissionOptions;
  /**
   * The plugin's configuration from `--admission-control-config-file` (the `configuration` object
   * or the parsed file at `path`), or undefined when there is none.
   */
  config(plugin: string): Obj | undefined;
  /** A context for the server's own reads and writes (user `system:apiserver`). */
  systemContext: RequestContext;
  /** Ends with the server: loops a plugin starts stop on it. */
  signal: AbortSignal;
  log: AdmissionLog;
  /** The server's admission metrics (webhook calls are recorded there); absent: not recorded. */
  metrics?: AdmissionMetrics;
}

/** How a plugin is made: its name, whether it is on by default, its constructor. */
export interface AdmissionPluginFactory {
  /** Upstream's plugin name (`LimitRanger`). */
  readonly name: string;
  /** Builds the plugin; may throw an Error (a start-up failure: bad configuration). */
  create(deps: AdmissionPluginDeps): AdmissionPlugin;
}

/** The object `namespace/name` from the informer, else from storage (created a moment ago); null when absent. */
export async function cachedOrLive(access: ResourceAccess, namespace: string, name: string): Promise<Obj | null> {
  return access.lister.get(namespace, name) ?? (await access.get(namespace, name));
}
