/**
 * Quota evaluators (upstream v1.30 `pkg/quota/v1/evaluator/core` and `quota/v1/generic`): for one
 * resource, which quota names it is charged against, what one object costs, which scopes it
 * falls in and which operations can change its cost. Pods, Services and PersistentVolumeClaims
 * have their own; every other resource has an object count evaluator (`count/<resource>` in the
 * core group, `count/<resource>.<group>` elsewhere), with the legacy names `configmaps`,
 * `secrets`, `replicationcontrollers` and `resourcequotas` as aliases. Shared by the ResourceQuota
 * admission plugin and (through lib/controlplane) the resource quota controller.
 * Spec 001 § Admission control.
 */
import { Quantity } from '../../../apimachinery/quantity.js';
import { type Obj, obj, objs, str } from '../../../apis/core/v1/obj-access.js';
import { BETA_STORAGE_CLASS_ANNOTATION, STORAGE_CLASS_QUOTA_SUFFIX, vendorGroup } from '../../../apis/vendor.js';
import { isPodResource, isQuotaPod, podConstraintViolation, podMatchesScope, podUsage } from './pods.js';
import { quantityOf, readResourceList } from './resource-list.js';
import type { ScopeRequirement } from './scopes.js';

/** Measures one resource's objects for quota. `now` is in ms since the epoch. */
export interface QuotaEvaluator {
  readonly group: string;
  readonly resource: string;
  /** Whether an operation can change what an object of this resource costs (CREATE always; UPDATE for some). */
  handlesUpdate: boolean;
  /** The names of `names` this evaluator charges. */
  matchingResources(names: readonly string[]): string[];
  /** Whether `object` falls in the scope requirement (resources without scopes: never). */
  matchesScope(sel: ScopeRequirement, object: Obj): boolean;
  /** What `object` costs. */
  usage(object: Obj, now: number): Map<string, Quantity>;
  /** Why `object` may not be charged against a quota tracking `required`, or undefined. */
  constraintViolation(required: readonly string[], object: Obj): string | undefined;
  /**
   * Whether an update from `old` to `cur` lowers what the object costs, so the quotas of its
   * namespace need a recount (upstream's replenishment update filter).
   */
  replenishOnUpdate(old: Obj, cur: Obj, now: number): boolean;
}

/** The object count quota name of a resource: `count/pods`, `count/deployments.apps`. */
export function objectCountName(group: string, resource: string): string {
  return group === '' ? `count/${resource}` : `count/${resource}.${group}`;
}

/** The group and resource a `count/…` quota name counts, or undefined for any other name. */
export function countedResource(name: string): { group: string; resource: string } | undefined {
  if (!name.startsWith('count/')) return undefined;
  const rest = name.slice('count/'.length);
  const dot = rest.indexOf('.');
  return dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
}

const never = (): boolean => false;
const noViolation = (): undefined => undefined;

/** The pod evaluator; updates are not charged (in-place resize is off in v1.30). */
const podEvaluator: QuotaEvaluator = {
  group: '',
  resource: 'pods',
  handlesUpdate: false,
  matchingResources: (names) => names.filter(isPodResource),
  matchesScope: podMatchesScope,
  usage: podUsage,
  constraintViolation: podConstraintViolation,
  replenishOnUpdate: (old, cur, now) => isQuotaPod(old, now) && !isQuotaPod(cur, now),
};

const SERVICE_RESOURCES = [objectCountName('', 'services'), 'services', 'services.nodeports', 'services.loadbalancers'];

/** The type quota sees: NodePort and LoadBalancer matter, anything else is ClusterIP-like. */
const serviceType = (svc: Obj): string => str(obj(svc.spec)?.type);

/** The service evaluator: node ports and load balancers by the service's type; updates are charged (the type can change). */
const serviceEvaluator: QuotaEvaluator = {
  group: '',
  resource: 'services',
  handlesUpdate: true,
  matchingResources: (names) => names.filter((n) => SERVICE_RESOURCES.includes(n)),
  matchesScope: never,
  usage(svc) {
    const spec = obj(svc.spec) ?? {};
    const ports = objs(spec.ports);
    const out = new Map<string, Quantity>([
      [SERVICE_RESOURCES[0]!, quantityOf(1)],
      ['services', quantityOf(1)],
      ['services.loadbalancers', quantityOf(0)],
      ['services.nodeports', quantityOf(0)],
    ]);
    const type = serviceType(svc);
    if (type === 'NodePort') out.set('services.nodeports', quantityOf(ports.length));
    if (type === 'LoadBalancer') {
      const explicitOnly = spec.allocateLoadBalancerNodePorts === false;
      out.set('services.nodeports', quantityOf(explicitOnly ? ports.filter((p) => (p.nodePort ?? 0) !== 0).length : ports.length));
      out.set('services.loadbalancers', quantityOf(1));
    }
    return out;
  },
  constraintViolation: noViolation,
  replenishOnUpdate: (old, cur) => serviceType(old) !== serviceType(cur),
};

const PVC_RESOURCES = ['persistentvolumeclaims', 'requests.storage'];
const PVC_COUNT = objectCountName('', 'persistentvolumeclaims');

