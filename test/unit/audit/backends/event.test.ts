import { expect } from 'chai';
import { eventUser, legacyEventString, microTime, recordedObject, responseStatusOf } from '../../../../lib/audit/event.js';
import type { AuditEvent } from '../../../../lib/audit/types.js';

export function sampleEvent(over: Partial<AuditEvent> = {}): AuditEvent {
  return {
    kind: 'Event',
    apiVersion: 'audit.orch.io/v1',
    level: 'Metadata',
    auditID: 'id-1',
    stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces/ns/pods',
    verb: 'create',
    user: { username: 'alice', groups: ['devs', 'system:authenticated'] },
    sourceIPs: ['127.0.0.1'],
    userAgent: 'curl/8',
    objectRef: { resource: 'pods', namespace: 'ns', apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: 201 },
    requestReceivedTimestamp: '2026-11-29T01:24:48.123400Z',
    stageTimestamp: '2026-11-29T01:24:48.125000Z',
    ...over,
  };
}

describe('audit event shaping (upstream pkg/audit/request.go, format.go)', () => {
  it('timestamps have exactly six fractional digits', () => {
    expect(microTime(Date.UTC(2026, 10, 29, 1, 24, 48, 123) + 0.4567)).to.equal('2026-11-29T01:24:48.123456Z');
    expect(microTime(Date.UTC(2026, 10, 29, 1, 24, 48, 0))).to.equal('2026-11-29T01:24:48.000000Z');
  });

  it('user: upstream UserInfo keys; empty for a failed authentication', () => {
    expect(eventUser({ name: 'a', groups: [], uid: 'u', extra: { k: ['v'] } })).to.deep.equal({ username: 'a', uid: 'u', extra: { k: ['v'] } });
    expect(eventUser(undefined)).to.deep.equal({});
  });

  it('responseStatus copies the bounded Status fields with empty metadata', () => {
    const s = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods "x" not found', reason: 'NotFound', details: { name: 'x', kind: 'pods' }, code: 404 };
    expect(JSON.stringify(responseStatusOf(s))).to.equal('{"metadata":{},"status":"Failure","message":"pods \\"x\\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}');
  });

  it('omitManagedFields drops metadata.managedFields of objects and list items without mutating them', () => {
    const obj = { kind: 'Pod', metadata: { name: 'p', managedFields: [{ manager: 'm' }] } };
    expect(recordedObject(obj, true)).to.deep.equal({ kind: 'Pod', metadata: { name: 'p' } });
    expect(obj.metadata.managedFields).to.have.length(1);
    expect(recordedObject({ kind: 'PodList', metadata: {}, items: [obj] }, true)).to.deep.equal({ kind: 'PodList', metadata: {}, items: [{ kind: 'Pod', metadata: { name: 'p' } }] });
    expect(recordedObject(obj, false)).to.equal(obj);
  });

  it('legacy format is upstream EventString', () => {
    expect(legacyEventString(sampleEvent())).to.equal(
      '2026-11-29T01:24:48.1234Z AUDIT: id="id-1" stage="ResponseComplete" ip="127.0.0.1" method="create" user="alice" groups="\\"devs\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="curl/8" namespace="ns" uri="/api/v1/namespaces/ns/pods" response="201"',
    );
    expect(legacyEventString(sampleEvent({ user: {}, responseStatus: undefined, objectRef: undefined, sourceIPs: [], impersonatedUser: { username: 'bob', groups: ['g'] } }))).to.contain(
      'ip="<unknown>" method="create" user="<none>" groups="<none>" as="bob" asgroups="\\"g\\"" user-agent="curl/8" namespace="<none>" uri="/api/v1/namespaces/ns/pods" response="<deferred>"',
    );
  });
});
