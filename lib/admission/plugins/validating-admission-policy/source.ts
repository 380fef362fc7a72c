/**
 * The policies in force (upstream v1.30 generic policy source; spec 001 § Admission control):
 * each ValidatingAdmissionPolicy that some binding names, with those bindings, read from the
 * informers of both kinds. A policy acts only through bindings; a binding naming no existing
 * policy does nothing. Policies are compiled once per generation (cache keyed by uid and
 * generation), bindings once per stored version; the list is rebuilt only when an informer
 * shows another object than last time, so a change is in force with the next request after the
 * informer sees it. Policies are ordered by name, their bindings by name.
 */
import { list, obj, str, type Obj } from '../../../apis/core/v1/obj-access.js';
import type { Lister } from '../../plugin-deps.js';
import type { CompiledPolicy } from './compile.js';
import { compileMatchResources, type CompiledMatchResources, nameOf } from './matching.js';

/** A binding, compiled once per stored version. */
export interface CompiledBinding {
  readonly name: string;
  readonly policyName: string;
  readonly paramRef?: Obj;
  /** Absent: the binding narrows nothing. */
  readonly matchResources?: CompiledMatchResources;
  /** `spec.validationActions` as written (the audit annotation lists them). */
  readonly validationActions: readonly string[];
}

/** A policy with the bindings that name it. */
export interface PolicyHook {
  readonly policy: CompiledPolicy;
  readonly bindings: readonly CompiledBinding[];
}

function compileBinding(b: Obj): CompiledBinding {
  const spec = obj(b.spec) ?? {};
  const mr = obj(spec.matchResources);
  return {
    name: nameOf(b),
    policyName: str(spec.policyName),
    paramRef: obj(spec.paramRef),
    matchResources: mr ? compileMatchResources(mr) : undefined,
    validationActions: list(spec.validationActions).filter((a): a is string => typeof a === 'string'),
  };
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The policies and bindings in force, over their listers. */
export class PolicySource {
  private readonly compiledPolicies = new Map<string, { generation: unknown; compiled: CompiledPolicy }>();
  private readonly compiledBindings = new WeakMap<Obj, CompiledBinding>();
  /** The objects the current hooks were built from: each binding and the policy it named. */
  private inputs: Array<{ binding: Obj; policy: Obj | undefined }> = [];
  private current: readonly PolicyHook[] = [];
  /** The listers' generations the hooks were last checked at. */
  private seen = { policies: -1, bindings: -1 };

  constructor(
    private readonly policies: Lister,
    private readonly bindings: Lister,
    private readonly compile: (policy: Obj) => CompiledPolicy,
  ) {}

  /** The hooks in force now, rebuilt when a policy or binding changed. */
  hooks(): readonly PolicyHook[] {
    const policies = this.policies.generation();
    const bindingsSeen = this.bindings.generation();
    if (policies === this.seen.policies && bindingsSeen === this.seen.bindings) return this.current;
    this.seen = { policies, bindings: bindingsSeen };
    const bindings = this.bindings.list();
    if (bindings.length === this.inputs.length && this.unchanged(bindings)) return this.current;
    this.rebuild(bindings);
    return this.current;
  }

  private policyOf(binding: Obj): Obj | undefined {
    const name = str(obj(binding.spec)?.policyName);
    return name === '' ? undefined : this.policies.get('', name);
  }

  private unchanged(bindings: readonly Obj[]): boolean {
    for (let i = 0; i < bindings.length; i++) {
      const last = this.inputs[i]!;
      if (last.binding !== bindings[i] || last.policy !== this.policyOf(bindings[i]!)) return false;
    }
    return true;
  }

  private compiledPolicy(policy: Obj): CompiledPolicy {
    const meta = obj(policy.metadata) ?? {};
    const uid = str(meta.uid) || nameOf(policy);
    const cached = this.compiledPolicies.get(uid);
    if (cached && cached.generation === meta.generation) return cached.compiled;
    const compiled = this.compile(policy);
    this.compiledPolicies.set(uid, { generation: meta.generation, compiled });
    return compiled;
  }

  private rebuild(bindings: readonly Obj[]): void {
    this.inputs = bindings.map((binding) => ({ binding, policy: this.policyOf(binding) }));
    const byPolicy = new Map<Obj, CompiledBinding[]>();
    for (const { binding, policy } of this.inputs) {
      if (!policy) continue;
      let compiled = this.compiledBindings.get(binding);
      if (!compiled) this.compiledBindings.set(binding, (compiled = compileBinding(binding)));
      let list = byPolicy.get(policy);
      if (!list) byPolicy.set(policy, (list = []));
      list.push(compiled);
    }
    const live = new Set<string>();
    const hooks: PolicyHook[] = [];
    for (const [policy, list] of byPolicy) {
      live.add(str(obj(policy.metadata)?.uid) || nameOf(policy));
      hooks.push({ policy: this.compiledPolicy(policy), bindings: list.sort(byName) });
    }
    for (const uid of this.compiledPolicies.keys()) if (!live.has(uid)) this.compiledPolicies.delete(uid);
    this.current = hooks.sort((a, b) => byName(a.policy, b.policy));
  }
}
