import { expect } from 'chai';
import { tableFor } from '../../../../lib/apimachinery/table/builder.js';
import { componentStatus } from '../../../../lib/apis/core/v1/component-status.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { cellsOf } from './helpers.js';

const cs = (conditions: Obj[]): Obj => ({ apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'etcd-0' }, conditions });

describe('apis/printers: ComponentStatus (upstream printComponentStatus)', () => {
  it('has the columns Name, Status, Message, Error and no Age', () => {
    const table = tableFor(componentStatus, cs([]), { includeObject: 'None' });
    expect(table.columnDefinitions!.map((c) => [c.name, c.type, c.format, c.description])).to.deep.equal([
      ['Name', 'string', 'name', table.columnDefinitions![0]!.description],
      ['Status', 'string', '', 'Status of the component conditions'],
      ['Message', 'string', '', 'Message of the component conditions'],
      ['Error', 'string', '', 'Error of the component conditions'],
    ]);
  });

  const cases: Array<[string, Obj[], string[]]> = [
    ['a True Healthy condition is Healthy', [{ type: 'Healthy', status: 'True' }], ['etcd-0', 'Healthy', '', '']],
    ['a False one is Unhealthy, with its message and error', [{ type: 'Healthy', status: 'False', message: 'm', error: 'e' }], ['etcd-0', 'Unhealthy', 'm', 'e']],
    ['an Unknown one is Unhealthy too', [{ type: 'Healthy', status: 'Unknown', error: 'no probe' }], ['etcd-0', 'Unhealthy', '', 'no probe']],
    ['no Healthy condition is Unknown', [{ type: 'Other', status: 'True', message: 'ignored' }], ['etcd-0', 'Unknown', '', '']],
    ['no conditions is Unknown', [], ['etcd-0', 'Unknown', '', '']],
    ['the first Healthy condition counts', [{ type: 'Healthy', status: 'True', message: 'first' }, { type: 'Healthy', status: 'False', message: 'second' }], ['etcd-0', 'Healthy', 'first', '']],
  ];
  for (const [name, conditions, cells] of cases) {
    it(name, () => expect(cellsOf(componentStatus, cs(conditions))).to.deep.equal(cells));
  }
});
