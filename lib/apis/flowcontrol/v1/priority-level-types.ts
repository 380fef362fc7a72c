/**
 * The structures of flowcontrol/v1 PriorityLevelConfiguration (upstream v1.30 field order, JSON
 * names, `omitempty`, protobuf numbers and list markers). Defaults as upstream's v1 defaulters
 * (spec 001 § Limits): a `limited` level gets `nominalConcurrencyShares` 30 only when unspecified
 * (an explicit 0 stays 0) and `lendablePercent` 0; a present `queuing` gets 64 queues, hand size 8
 * and queue length limit 50 for each zero or absent value; a present `exempt` gets 0 shares and 0
 * lendable percent. Nothing else (no `limitResponse.type`) is defaulted.
 */
import { field, int32, string, struct } from '../../../apimachinery/schema/builder.js';
import type { Obj } from '../../define.js';
import { conditionList, FLOWCONTROL, flowControlCondition } from './types.js';

/** Upstream `PriorityLevelConfigurationDefault*`. */
export const DEFAULT_NOMINAL_CONCURRENCY_SHARES = 30;
export const DEFAULT_QUEUES = 64;
export const DEFAULT_HAND_SIZE = 8;
export const DEFAULT_QUEUE_LENGTH_LIMIT = 50;

const unset = (v: unknown): boolean => v === undefined || v === null;
const zero = (v: unknown): boolean => unset(v) || v === 0;

/** `SetDefaults_QueuingConfiguration`: each zero value gets its default. */
function defaultQueuing(q: Obj): void {
  if (zero(q.handSize)) q.handSize = DEFAULT_HAND_SIZE;
  if (zero(q.queues)) q.queues = DEFAULT_QUEUES;
  if (zero(q.queueLengthLimit)) q.queueLengthLimit = DEFAULT_QUEUE_LENGTH_LIMIT;
}

/** How a limited level queues requests it cannot run at once. */
export const queuingConfiguration = struct(
  `${FLOWCONTROL}.QueuingConfiguration`,
  {
    queues: field(1, int32, { omitEmpty: false, description: 'Number of queues; default 64.' }),
    handSize: field(2, int32, { omitEmpty: false, description: 'Queues dealt to a flow by shuffle sharding; default 8, at most `queues`.' }),
    queueLengthLimit: field(3, int32, { omitEmpty: false, description: 'Requests that may wait in one queue; default 50.' }),
  },
  { defaulter: defaultQueuing },
);

/** What a limited level does with requests it cannot run at once: `Queue` or `Reject`. */
export const limitResponse = struct(`${FLOWCONTROL}.LimitResponse`, {
  type: field(1, string, { omitEmpty: false, description: 'Queue or Reject.' }),
  queuing: field(2, queuingConfiguration, { description: 'Queuing parameters; only with type Queue.' }),
});

/** `SetDefaults_LimitedPriorityLevelConfiguration`: 30 shares only when unspecified, 0 lendable percent. */
function defaultLimited(l: Obj): void {
  if (unset(l.nominalConcurrencyShares)) l.nominalConcurrencyShares = DEFAULT_NOMINAL_CONCURRENCY_SHARES;
  if (unset(l.lendablePercent)) l.lendablePercent = 0;
}

/** The concurrency share and borrowing of a limited level. */
export const limitedPriorityLevelConfiguration = struct(
  `${FLOWCONTROL}.LimitedPriorityLevelConfiguration`,
  {
    nominalConcurrencyShares: field(1, int32, { pointer: true, description: 'Share of the server concurrency limit; default 30, 0 allowed.' }),
    limitResponse: field(2, limitResponse, { default: {}, omitEmpty: false, description: 'What to do with requests that cannot run at once.' }),
    lendablePercent: field(3, int32, { description: 'Percent of the nominal limit other levels may borrow; 0 to 100, default 0.' }),
    borrowingLimitPercent: field(4, int32, { description: 'Limit on borrowing from other levels, percent of the nominal limit; absent: none.' }),
  },
  { defaulter: defaultLimited },
);

/** `SetDefaults_ExemptPriorityLevelConfiguration`: 0 shares and 0 lendable percent. */
function defaultExempt(e: Obj): void {
  if (unset(e.nominalConcurrencyShares)) e.nominalConcurrencyShares = 0;
  if (unset(e.lendablePercent)) e.lendablePercent = 0;
}

/** The configurable part of an exempt level (the only part of the mandatory `exempt` an operator may change). */
export const exemptPriorityLevelConfiguration = struct(
  `${FLOWCONTROL}.ExemptPriorityLevelConfiguration`,
  {
    nominalConcurrencyShares: field(1, int32, { description: 'Seats nominally reserved, lent to other levels; default 0.' }),
    lendablePercent: field(2, int32, { description: 'Percent of the nominal limit other levels may borrow; 0 to 100, default 0.' }),
  },
  { defaulter: defaultExempt },
);

/** How requests of a level are handled: `Exempt` (never limited) or `Limited`. */
export const priorityLevelConfigurationSpec = struct(
  `${FLOWCONTROL}.PriorityLevelConfigurationSpec`,
  {
    type: field(1, string, { omitEmpty: false, description: 'Exempt or Limited.' }),
    limited: field(2, limitedPriorityLevelConfiguration, { description: 'Set exactly when type is Limited.' }),
    exempt: field(3, exemptPriorityLevelConfiguration, { description: 'May be set when type is Exempt.' }),
  },
  { description: 'How requests of a priority level are handled.' },
);

/** A condition of a PriorityLevelConfiguration. */
export const priorityLevelConfigurationCondition = flowControlCondition(`${FLOWCONTROL}.PriorityLevelConfigurationCondition`);

/** The observed state of a PriorityLevelConfiguration. */
export const priorityLevelConfigurationStatus = struct(`${FLOWCONTROL}.PriorityLevelConfigurationStatus`, {
  conditions: field(1, conditionList(priorityLevelConfigurationCondition), { description: 'Current conditions of the priority level.' }),
});
