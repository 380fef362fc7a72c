/**
 * Strategies of the `storage.<vendor>/v1` kinds, with the options of the upstream v1.30 registries
 * (pkg/registry/storage/<resource>/strategy.go): none tracks generation as the generic kinds do;
 * a CSIDriver's generation counts its spec changes from 0; only StorageClass allows an update
 * without resourceVersion; a VolumeAttachment's status is written through its subresource;
 * StorageClass and CSIStorageCapacity warn about deprecated node labels.
 */
import { csiDriver, csiNode, csiStorageCapacity, storageClass, volumeAttachment } from '../../apis/storage/v1/index.js';
import { volumeAttributesClass } from '../../apis/storage/v1alpha1/index.js';
import { csiStorageCapacityWarnings, storageClassWarnings } from '../../apis/storage/v1/warnings.js';
import { semanticEqual } from '../../apis/core/v1/semantic-equal.js';
import type { Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';
import { newKindStrategy, newStatusStrategy } from '../generic/kind-strategy.js';
import { metaOf } from '../generic/object-meta.js';
import type { Strategy } from '../rest/strategy.js';

const conditional = { tracksGeneration: false, allowUnconditionalUpdate: false };

/** Any change of a CSIDriver's spec bumps its generation (absent, i.e. 0, after create). */
function countSpecChanges(obj: Obj, old: Obj): void {
  if (semanticEqual(obj.spec, old.spec)) return;
  metaOf(obj).generation = ((metaOf(old).generation as number | undefined) ?? 0) + 1;
}

/** Warnings of create and update from one function of the new object. */
function warningsFrom(warn: (o: Obj) => string[]): Partial<Strategy> {
  return { warningsOnCreate: (_ctx: RequestContext, o: Obj) => warn(o), warningsOnUpdate: (_ctx: RequestContext, o: Obj) => warn(o) };
}

export const storageClassStrategy: Strategy = newKindStrategy(storageClass, { tracksGeneration: false }, warningsFrom(storageClassWarnings));
export const csiDriverStrategy: Strategy = newKindStrategy(csiDriver, { ...conditional, prepareForUpdate: countSpecChanges });
export const csiNodeStrategy: Strategy = newKindStrategy(csiNode, conditional);
export const volumeAttachmentStrategy: Strategy = newKindStrategy(volumeAttachment, conditional);
export const volumeAttachmentStatusStrategy: Strategy = newStatusStrategy(volumeAttachmentStrategy);
export const csiStorageCapacityStrategy: Strategy = newKindStrategy(csiStorageCapacity, conditional, warningsFrom(csiStorageCapacityWarnings));
/** v1alpha1 VolumeAttributesClass (upstream registry/storage/volumeattributesclass): no generation, unconditional updates allowed. */
export const volumeAttributesClassStrategy: Strategy = newKindStrategy(volumeAttributesClass, { tracksGeneration: false });
