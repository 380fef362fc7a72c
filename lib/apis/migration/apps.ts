/**
 * DaemonSet, Deployment, ReplicaSet and StatefulSet in `extensions/v1beta1`, `apps/v1beta1` and
 * `apps/v1beta2` → `apps/v1` (spec 001 § Removed API versions, 1.16 row; upstream
 * `pkg/apis/extensions/v1beta1/defaults.go`, `pkg/apis/apps/v1beta{1,2}/defaults.go`).
 *
 * - `spec.selector`, required in v1, defaults to the template's labels as the old versions
 *   defaulted it.
 * - As upstream's convert decodes the old version with its own defaults, the values whose
 *   defaults changed are written out so the object behaves as it did:
 *   extensions/v1beta1 Deployment: rolling update with `maxSurge` 1 and `maxUnavailable` 1,
 *   `revisionHistoryLimit` and `progressDeadlineSeconds` 2147483647 (v1: 25%, 25%, 10, 600);
 *   apps/v1beta1 Deployment: `revisionHistoryLimit` 2, `progressDeadlineSeconds` 600;
 *   extensions/v1beta1 DaemonSet and apps/v1beta1 StatefulSet: update strategy `OnDelete`
 *   (v1: `RollingUpdate`). Other unset fields take v1's defaults.
 * - Deployment `spec.rollbackTo` and DaemonSet `spec.templateGeneration` are dropped (v1 has no
 *   such fields).
 */
import type { Obj } from '../define.js';
import { EXTENSIONS_GROUP } from './same-shape.js';
import { type MigrationRow, child, isObj, setDefault } from './types.js';

const APPS_GROUP = 'apps';
const MAX_INT32 = 2147483647;
type Kind = 'Deployment' | 'DaemonSet' | 'ReplicaSet' | 'StatefulSet';
type OldVersion = 'extensions/v1beta1' | 'apps/v1beta1' | 'apps/v1beta2';

/** The old version's defaults that differ from v1's, by kind (applied to `spec`). */
function oldDefaults(version: OldVersion, kind: Kind, spec: Obj): void {
  if (kind === 'Deployment' && version === 'extensions/v1beta1') {
    const strategy = child(spec, 'strategy');
    setDefault(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') {
      const ru = child(strategy, 'rollingUpdate');
      setDefault(ru, 'maxUnavailable', 1);
      setDefault(ru, 'maxSurge', 1);
    }
    setDefault(spec, 'revisionHistoryLimit', MAX_INT32);
    setDefault(spec, 'progressDeadlineSeconds', MAX_INT32);
  }
  if (kind === 'Deployment' && version === 'apps/v1beta1') {
    setDefault(spec, 'revisionHistoryLimit', 2);
    setDefault(spec, 'progressDeadlineSeconds', 600);
  }
  if ((kind === 'DaemonSet' && version === 'extensions/v1beta1') || (kind === 'StatefulSet' && version === 'apps/v1beta1')) {
    setDefault(child(spec, 'updateStrategy'), 'type', 'OnDelete');
  }
}

/** The conversion of one old kind (see the file comment). */
function workloadToV1(version: OldVersion, kind: Kind): (obj: Obj) => Obj {
  return (obj) => {
    const spec = obj.spec;
    if (!isObj(spec)) return obj;
    const template = isObj(spec.template) ? spec.template : undefined;
    const labels = template && isObj(template.metadata) && isObj(template.metadata.labels) ? template.metadata.labels : undefined;
    if (spec.selector === undefined || spec.selector === null) {
      if (labels && Object.keys(labels).length > 0) spec.selector = { matchLabels: { ...labels } };
    }
    delete spec.rollbackTo;
    delete spec.templateGeneration;
    oldDefaults(version, kind, spec);
    return obj;
  };
}

const KINDS: readonly Kind[] = ['DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet'];
const OLD: readonly [string, string, OldVersion][] = [
  [EXTENSIONS_GROUP, 'v1beta1', 'extensions/v1beta1'],
  [APPS_GROUP, 'v1beta1', 'apps/v1beta1'],
  [APPS_GROUP, 'v1beta2', 'apps/v1beta2'],
];

/** The workload rows: every kind of the row in each of its three old versions. */
export const appsRows: readonly MigrationRow[] = OLD.flatMap(([group, version, gv]) =>
  KINDS.map((kind) => ({
    from: { group, version, kind },
    to: { group: APPS_GROUP, version: 'v1', kind },
    removedIn: '1.16',
    convert: workloadToV1(gv, kind),
  })),
);
