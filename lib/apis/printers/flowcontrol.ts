/**
 * Table columns of the flow-control kinds (spec 000 § Table representation), as the upstream
 * v1.30 printers: FlowSchema — Name, PriorityLevel, MatchingPrecedence, DistinguisherMethod
 * (`<none>` without one), Age, MissingPL (the status of the `Dangling` condition, `?` without
 * one); PriorityLevelConfiguration — Name, Type, NominalConcurrencyShares, Queues, HandSize,
 * QueueLengthLimit (`<none>` where the level is not limited or does not queue), Age. Upstream
 * declares every column of both tables as a string, whatever its cells hold.
 */
import type { Cell, TablePrinter } from '../../apimachinery/table/types.js';
import { obj, str, type Obj } from '../core/v1/obj-access.js';
import { FLOW_SCHEMA_CONDITION_DANGLING } from '../flowcontrol/v1/types.js';
import { AGE_COLUMN, age, at, column, conditionStatus, int, NAME_COLUMN, objectName } from './common.js';

const FLOW_SCHEMA_COLUMNS = Object.freeze([
  NAME_COLUMN,
  column('PriorityLevel', 'string', 'Name of the priority level the matching requests go to.'),
  column('MatchingPrecedence', 'string', 'Lower values are considered first (1 to 10000).'),
  column('DistinguisherMethod', 'string', 'How flows are told apart: ByUser, ByNamespace, or none.'),
  AGE_COLUMN,
  column('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
]);

/** The FlowSchema printer. */
export const flowSchemaPrinter: TablePrinter = Object.freeze({
  columns: FLOW_SCHEMA_COLUMNS,
  cells(fs: Obj, now: number): Cell[] {
    const spec = at(fs, 'spec');
    const method = obj(spec.distinguisherMethod);
    return [
      objectName(fs),
      str(at(spec, 'priorityLevelConfiguration').name),
      int(spec.matchingPrecedence),
      method ? str(method.type) : '<none>',
      age(fs, now),
      conditionStatus(at(fs, 'status'), FLOW_SCHEMA_CONDITION_DANGLING) ?? '?',
    ];
  },
});

const PRIORITY_LEVEL_COLUMNS = Object.freeze([
  NAME_COLUMN,
  column('Type', 'string', 'Exempt or Limited.'),
  column('NominalConcurrencyShares', 'string', 'Share of the server concurrency limit of a limited level.'),
  column('Queues', 'string', 'Number of queues of a queuing level.'),
  column('HandSize', 'string', 'Queues dealt to each flow by shuffle sharding.'),
  column('QueueLengthLimit', 'string', 'Requests that may wait in one queue.'),
  AGE_COLUMN,
]);

/** The PriorityLevelConfiguration printer. */
export const priorityLevelConfigurationPrinter: TablePrinter = Object.freeze({
  columns: PRIORITY_LEVEL_COLUMNS,
  cells(pl: Obj, now: number): Cell[] {
    const spec = at(pl, 'spec');
    const limited = obj(spec.limited);
    const queuing = obj(obj(limited?.limitResponse)?.queuing);
    const none = '<none>';
    return [
      objectName(pl),
      str(spec.type),
      limited ? int(limited.nominalConcurrencyShares) : none,
      queuing ? int(queuing.queues) : none,
      queuing ? int(queuing.handSize) : none,
      queuing ? int(queuing.queueLengthLimit) : none,
      age(pl, now),
    ];
  },
});