/** The storage class of a claim: the beta annotation when present, else `spec.storageClassName`. */
function claimClass(pvc: Obj): string {
  const annotations = obj(obj(pvc.metadata)?.annotations);
  if (annotations && BETA_STORAGE_CLASS_ANNOTATION in annotations) return str(annotations[BETA_STORAGE_CLASS_ANNOTATION]);
  return str(obj(pvc.spec)?.storageClassName);
}

/** The claim's storage request, rounded up to whole bytes. */
function claimStorage(pvc: Obj): Quantity | undefined {
  const q = readResourceList(obj(obj(pvc.spec)?.resources)?.requests).get('storage');
  if (!q) return undefined;
  const whole = q.value();
  return q.milliValue() === whole * 1000n ? q : Quantity.parse(String(whole));
}

/** The claim evaluator: count and storage, also per storage class; updates are charged (expansion). */
const pvcEvaluator: QuotaEvaluator = {
  group: '',
  resource: 'persistentvolumeclaims',
  handlesUpdate: true,
  matchingResources: (names) =>
    names.filter((n) => n === PVC_COUNT || PVC_RESOURCES.includes(n) || PVC_RESOURCES.some((r) => n.endsWith(`${STORAGE_CLASS_QUOTA_SUFFIX}${r}`))),
  matchesScope: never,
  usage(pvc) {
    const out = new Map<string, Quantity>([
      ['persistentvolumeclaims', quantityOf(1)],
      [PVC_COUNT, quantityOf(1)],
    ]);
    const cls = claimClass(pvc);
    if (cls !== '') out.set(`${cls}${STORAGE_CLASS_QUOTA_SUFFIX}persistentvolumeclaims`, quantityOf(1));
    const storage = claimStorage(pvc);
    if (storage) {
      out.set('requests.storage', storage);
      if (cls !== '') out.set(`${cls}${STORAGE_CLASS_QUOTA_SUFFIX}requests.storage`, storage);
    }
    return out;
  },
  constraintViolation: noViolation,
  replenishOnUpdate: (old, cur) => {
    const a = claimStorage(old);
    const b = claimStorage(cur);
    return a !== undefined && (b === undefined || b.cmp(a) < 0);
  },
};

/** An object count evaluator: every object costs 1 of each name; only creates are charged. */
function objectCountEvaluator(group: string, resource: string, alias?: string): QuotaEvaluator {
  const names = [objectCountName(group, resource), ...(alias ? [alias] : [])];
  return {
    group,
    resource,
    handlesUpdate: false,
    matchingResources: (input) => input.filter((n) => names.includes(n)),
    matchesScope: never,
    usage: () => new Map(names.map((n) => [n, quantityOf(1)])),
    constraintViolation: noViolation,
    replenishOnUpdate: never,
  };
}

/** The core resources counted under a legacy name besides `count/<resource>`. */
const LEGACY_ALIASES: ReadonlyMap<string, string> = new Map([
  ['configmaps', 'configmaps'],
  ['resourcequotas', 'resourcequotas'],
  ['replicationcontrollers', 'replicationcontrollers'],
  ['secrets', 'secrets'],
]);

/** Resources quota never evaluates (upstream `DefaultIgnoredResources`): virtual ones and Events; keys `<group>/<resource>`. */
const IGNORED: ReadonlySet<string> = new Set([
  '/bindings',
  '/componentstatuses',
  '/events',
  `${vendorGroup('events')}/events`,
  ...['tokenreviews', 'selfsubjectreviews'].map((r) => `${vendorGroup('authentication')}/${r}`),
  ...['subjectaccessreviews', 'selfsubjectaccessreviews', 'localsubjectaccessreviews', 'selfsubjectrulesreviews'].map((r) => `${vendorGroup('authorization')}/${r}`),
]);

/** Whether quota ignores `group`/`resource` (vendor group spelling). */
export const isIgnoredResource = (group: string, resource: string): boolean => IGNORED.has(`${group}/${resource}`);

/** The evaluators by `<group>/<resource>`, made on first use. */
export class EvaluatorRegistry {
  private readonly byResource = new Map<string, QuotaEvaluator>();

  constructor() {
    for (const e of [podEvaluator, serviceEvaluator, pvcEvaluator]) this.byResource.set(`/${e.resource}`, e);
    for (const [r, alias] of LEGACY_ALIASES) this.byResource.set(`/${r}`, objectCountEvaluator('', r, alias));
  }

  /** The evaluator of `group`/`resource` (an object count evaluator unless a special one exists). */
  get(group: string, resource: string): QuotaEvaluator {
    const key = `${group}/${resource}`;
    let e = this.byResource.get(key);
    if (!e) {
      e = objectCountEvaluator(group, resource);
      this.byResource.set(key, e);
    }
    return e;
  }

  /** The evaluators that charge some of `names`: the special ones, the legacy ones, and one per `count/…` name. */
  forNames(names: readonly string[]): QuotaEvaluator[] {
    const out = new Set<QuotaEvaluator>();
    for (const n of names) {
      const counted = countedResource(n);
      if (counted) out.add(this.get(counted.group, counted.resource));
    }
    for (const e of this.byResource.values()) if (e.matchingResources(names).length > 0) out.add(e);
    return [...out];
  }
}

