/**
 * Round trips between every served version and its storage version (spec 001 § Deprecation
 * rules, rule 2: no information lost; issue #15 quality bar), with fuzzed objects generated from
 * each kind's definition: served → stored → served keeps every value the object had (the other
 * version's defaults may add values, as upstream's defaulting through the internal version does),
 * and a second round trip changes nothing; likewise stored → served → stored.
 */
import { expect } from 'chai';
import { canonicalize } from '../../../lib/apimachinery/schema/canonical.js';
import { applyDefaults } from '../../../lib/apimachinery/schema/defaults.js';
import type { KindDefinition, Obj } from '../../../lib/apis/define.js';
import { servedResources } from '../../../lib/controlplane/resources.js';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import type { StorageInterface } from '../../../lib/storage/interface.js';
import { fuzzObject } from '../../framework/fuzz.js';

const SEEDS = 200;

/** The object as the server holds it after decoding: defaulted, in canonical form. */
function decoded(kind: KindDefinition, obj: Obj): Obj {
  const copy = structuredClone(obj);
  applyDefaults(kind.schema, copy);
  return canonicalize(kind.schema, copy);
}

/** Paths where `whole` lacks or changes a value `part` has (lists compared item by item). */
function lost(part: unknown, whole: unknown, path = ''): string[] {
  if (Array.isArray(part)) {
    if (!Array.isArray(whole) || whole.length !== part.length) return [path];
    return part.flatMap((x, i) => lost(x, whole[i], `${path}[${i}]`));
  }
  if (part !== null && typeof part === 'object') {
    if (whole === null || typeof whole !== 'object' || Array.isArray(whole)) return [path];
    return Object.entries(part as Obj).flatMap(([k, v]) => lost(v, (whole as Obj)[k], path ? `${path}.${k}` : k));
  }
  return part === whole ? [] : [path];
}

/** The source field of each metric type (autoscaling/v2 MetricSpec and MetricStatus). */
const METRIC_SOURCES: Record<string, string> = { Object: 'object', Pods: 'pods', Resource: 'resource', ContainerResource: 'containerResource', External: 'external' };
/** The target field of each target type (autoscaling/v2 MetricTarget). */
const TARGET_VALUES: Record<string, string> = { Utilization: 'averageUtilization', Value: 'value', AverageValue: 'averageValue' };
/** The target types validation allows for each metric source. */
const TARGET_TYPES: Record<string, readonly string[]> = {
  object: ['Value', 'AverageValue'],
  pods: ['AverageValue'],
  resource: ['Utilization', 'AverageValue'],
  containerResource: ['Utilization', 'AverageValue'],
  external: ['Value', 'AverageValue'],
};

/**
 * Makes the unions of a fuzzed autoscaling/v2 HorizontalPodAutoscaler what validation lets
 * through (as upstream's round-trip fuzzers do): a metric holds the source its `type` names, a
 * target one of the types its source allows and the value its `type` names. Other kinds pass unchanged.
 */
function validUnions(kind: KindDefinition, obj: Obj): Obj {
  if (kind.apiVersion !== 'autoscaling/v2') return obj;
  const metrics = ((obj.spec as Obj | undefined)?.metrics as Obj[] | undefined) ?? [];
  for (const m of metrics) {
    if (!Object.hasOwn(METRIC_SOURCES, m.type as string)) m.type = 'Pods';
    const source = METRIC_SOURCES[m.type as string]!;
    for (const other of Object.values(METRIC_SOURCES)) if (other !== source) delete m[other];
    const src = (m[source] ??= {}) as Obj;
    const target = (src.target ??= {}) as Obj;
    const allowed = TARGET_TYPES[source]!;
    if (!allowed.includes(target.type as string)) target.type = allowed[0];
    const value = TARGET_VALUES[target.type as string]!;
    for (const other of Object.values(TARGET_VALUES)) if (other !== value) delete target[other];
    target[value] ??= value === 'averageUtilization' ? 50 : '1';
  }
  return obj;
}

const conversions = servedResources(() => ({}) as StorageInterface, '/registry').flatMap((r) => (r.versions ?? []).map((v) => v.conversion));

describe('round trips between served versions, with fuzzed objects (issue #15)', () => {
  it('covers at least the known pairs', () => {
    expect(conversions.map((c) => `${c.servedKind.apiVersion} ${c.servedKind.kind}`)).to.include.members(['autoscaling/v1 HorizontalPodAutoscaler', `${vendorGroup('events')}/v1 Event`]);
  });

  for (const c of conversions) {
    const pair = `${c.servedKind.apiVersion} ${c.servedKind.kind} ⇄ ${c.storageKind.apiVersion} ${c.storageKind.kind}`;
    const served = (o: Obj) => c.toServed(c.toStorage(structuredClone(o)));
    const stored = (o: Obj) => c.toStorage(c.toServed(structuredClone(o)));
    it(`${pair}: served → stored → served loses nothing (${SEEDS} fuzzed objects)`, () => {
      for (let seed = 1; seed <= SEEDS; seed++) {
        const obj = decoded(c.servedKind, validUnions(c.servedKind, fuzzObject(c.servedKind, seed)));
        const once = served(obj);
        expect(lost(obj, once), `seed ${seed}: values lost`).to.deep.equal([]);
        expect(served(once), `seed ${seed}: a second round trip`).to.deep.equal(once);
      }
    });
    it(`${pair}: stored → served → stored loses nothing (${SEEDS} fuzzed objects)`, () => {
      for (let seed = 1; seed <= SEEDS; seed++) {
        const obj = decoded(c.storageKind, validUnions(c.storageKind, fuzzObject(c.storageKind, seed)));
        const once = stored(obj);
        expect(lost(obj, once), `seed ${seed}: values lost`).to.deep.equal([]);
        expect(stored(once), `seed ${seed}: a second round trip`).to.deep.equal(once);
      }
    });
  }
});
