/** The kinds of `storage.<vendor>/v1`, in upstream discovery order (by resource name). */
import type { KindDefinition } from '../../define.js';
import { csiDriver } from './csi-driver.js';
import { csiNode } from './csi-node.js';
import { csiStorageCapacity } from './csi-storage-capacity.js';
import { storageClass } from './storage-class.js';
import { volumeAttachment } from './volume-attachment.js';

export { STORAGE_GROUP } from './group.js';
export { csiDriver, csiNode, csiStorageCapacity, storageClass, volumeAttachment };

/** Every kind of the group version, for the catalogue. */
export const storageV1Kinds: readonly KindDefinition[] = [csiDriver, csiNode, csiStorageCapacity, storageClass, volumeAttachment];
