import { expect } from 'chai';
import { event } from '../../../../../lib/apis/core/v1/event.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { SYSTEM_NAMESPACE } from '../../../../../lib/apis/vendor.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, variant } from '../../kind-pipeline.js';
import { NAME_PART } from '../../../apimachinery/label-messages.js';

const minimal = (): Obj => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web-0.17a1b2c3', namespace: 'default' },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-0' },
  reason: 'Started',
  type: 'Normal',
});
const newStyle = (o: Obj): void => {
  o.eventTime = '2024-05-01T10:00:00.123456Z';
  o.reportingComponent = 'example.com/kubelet';
  o.reportingInstance = 'kubelet-node-1';
  o.action = 'Start';
};

describe('core/v1 Event (issue #2 item 5)', () => {
  it('declares the upstream discovery facts', () => {
    expect(event).to.include({ group: '', version: 'v1', resource: 'events', singular: 'event', namespaced: true, nameRule: 'pathSegment', statusSubresource: false });
    expect(event.shortNames).to.deep.equal(['ev']);
  });

  it('decodes a minimal event with no defaults and validates clean', () => {
    const ev = minimal();
    expect(decodeAndDefault(event, ev)).to.deep.equal({ unknownFields: [] });
    expect(ev).to.deep.equal(minimal());
    expect(validateCreate(event, ev)).to.deep.equal([]);
  });

  it('decodes the complete fixture with every field and no unknown field, eventTime in microseconds', () => {
    const ev = fixture('event');
    expect(decodeAndDefault(event, ev)).to.deep.equal({ unknownFields: [] });
    expect(ev.eventTime).to.equal('2024-05-01T10:00:00.123456Z');
    expect(unsetFields(event.schema, fixture('event'))).to.deep.equal([]);
  });

  const cases: Array<[string, (o: Obj) => void, string[]]> = [
    ['involvedObject is required', (o) => delete o.involvedObject, ['involvedObject: Required value']],
    ['a namespaced involved object must be in the event namespace', (o) => ((o.involvedObject as Obj).namespace = 'other'), [
      'involvedObject.namespace: Invalid value: "other": does not match event.namespace',
    ]],
    ['events about cluster-scoped objects live in default', (o) => {
      (o.metadata as Obj).namespace = 'team-a';
      o.involvedObject = { kind: 'Node', name: 'node-1' };
    }, ['involvedObject.namespace: Invalid value: "": does not match event.namespace']],
    ['new-style events about cluster-scoped objects may live in the system namespace', (o) => {
      newStyle(o);
      (o.metadata as Obj).namespace = SYSTEM_NAMESPACE;
      o.involvedObject = { kind: 'Node', name: 'node-1' };
    }, []],
    ['new-style events need reportingComponent, reportingInstance and action', (o) => {
      o.eventTime = '2024-05-01T10:00:00Z';
    }, [
      'reportingController: Required value',
      'reportingController: Invalid value: "": name part must be non-empty',
      `reportingController: Invalid value: "": ${NAME_PART}`,
      'reportingInstance: Required value',
      'action: Required value',
    ]],
    ['new-style reason is at most 128 bytes', (o) => {
      newStyle(o);
      o.reason = 'r'.repeat(129);
    }, ['reason: Invalid value: "": can have at most 128 characters']],
    ['new-style message is at most 1024 bytes', (o) => {
      newStyle(o);
      o.message = 'm'.repeat(1025);
    }, ['message: Invalid value: "": can have at most 1024 characters']],
    ['names are only checked as path segments', (o) => ((o.metadata as Obj).name = 'Web_0.ABC'), []],
    ['type is not restricted by the core group', (o) => (o.type = 'Custom'), []],
  ];
  for (const [name, mutate, expected] of cases) {
    it(`validation: ${name}`, () => {
      const ev = variant(minimal(), mutate);
      decodeAndDefault(event, ev);
      expect(messages(validateCreate(event, ev))).to.deep.equal(expected);
    });
  }
});
