/**
 * EndpointSlice strategy (upstream discovery endpointslice registry): generation 1 at create,
 * bumped by any change but metadata, and by label changes; `deprecatedTopology` is not writable
 * through v1: it is cleared on create and on every update that changes the endpoints.
 */
import { deepEqual } from '../../../apimachinery/deep-equal.js';
import { endpointSlice } from '../../../apis/discovery/v1/index.js';
import { objs, type Obj } from '../../../apis/core/v1/obj-access.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import { metaOf } from '../../generic/object-meta.js';
import type { Strategy } from '../../rest/strategy.js';

/** Clears the v1beta1 topology of every endpoint. */
function dropTopology(eps: Obj): void {
  for (const ep of objs(eps.endpoints)) delete ep.deprecatedTopology;
}

/** Label changes bump the generation too; topology goes when the endpoints change. */
function prepareForUpdate(eps: Obj, old: Obj): void {
  const meta = metaOf(eps);
  const oldGeneration = (metaOf(old).generation as number | undefined) ?? 1;
  if (meta.generation === oldGeneration && !deepEqual(meta.labels ?? {}, metaOf(old).labels ?? {})) meta.generation = oldGeneration + 1;
  if (!deepEqual(eps.endpoints ?? null, old.endpoints ?? null)) dropTopology(eps);
}

/** Create, update and delete rules of EndpointSlice. */
export const endpointSliceStrategy: Strategy = newKindStrategy(endpointSlice, { tracksGeneration: true, prepareForCreate: dropTopology, prepareForUpdate });
