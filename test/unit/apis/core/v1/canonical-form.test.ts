/**
 * The core/v1 definitions give the canonical encoder upstream's field order and zero values
 * (issue #23): fields in k8s.io/api/core/v1/types.go declaration order, non-pointer structs and
 * metav1.Time values always written, pointers without omitempty written as null.
 */
import { expect } from 'chai';
import { canonicalize } from '../../../../../lib/apimachinery/schema/canonical.js';
import { configMap } from '../../../../../lib/apis/core/v1/config-map.js';
import { event } from '../../../../../lib/apis/core/v1/event.js';
import { node } from '../../../../../lib/apis/core/v1/node.js';
import { pod } from '../../../../../lib/apis/core/v1/pod.js';
import { service } from '../../../../../lib/apis/core/v1/service.js';

const text = (o: unknown): string => JSON.stringify(o);

describe('core/v1 canonical form (issue #23)', () => {
  it('ConfigMap: immutable is declared before data and binaryData', () => {
    const out = canonicalize(configMap.schema, { data: { b: '2', a: '1' }, immutable: true, metadata: { name: 'x' }, kind: 'ConfigMap', apiVersion: 'v1' });
    expect(text(out)).to.equal('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x","creationTimestamp":null},"immutable":true,"data":{"a":"1","b":"2"}}');
  });

  it('Pod: the always-written structs and times of spec and status', () => {
    const out = canonicalize(pod.schema, {
      spec: {
        containers: [{ name: 'a', env: [{ name: 'X', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } }] }],
        volumes: [{ name: 'v', ephemeral: { volumeClaimTemplate: { spec: {} } } }, { name: 'p', projected: {} }],
        resourceClaims: [{ name: 'c' }],
      },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [{ name: 'a', state: { running: {}, terminated: { exitCode: 0 } }, ready: false, restartCount: 0, image: 'i', imageID: '' }],
      },
    });
    expect(text(out)).to.equal(
      '{"metadata":{"creationTimestamp":null},"spec":{' +
        '"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"creationTimestamp":null},"spec":{"resources":{}}}}},{"name":"p","projected":{"sources":null}}],' +
        '"containers":[{"name":"a","env":[{"name":"X","valueFrom":{"resourceFieldRef":{"resource":"limits.cpu","divisor":"0"}}}],"resources":{}}],' +
        '"resourceClaims":[{"name":"c","source":{}}]},' +
        '"status":{"conditions":[{"type":"Ready","status":"True","lastProbeTime":null,"lastTransitionTime":null}],' +
        '"containerStatuses":[{"name":"a","state":{"running":{"startedAt":null},"terminated":{"exitCode":0,"startedAt":null,"finishedAt":null}},"lastState":{},"ready":false,"restartCount":0,"image":"i","imageID":""}]}}',
    );
  });

  it('pointers without omitempty: absent is null, a present "" stays', () => {
    const out = canonicalize(pod.schema, {
      spec: {
        containers: [{ name: 'a', livenessProbe: { grpc: { port: 1 } }, readinessProbe: { grpc: { port: 1, service: '' } } }],
        volumes: [{ name: 'v', ephemeral: { volumeClaimTemplate: { metadata: {}, spec: { dataSource: { kind: 'K', name: 'n' } } } } }],
      },
    });
    const spec = (out as { spec: { containers: Record<string, unknown>[]; volumes: Record<string, Record<string, unknown>>[] } }).spec;
    expect(text(spec.containers[0]!.livenessProbe)).to.equal('{"grpc":{"port":1,"service":null}}');
    expect(text(spec.containers[0]!.readinessProbe)).to.equal('{"grpc":{"port":1,"service":""}}');
    expect(text(spec.volumes[0]!.ephemeral)).to.equal(
      '{"volumeClaimTemplate":{"metadata":{"creationTimestamp":null},"spec":{"resources":{},"dataSource":{"apiGroup":null,"kind":"K","name":"n"}}}}',
    );
  });

  it('Service: targetPort and status.loadBalancer are always written', () => {
    const out = canonicalize(service.schema, { spec: { ports: [{ port: 80 }] } });
    expect(text(out)).to.equal('{"metadata":{"creationTimestamp":null},"spec":{"ports":[{"port":80,"targetPort":0}]},"status":{"loadBalancer":{}}}');
  });

  it('Node: an empty status writes daemonEndpoints and nodeInfo; conditions write their times', () => {
    const out = canonicalize(node.schema, { status: { conditions: [{ type: 'Ready', status: 'True' }], images: [{ sizeBytes: 1 }] } });
    expect(text(out)).to.equal(
      '{"metadata":{"creationTimestamp":null},"spec":{},"status":{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":null,"lastTransitionTime":null}],' +
        '"daemonEndpoints":{"kubeletEndpoint":{"Port":0}},' +
        '"nodeInfo":{"machineID":"","systemUUID":"","bootID":"","kernelVersion":"","osImage":"","containerRuntimeVersion":"","kubeletVersion":"","kubeProxyVersion":"","operatingSystem":"","architecture":""},' +
        '"images":[{"names":null,"sizeBytes":1}]}}',
    );
  });

  it('Event: a legacy event writes eventTime null and the reporting fields empty; a series writes its time', () => {
    const out = canonicalize(event.schema, { involvedObject: { kind: 'Pod' }, series: { count: 2 } });
    expect(text(out)).to.equal(
      '{"metadata":{"creationTimestamp":null},"involvedObject":{"kind":"Pod"},"source":{},"firstTimestamp":null,"lastTimestamp":null,' +
        '"eventTime":null,"series":{"count":2,"lastObservedTime":null},"reportingComponent":"","reportingInstance":""}',
    );
  });
});
