import { expect } from 'chai';
import { tableFor } from '../../../../lib/apimachinery/table/builder.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { flowSchema, priorityLevelConfiguration } from '../../../../lib/apis/flowcontrol/v1/index.js';
import { cellsOf, meta, NOW } from './helpers.js';

const fs = (spec: Obj, status: Obj = {}): Obj => ({ apiVersion: flowSchema.apiVersion, kind: 'FlowSchema', metadata: meta('tenants', 90), spec, status });
const pl = (spec: Obj): Obj => ({ apiVersion: priorityLevelConfiguration.apiVersion, kind: 'PriorityLevelConfiguration', metadata: meta('workload', 7200), spec, status: {} });

describe('apis/printers: flow control (upstream v1.30 printers.go)', () => {
  it('FlowSchema columns: Name, PriorityLevel, MatchingPrecedence, DistinguisherMethod, Age, MissingPL, all typed string', () => {
    const table = tableFor(flowSchema, fs({}), { now: NOW });
    expect(table.columnDefinitions!.map((c) => [c.name, c.type, c.priority])).to.deep.equal([
      ['Name', 'string', 0],
      ['PriorityLevel', 'string', 0],
      ['MatchingPrecedence', 'string', 0],
      ['DistinguisherMethod', 'string', 0],
      ['Age', 'string', 0],
      ['MissingPL', 'string', 0],
    ]);
  });

  it('FlowSchema cells: the precedence as a number, the distinguisher type, the Dangling status as MissingPL', () => {
    const obj = fs({ priorityLevelConfiguration: { name: 'workload-low' }, matchingPrecedence: 9000, distinguisherMethod: { type: 'ByUser' } }, { conditions: [{ type: 'Dangling', status: 'False' }] });
    expect(cellsOf(flowSchema, obj)).to.deep.equal(['tenants', 'workload-low', 9000, 'ByUser', '90s', 'False']);
  });

  it('FlowSchema without distinguisher or Dangling condition: <none> and ?', () => {
    const obj = fs({ priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 2 }, { conditions: [{ type: 'Other', status: 'True' }] });
    expect(cellsOf(flowSchema, obj)).to.deep.equal(['tenants', 'exempt', 2, '<none>', '90s', '?']);
  });

  it('PriorityLevelConfiguration columns: Name, Type, NominalConcurrencyShares, Queues, HandSize, QueueLengthLimit, Age', () => {
    const table = tableFor(priorityLevelConfiguration, pl({ type: 'Exempt' }), { now: NOW });
    expect(table.columnDefinitions!.map((c) => [c.name, c.type])).to.deep.equal([
      ['Name', 'string'],
      ['Type', 'string'],
      ['NominalConcurrencyShares', 'string'],
      ['Queues', 'string'],
      ['HandSize', 'string'],
      ['QueueLengthLimit', 'string'],
      ['Age', 'string'],
    ]);
  });

  it('a queuing level prints its shares and queuing numbers', () => {
    const obj = pl({ type: 'Limited', limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } } } });
    expect(cellsOf(priorityLevelConfiguration, obj)).to.deep.equal(['workload', 'Limited', 0, 64, 6, 50, '120m']);
  });

  it('a rejecting level prints <none> for the queuing columns; an exempt level for all three', () => {
    const reject = pl({ type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } });
    expect(cellsOf(priorityLevelConfiguration, reject)).to.deep.equal(['workload', 'Limited', 5, '<none>', '<none>', '<none>', '120m']);
    const exempt = pl({ type: 'Exempt', exempt: { nominalConcurrencyShares: 0 } });
    expect(cellsOf(priorityLevelConfiguration, exempt)).to.deep.equal(['workload', 'Exempt', '<none>', '<none>', '<none>', '<none>', '120m']);
  });
});
