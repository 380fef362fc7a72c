/**
 * PodTemplate strategy (upstream v1.30 podtemplate registry): generation 1 on create, +1 on each
 * template change; the deleted object is returned by a delete.
 */
import { podTemplate } from '../../../apis/core/v1/pod-template-kind.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

/** Create, update and delete rules of PodTemplate. */
export const podTemplateStrategy: Strategy = newKindStrategy(podTemplate, { tracksGeneration: true, returnDeletedObject: true });
