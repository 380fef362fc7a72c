/**
 * Every built-in kind, for the protobuf tests: the kind definitions of lib/apis with the name of
 * their fixture in test/fixtures/kinds/ (ConfigMap has none; its tests build objects by hand).
 */
import { deployment } from '../../../../../lib/apis/apps/v1/index.js';
import { cronJob, job } from '../../../../../lib/apis/batch/v1/index.js';
import { coordinationV1Kinds } from '../../../../../lib/apis/coordination/v1/index.js';
import { coreV1ClusterKinds } from '../../../../../lib/apis/core/v1/cluster-kinds.js';
import { configMap } from '../../../../../lib/apis/core/v1/config-map.js';
import { pod } from '../../../../../lib/apis/core/v1/pod.js';
import type { KindDefinition } from '../../../../../lib/apis/define.js';
import { rbacV1Kinds } from '../../../../../lib/apis/rbac/v1/index.js';

/** All built-in kinds. */
export const ALL_KINDS: readonly KindDefinition[] = [
  configMap,
  pod,
  ...coreV1ClusterKinds,
  deployment,
  job,
  cronJob,
  ...coordinationV1Kinds,
  ...rbacV1Kinds,
];

/** The fixture file name (without `.json`) of a kind: `ClusterRoleBinding` → `cluster-role-binding`. */
export function fixtureName(kind: KindDefinition): string {
  return kind.kind.replace(/[A-Z]/g, (c, i: number) => (i ? '-' : '') + c.toLowerCase());
}

/** Finds a kind by apiVersion and kind (or its list kind); the resolver the envelope decoder takes. */
export function resolveKind(apiVersion: string, kind: string): KindDefinition['schema'] | undefined {
  for (const k of ALL_KINDS) {
    if (k.apiVersion !== apiVersion) continue;
    if (k.kind === kind) return k.schema;
    if (k.listKind === kind) return k.listSchema;
  }
  return undefined;
}
