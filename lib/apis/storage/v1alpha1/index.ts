/** The kinds of `storage.<vendor>/v1alpha1` (off by default): volumeattributesclasses. */
import type { KindDefinition } from '../../define.js';
import { volumeAttributesClass } from './volume-attributes-class.js';

export { volumeAttributesClass };

/** Every kind of the group version, for the catalogue. */
export const storageV1alpha1Kinds: readonly KindDefinition[] = [volumeAttributesClass];
