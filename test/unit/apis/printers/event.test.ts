import { expect } from 'chai';
import { event } from '../../../../lib/apis/core/v1/cluster-kinds.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { ago, cellsOf, meta } from './helpers.js';

function ev(body: Obj): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: meta('web.17c4a9', 600),
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', apiVersion: 'v1', fieldPath: 'spec.containers{app}' },
    reason: 'BackOff',
    message: 'Back-off restarting failed container app\n',
    type: 'Warning',
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: ago(600),
    lastTimestamp: ago(30),
    count: 5,
    eventTime: null,
    reportingComponent: '',
    reportingInstance: '',
    ...body,
  };
}

describe('apis/printers: Event', () => {
  it('an old-style event with a count: Last Seen, Type, Reason, Object, Subobject, Source, Message, First Seen, Count, Name', () => {
    expect(cellsOf(event, ev({}))).to.deep.equal(['30s', 'Warning', 'BackOff', 'pod/web', 'spec.containers{app}', 'kubelet, node-1', 'Back-off restarting failed container app', '10m', 5, 'web.17c4a9']);
  });

  it('a new-style event in a series: times from eventTime and the series, reporting component and instance', () => {
    const obj = ev({
      firstTimestamp: null,
      lastTimestamp: null,
      count: 0,
      source: {},
      eventTime: '2024-05-01T11:50:00.123456Z',
      series: { count: 3, lastObservedTime: '2024-05-01T11:59:15.000001Z' },
      reportingComponent: 'example.io/scheduler',
      reportingInstance: 'scheduler-1',
    });
    expect(cellsOf(event, obj)).to.deep.equal(['44s', 'Warning', 'BackOff', 'pod/web', 'spec.containers{app}', 'example.io/scheduler, scheduler-1', 'Back-off restarting failed container app', '9m59s', 3, 'web.17c4a9']);
  });

  it('a singleton new-style event counts 1 and is last seen when first seen', () => {
    const cells = cellsOf(event, ev({ firstTimestamp: null, lastTimestamp: null, count: 0, eventTime: ago(90) }));
    expect([cells[0], cells[7], cells[8]]).to.deep.equal(['90s', '90s', 1]);
  });

  it('no times at all: <unknown>', () => {
    const cells = cellsOf(event, ev({ firstTimestamp: null, lastTimestamp: null, eventTime: null }));
    expect([cells[0], cells[7]]).to.deep.equal(['<unknown>', '<unknown>']);
  });

  it('an involved object without a name prints its kind; a source without host its component', () => {
    const cells = cellsOf(event, ev({ involvedObject: { kind: 'Node' }, source: { component: 'controller' }, type: 'Normal' }));
    expect([cells[1], cells[3], cells[4], cells[5]]).to.deep.equal(['Normal', 'node', '', 'controller']);
  });
});
