/**
 * Unit-test fixture of the ValidatingAdmissionPolicy plugin: in-memory resources (what the
 * informer shows and what only a live read finds), the served kinds ConfigMap, Namespace,
 * Deployment and the policy kinds, an authorizer answering from a table, and helpers to run
 * `validate` and read back the rejection, warnings and audit annotations.
 */
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import type { AdmissionPluginDeps, ResourceAccess, ServedResource } from '../../../../lib/admission/plugin-deps.js';
import { validatingAdmissionPolicyPlugin } from '../../../../lib/admission/plugins/validating-admission-policy/plugin.js';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { validatingAdmissionPolicy, validatingAdmissionPolicyBinding } from '../../../../lib/apis/admissionregistration/v1/policy.js';
import { ADMISSIONREGISTRATION_GROUP } from '../../../../lib/apis/admissionregistration/v1/types.js';
import { deployment } from '../../../../lib/apis/apps/v1/deployment.js';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import { namespace } from '../../../../lib/apis/core/v1/namespace.js';
import type { KindDefinition, Obj } from '../../../../lib/apis/define.js';
import type { AuthorizationAttributes, AuthorizationResult } from '../../../../lib/request/authorization.js';
import { internalContext, type RequestContext } from '../../../../lib/request/context.js';
import type { UserInfo } from '../../../../lib/request/user.js';
import { admissionAttrs } from '../attrs.js';

export const AR = ADMISSIONREGISTRATION_GROUP;
export const USER: UserInfo = { name: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'] };

const served = (k: KindDefinition): ServedResource => ({ group: k.group, version: k.version, resource: k.resource, kind: k.kind, namespaced: k.namespaced, subresources: [], definition: k });

/** The kinds the fixture serves. */
export const SERVED: readonly ServedResource[] = [configMap, namespace, deployment, validatingAdmissionPolicy, validatingAdmissionPolicyBinding].map(served);

/** One in-memory resource: `cached` is the informer's view, `live` what storage holds besides. */
export class FakeResource implements ResourceAccess {
  readonly cached = new Map<string, Obj>();
  readonly live = new Map<string, Obj>();
  reads = 0;
  private changes = 0;

  private static key(ns: string, name: string): string {
    return ns ? `${ns}/${name}` : name;
  }

  /** Puts `o` in the informer's view (replacing the object: a new version). */
  put(o: Obj): Obj {
    const m = o.metadata as Obj;
    this.cached.set(FakeResource.key((m.namespace as string) ?? '', m.name as string), o);
    this.changes++;
    return o;
  }

  delete(ns: string, name: string): void {
    this.cached.delete(FakeResource.key(ns, name));
    this.changes++;
  }

  readonly lister = {
    get: (ns: string, name: string) => this.cached.get(FakeResource.key(ns, name)),
    list: (ns?: string) => [...this.cached.values()].filter((o) => !ns || (o.metadata as Obj).namespace === ns),
    generation: () => this.changes,
  };

  async get(ns: string, name: string): Promise<Obj | null> {
    this.reads++;
    const k = FakeResource.key(ns, name);
    return this.cached.get(k) ?? this.live.get(k) ?? null;
  }

  async list(ns: string): Promise<Obj[]> {
    this.reads++;
    return [...this.cached.values(), ...this.live.values()].filter((o) => !ns || (o.metadata as Obj).namespace === ns);
  }

  async updateStatus(): Promise<Obj> {
    throw new Error('not used');
  }
}

/** An authorizer allowing exactly the `verb group/resource` strings in `allowed`, recording the checks. */
export class TableAuthorizer {
  readonly asked: AuthorizationAttributes[] = [];
  constructor(readonly allowed: Set<string> = new Set()) {}
  async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
    this.asked.push(a);
    const ok = this.allowed.has(`${a.verb} ${a.apiGroup}/${a.resource}`);
    return { decision: ok ? 'Allow' : 'NoOpinion', reason: ok ? 'listed' : 'not listed' };
  }
}

/** A plugin over fake resources. */
export class Fixture {
  readonly resources = new Map<string, FakeResource>();
  readonly authorizer = new TableAuthorizer();
  readonly plugin;

  constructor() {
    const deps: AdmissionPluginDeps = {
      resource: (group, resource) => this.resource(group, resource),
      servedResources: () => SERVED,
      authorizer: this.authorizer,
      options: { defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300 },
      config: () => undefined,
      systemContext: internalContext({ name: 'system:apiserver', groups: [] }),
      signal: new AbortController().signal,
      log: { warn() {}, error() {}, info() {} },
    };
    this.plugin = validatingAdmissionPolicyPlugin.create(deps);
  }

  resource(group: string, resource: string): FakeResource {
    const key = `${group}/${resource}`;
    let r = this.resources.get(key);
    if (!r) this.resources.set(key, (r = new FakeResource()));
    return r;
  }

  get policies(): FakeResource {
    return this.resource(AR, 'validatingadmissionpolicies');
  }
  get bindings(): FakeResource {
    return this.resource(AR, 'validatingadmissionpolicybindings');
  }
  get namespaces(): FakeResource {
    return this.resource('', 'namespaces');
  }
  get configMaps(): FakeResource {
    return this.resource('', 'configmaps');
  }

  /** Runs validate; returns the outcome with the context's warnings and audit annotations. */
  async run(attrs: AdmissionAttributes): Promise<Outcome> {
    const ctx: RequestContext = internalContext(attrs.user);
    try {
      await this.plugin.validate!(ctx, attrs);
      return { error: undefined, warnings: ctx.warnings, annotations: ctx.auditAnnotations };
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      return { error: err, warnings: ctx.warnings, annotations: ctx.auditAnnotations };
    }
  }
}

/** What a request got. */
export interface Outcome {
  error: StatusError | undefined;
  warnings: string[];
  annotations: Record<string, string>;
}

let uid = 0;

/** A stored policy: `spec` over defaults (failurePolicy Fail, matching CREATE of configmaps). */
export function policy(name: string, spec: Obj, generation = 1): Obj {
  return {
    apiVersion: `${AR}/v1`,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name, uid: `uid-${name}-${++uid}`, generation },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'], scope: '*' }],
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
      },
      ...spec,
    },
  };
}

/** A stored binding of `policyName` with `spec` over defaults (validationActions [Deny]). */
export function binding(name: string, policyName: string, spec: Obj = {}): Obj {
  return {
    apiVersion: `${AR}/v1`,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name, uid: `uid-${name}-${++uid}`, generation: 1 },
    spec: { policyName, validationActions: ['Deny'], ...spec },
  };
}

/** A ConfigMap CREATE in `ns` with `data` and `labels`. */
export function createConfigMap(name: string, data: Record<string, string> = {}, opts: { ns?: string; labels?: Record<string, string>; user?: UserInfo } = {}): AdmissionAttributes {
  const ns = opts.ns ?? 'default';
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, ...(opts.labels && { labels: opts.labels }) }, data };
  return admissionAttrs(opts.user ?? USER, { resource: 'configmaps', kind: 'ConfigMap', namespace: ns, name, namespaced: true, object });
}

/** A Namespace object. */
export function namespaceObj(name: string, labels: Record<string, string> = {}): Obj {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels, uid: `ns-${name}` }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } };
}
