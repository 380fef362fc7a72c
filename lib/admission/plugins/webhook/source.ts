/**
 * The webhooks of the MutatingWebhookConfigurations or ValidatingWebhookConfigurations
 * (admissionregistration.<vendor>/v1), read from the resource's informer at every admission
 * request — so a change is in effect as soon as the informer has seen it (milliseconds) — and
 * compiled once per configuration version (selectors, match conditions). Ordered as upstream:
 * configurations by name, webhooks in their order within one (spec 001 § Admission control).
 */
import type { Obj } from '../../../apis/define.js';
import { compileMatchConditions, type CompiledMatchConditions } from '../../cel/match-conditions.js';
import type { AdmissionRule } from '../../matching/rules.js';
import { type CompiledSelector, compileSelector } from '../../matching/selectors.js';
import type { Lister } from '../../plugin-deps.js';
import type { WebhookClientConfig } from './client.js';

/** One webhook of a configuration, ready to match and call. */
export interface Webhook {
  /** `<configuration>/<webhook>/<n>`, n counting repeats of the name in the configuration (reinvocation bookkeeping). */
  uid: string;
  configurationName: string;
  name: string;
  clientConfig: WebhookClientConfig;
  rules: AdmissionRule[];
  failurePolicy: 'Fail' | 'Ignore';
  matchPolicy: string;
  /** A selector that did not compile leaves its error message here (the webhook then fails every request it might match). */
  namespaceSelector: CompiledSelector | string;
  objectSelector: CompiledSelector | string;
  /** `None`, `NoneOnDryRun`, `Some`, `Unknown`, or undefined when unset. */
  sideEffects: string | undefined;
  timeoutSeconds: number;
  admissionReviewVersions: string[];
  /** Mutating webhooks: `IfNeeded` or `Never`. */
  reinvocationPolicy: string;
  matchConditions: CompiledMatchConditions;
}

/** The current webhooks of one kind of configuration. */
export interface WebhookSource {
  /** Every webhook, in call order (a new array; the webhooks are shared and must not be changed). */
  webhooks(): readonly Webhook[];
}

function selector(sel: unknown): CompiledSelector | string {
  try {
    return compileSelector(sel as Parameters<typeof compileSelector>[0]);
  } catch (err) {
    return (err as Error).message;
  }
}

function webhookOf(configurationName: string, h: Obj, uid: string): Webhook {
  const conditions = ((h.matchConditions ?? []) as Array<{ name: string; expression: string }>).map((c) => ({ name: c.name, expression: c.expression }));
  return {
    uid,
    configurationName,
    name: String(h.name ?? ''),
    clientConfig: (h.clientConfig ?? {}) as WebhookClientConfig,
    rules: (h.rules ?? []) as AdmissionRule[],
    failurePolicy: h.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
    matchPolicy: typeof h.matchPolicy === 'string' ? h.matchPolicy : 'Equivalent',
    namespaceSelector: selector(h.namespaceSelector),
    objectSelector: selector(h.objectSelector),
    sideEffects: typeof h.sideEffects === 'string' ? h.sideEffects : undefined,
    timeoutSeconds: typeof h.timeoutSeconds === 'number' && h.timeoutSeconds > 0 ? h.timeoutSeconds : 10,
    admissionReviewVersions: (h.admissionReviewVersions ?? []) as string[],
    reinvocationPolicy: typeof h.reinvocationPolicy === 'string' ? h.reinvocationPolicy : 'Never',
    matchConditions: compileMatchConditions(conditions, { params: false, authorizer: true }),
  };
}

/** The webhooks of one configuration object, in order. */
export function webhooksOf(config: Obj): Webhook[] {
  const name = String((config.metadata as Obj | undefined)?.name ?? '');
  const seen = new Map<string, number>();
  return ((config.webhooks ?? []) as Obj[]).map((h) => {
    const n = seen.get(String(h.name)) ?? 0;
    seen.set(String(h.name), n + 1);
    return webhookOf(name, h, `${name}/${String(h.name)}/${n}`);
  });
}

/** A source over the informer `lister` of mutatingwebhookconfigurations or validatingwebhookconfigurations. */
export function webhookSource(lister: Lister): WebhookSource {
  /** Compiled webhooks per configuration uid, with the resourceVersion they were compiled from. */
  const compiled = new Map<string, { version: string; webhooks: Webhook[] }>();
  let ordered: Webhook[] = [];
  /** The lister generation `ordered` was built at. */
  let seen = -1;
  return {
    webhooks() {
      const generation = lister.generation();
      if (generation === seen) return ordered;
      const configs = lister.list('');
      const metaOf = (c: Obj) => (c.metadata ?? {}) as Obj;
      const live = new Set<string>();
      for (const c of configs) {
        const meta = metaOf(c);
        const uid = String(meta.uid);
        live.add(uid);
        const version = String(meta.resourceVersion);
        if (compiled.get(uid)?.version !== version) compiled.set(uid, { version, webhooks: webhooksOf(c) });
      }
      for (const uid of [...compiled.keys()]) if (!live.has(uid)) compiled.delete(uid);
      const byName = [...configs].sort((a, b) => {
        const x = String(metaOf(a).name);
        const y = String(metaOf(b).name);
        return x < y ? -1 : x > y ? 1 : 0;
      });
      ordered = byName.flatMap((c) => compiled.get(String(metaOf(c).uid))!.webhooks);
      seen = generation;
      return ordered;
    },
  };
}
