/**
 * The HorizontalPodAutoscaler's Table columns (spec 000 § Table representation): Name, Reference,
 * Targets, MinPods, MaxPods, Replicas, Age — as the upstream v1.30 printer prints the object in
 * its internal (v2) shape, whichever version is asked:
 * - Reference: `<kind>/<name>` of the scale target.
 * - Targets: `<current>/<target>` of the first two metrics, then ` + N more...`; a resource
 *   metric is prefixed by its resource name (`cpu: 40%/80%`), an average-value target of an object
 *   or external metric is marked ` (avg)`; `<unknown>` for a current value not yet observed,
 *   `<auto>` for a utilization target without a value, `<none>` without metrics.
 * - MinPods: the minimum replicas, `<unset>` when absent; MaxPods and Replicas: integers.
 */
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { horizontalPodAutoscalerFromV1 } from '../autoscaling/v1/conversion.js';
import { obj, objs, str, type Obj } from '../core/v1/obj-access.js';
import { AGE_COLUMN, age, at, column, int, NAME_COLUMN, objectName } from './common.js';

const COLUMNS = Object.freeze([
  NAME_COLUMN,
  column('Reference', 'string', 'The scaled object, as kind/name.'),
  column('Targets', 'string', 'The current and target values of the metrics the autoscaler scales on.'),
  column('MinPods', 'string', 'The fewest replicas the autoscaler scales to.'),
  column('MaxPods', 'string', 'The most replicas the autoscaler scales to.'),
  column('Replicas', 'string', 'The replicas the autoscaler last saw.'),
  AGE_COLUMN,
]);

/** How many metrics the Targets cell shows before ` + N more...`. */
const SHOWN_METRICS = 2;
const UNKNOWN = '<unknown>';
/** A quantity as Go prints a `*Quantity` (`<nil>` when unset). */
const q = (v: unknown): string => (v == null ? '<nil>' : str(v));

/** `<current>/<target>` of a Resource or ContainerResource metric, prefixed by the resource name. */
function resourceTargets(source: Obj, current: Obj | undefined): string {
  const target = at(source, 'target');
  if (target.averageValue != null) return `${str(source.name)}: ${current ? q(at(current, 'current').averageValue) : UNKNOWN}/${q(target.averageValue)}`;
  const utilization = current ? at(current, 'current').averageUtilization : undefined;
  const shown = utilization != null ? `${String(utilization)}%` : UNKNOWN;
  const wanted = target.averageUtilization != null ? `${String(target.averageUtilization)}%` : '<auto>';
  return `${str(source.name)}: ${shown}/${wanted}`;
}

/** `<current>/<target>` of an Object or External metric: by average value (` (avg)`) or by value. */
function valueTargets(source: Obj, current: Obj | undefined): string {
  const target = at(source, 'target');
  if (target.averageValue != null) {
    const value = current ? at(current, 'current').averageValue : undefined;
    return `${value != null ? q(value) : UNKNOWN}/${q(target.averageValue)} (avg)`;
  }
  return `${current ? q(at(current, 'current').value) : UNKNOWN}/${q(target.value)}`;
}

/** The Targets cell (upstream formatHPAMetrics). */
export function formatHPAMetrics(specs: Obj[], statuses: Obj[]): string {
  if (specs.length === 0) return '<none>';
  const list = specs.map((spec, i) => {
    const status = statuses[i];
    switch (spec.type) {
      case 'External':
        return valueTargets(at(spec, 'external'), obj(status?.external));
      case 'Pods': {
        const current = obj(status?.pods);
        return `${current ? q(at(current, 'current').averageValue) : UNKNOWN}/${q(at(spec, 'pods', 'target').averageValue)}`;
      }
      case 'Object':
        return valueTargets(at(spec, 'object'), obj(status?.object));
      case 'Resource':
        return resourceTargets(at(spec, 'resource'), obj(status?.resource));
      case 'ContainerResource':
        return resourceTargets(at(spec, 'containerResource'), obj(status?.containerResource));
      default:
        return '<unknown type>';
    }
  });
  const shown = list.slice(0, SHOWN_METRICS).join(', ');
  return list.length > SHOWN_METRICS ? `${shown} + ${list.length - SHOWN_METRICS} more...` : shown;
}

function cells(hpa: Obj, now: number): Array<string | number> {
  const spec = at(hpa, 'spec');
  const ref = at(spec, 'scaleTargetRef');
  const min = spec.minReplicas;
  return [
    objectName(hpa),
    `${str(ref.kind)}/${str(ref.name)}`,
    formatHPAMetrics(objs(spec.metrics), objs(at(hpa, 'status').currentMetrics)),
    typeof min === 'number' ? String(min) : '<unset>',
    int(spec.maxReplicas),
    int(at(hpa, 'status').currentReplicas),
    age(hpa, now),
  ];
}

/** The HorizontalPodAutoscaler printer of autoscaling/v2 objects. */
export const horizontalPodAutoscalerPrinter: TablePrinter = Object.freeze({ columns: COLUMNS, cells });

/** The HorizontalPodAutoscaler printer of autoscaling/v1 objects: the v2 object they convert to, printed. */
export const horizontalPodAutoscalerV1Printer: TablePrinter = Object.freeze({ columns: COLUMNS, cells: (hpa: Obj, now: number) => cells(horizontalPodAutoscalerFromV1(hpa), now) });
