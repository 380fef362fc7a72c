/**
 * The parameters a binding evaluates its policy with (upstream v1.30 `CollectParams`; spec 001
 * § Admission control): none when the policy has no paramKind or the binding no paramRef (one
 * evaluation with `params` null); else the object `paramRef.name`, or every object selected by
 * `paramRef.selector`, in `paramRef.namespace` — or, for a namespaced paramKind, in the request's
 * namespace. No parameter found: no evaluation, or with `parameterNotFoundAction: Deny` an error
 * of the binding. Objects are read from the informer, then from storage (one created a moment
 * ago), and given in the paramKind's version.
 */
import { labelSelectorFromObject } from '../../../apimachinery/labels/selector.js';
import { obj, str, type Obj } from '../../../apis/core/v1/obj-access.js';
import { cachedOrLive } from '../../plugin-deps.js';
import type { CompiledPolicy } from './compile.js';

/** The parameters of one binding: the objects (null: the policy takes none), or the binding's error. */
export type ParamsOutcome = { params: ReadonlyArray<Obj | null> } | { error: string };

const NO_PARAMS: ParamsOutcome = { params: [null] };

function labelsOf(o: Obj): Record<string, string> {
  return (obj(o.metadata)?.labels as Record<string, string> | undefined) ?? {};
}

/**
 * Collects the parameters of `binding`'s `paramRef` for a request in `namespace` ('' for a
 * cluster-scoped request), with upstream's error texts.
 */
export async function collectParams(policy: CompiledPolicy, paramRef: Obj | undefined, namespace: string): Promise<ParamsOutcome> {
  if (!policy.hasParamKind || !paramRef) return NO_PARAMS;
  const source = policy.params!;
  const namespaced = source.served.namespaced;
  const refNamespace = str(paramRef.namespace);
  let ns = '';
  if (namespaced) {
    ns = refNamespace || namespace;
    if (ns === '') return { error: 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources' };
  } else if (refNamespace !== '') {
    return { error: 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`' };
  }
  const name = str(paramRef.name);
  let found: Obj[];
  if (name !== '') {
    const o = await cachedOrLive(source.access, ns, name);
    found = o ? [o] : [];
  } else {
    const selector = labelSelectorFromObject(obj(paramRef.selector) ?? {});
    const cached = source.access.lister.list(ns).filter((o) => selector.matches(labelsOf(o)));
    found = cached.length > 0 ? cached : (await source.access.list(ns)).filter((o) => selector.matches(labelsOf(o)));
  }
  if (found.length === 0) {
    if (str(paramRef.parameterNotFoundAction) === 'Deny') return { error: 'no params found for policy binding with `Deny` parameterNotFoundAction' };
    return { params: [] };
  }
  const conversion = source.served.conversion;
  return { params: conversion ? found.map((o) => conversion.toServed(o)) : found };
}
