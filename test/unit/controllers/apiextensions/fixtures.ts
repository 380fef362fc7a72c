import type { CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionNames } from '../../../../lib/apiextensions/types.js';

/** Names `plural`/`singular`/`Kind`/`KindList` from a singular word (`foo` → foos, foo, Foo, FooList). */
export function names(word: string, extra: Partial<CustomResourceDefinitionNames> = {}): CustomResourceDefinitionNames {
  const kind = word.charAt(0).toUpperCase() + word.slice(1);
  return { plural: `${word}s`, singular: word, kind, listKind: `${kind}List`, ...extra };
}

/** A CRD of `group` requesting `spec`, with optional accepted names and conditions. */
export function crd(
  group: string,
  spec: CustomResourceDefinitionNames,
  accepted?: CustomResourceDefinitionNames,
  conditions?: CustomResourceDefinitionCondition[],
): CustomResourceDefinition {
  const out: CustomResourceDefinition = {
    metadata: { name: `${spec.plural}.${group}`, resourceVersion: '5' },
    spec: { group, names: spec, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true }] },
  };
  if (accepted || conditions) out.status = { acceptedNames: accepted, conditions };
  return out;
}

export const T0 = new Date('2026-01-02T03:04:05.678Z');
export const T0S = '2026-01-02T03:04:05Z';
export const T1 = new Date('2026-02-03T04:05:06.000Z');
export const T1S = '2026-02-03T04:05:06Z';
