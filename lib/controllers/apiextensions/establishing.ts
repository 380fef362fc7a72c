/**
 * The establishing decision of a CustomResourceDefinition (upstream v1.30 apiextensions
 * `EstablishingController.sync`): once the naming controller has accepted a CRD's names, it
 * becomes Established True `InitialNamesAccepted`, after which its custom objects are served.
 * Established never goes back to False. Pure.
 */
import type { CustomResourceDefinition, CustomResourceDefinitionStatus } from '../../apiextensions/types.js';
import { type Condition, ESTABLISHED, NAMES_ACCEPTED, isConditionTrue, setCondition } from './conditions.js';

/** The condition the establishing controller writes. */
export const ESTABLISHED_CONDITION: Condition = { type: ESTABLISHED, status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };

/** Whether `crd` waits to be established: NamesAccepted is True and Established is not. */
export function needsEstablishing(crd: CustomResourceDefinition): boolean {
  return isConditionTrue(crd, NAMES_ACCEPTED) && !isConditionTrue(crd, ESTABLISHED);
}

/**
 * The status that establishes `crd` at `now` (a new object; `crd` is not mutated), or undefined
 * when it does not wait to be established.
 */
export function establishedStatus(crd: CustomResourceDefinition, now: Date): CustomResourceDefinitionStatus | undefined {
  if (!needsEstablishing(crd)) return undefined;
  const next: CustomResourceDefinitionStatus = { ...crd.status, conditions: (crd.status?.conditions ?? []).map((c) => ({ ...c })) };
  setCondition(next, ESTABLISHED_CONDITION, now);
  return next;
}
