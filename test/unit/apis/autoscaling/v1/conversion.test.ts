import { expect } from 'chai';
import { autoscalingV1Kinds, horizontalPodAutoscalerV1, horizontalPodAutoscalerV1Conversion as conv } from '../../../../../lib/apis/autoscaling/v1/index.js';
import { horizontalPodAutoscaler } from '../../../../../lib/apis/autoscaling/v2/index.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { HPA_BEHAVIOR_ANNOTATION, HPA_CONDITIONS_ANNOTATION, HPA_CURRENT_METRICS_ANNOTATION, HPA_METRICS_ANNOTATION } from '../../../../../lib/apis/vendor.js';
import { decodeAndDefault, fixture, unsetFields } from '../../kind-pipeline.js';

const ref = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };
const selector = { matchLabels: { app: 'web' } };

/** A v2 object as stored: decoded, defaulted, canonical. */
function stored(spec: Obj, status: Obj = {}, annotations?: Obj): Obj {
  const o: Obj = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', namespace: 'default', ...(annotations ? { annotations } : {}) }, spec, status };
  decodeAndDefault(horizontalPodAutoscaler, o);
  return conv.toStorage(conv.toServed(conv.toStorage(conv.toServed(o))));
}

const everyMetric = {
  scaleTargetRef: ref,
  minReplicas: 2,
  maxReplicas: 10,
  metrics: [
    { type: 'Object', object: { describedObject: { kind: 'Ingress', name: 'main', apiVersion: 'networking.k8s.io/v1' }, target: { type: 'AverageValue', value: '10', averageValue: '500m' }, metric: { name: 'rps', selector } } },
    { type: 'Pods', pods: { metric: { name: 'pps' }, target: { type: 'AverageValue', averageValue: '1k' } } },
    { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } },
    { type: 'ContainerResource', containerResource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 40 }, container: 'web' } },
    { type: 'External', external: { metric: { name: 'queue', selector }, target: { type: 'Value', value: '30' } } },
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
  ],
  behavior: { scaleDown: { stabilizationWindowSeconds: 120 } },
};
const everyStatus = {
  observedGeneration: 3,
  lastScaleTime: '2024-05-01T10:04:00Z',
  currentReplicas: 3,
  desiredReplicas: 4,
  currentMetrics: [
    { type: 'Pods', pods: { metric: { name: 'pps' }, current: { averageValue: '900' } } },
    { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '200m', averageUtilization: 70 } } },
  ],
  conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'ReadyForNewScale', message: 'a <b> & c' }],
};

describe('autoscaling/v1 HorizontalPodAutoscaler and its conversion to and from v2 (issue #12 item 1)', () => {
  it('declares the same discovery facts as v2 in version v1', () => {
    expect(horizontalPodAutoscalerV1).to.include({ group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers', namespaced: true, statusSubresource: true });
    expect(horizontalPodAutoscalerV1.shortNames).to.deep.equal(['hpa']);
    expect(horizontalPodAutoscalerV1.categories).to.deep.equal(['all']);
    expect(autoscalingV1Kinds).to.deep.equal([horizontalPodAutoscalerV1]);
    expect(conv.storageKind).to.equal(horizontalPodAutoscaler);
    expect(conv.servedKind).to.equal(horizontalPodAutoscalerV1);
  });

  it('defaults minReplicas to 1, and decodes the complete fixture with every field', () => {
    const o: Obj = { spec: { scaleTargetRef: ref, maxReplicas: 3 } };
    decodeAndDefault(horizontalPodAutoscalerV1, o);
    expect(o.spec).to.deep.equal({ scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3 });
    const complete = fixture('horizontal-pod-autoscaler-autoscaling-v1');
    expect(decodeAndDefault(horizontalPodAutoscalerV1, complete)).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(horizontalPodAutoscalerV1.schema, complete)).to.deep.equal([]);
  });

  it('serves v2 as v1: the CPU utilization fields, the rest as upstream JSON in the annotations', () => {
    const v1 = conv.toServed(stored(everyMetric, everyStatus));
    expect(v1.apiVersion).to.equal('autoscaling/v1');
    expect(v1.spec).to.deep.equal({ scaleTargetRef: ref, minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 60 });
    expect(v1.status).to.deep.equal({ observedGeneration: 3, lastScaleTime: '2024-05-01T10:04:00Z', currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 70 });
    const a = (v1.metadata as Obj).annotations as Record<string, string>;
    expect(Object.keys(a)).to.deep.equal([HPA_BEHAVIOR_ANNOTATION, HPA_CONDITIONS_ANNOTATION, HPA_CURRENT_METRICS_ANNOTATION, HPA_METRICS_ANNOTATION]);
    expect(a[HPA_METRICS_ANNOTATION]).to.equal(
      '[{"type":"Object","object":{"target":{"kind":"Ingress","name":"main","apiVersion":"networking.k8s.io/v1"},"metricName":"rps","targetValue":"10","selector":{"matchLabels":{"app":"web"}},"averageValue":"500m"}},' +
        '{"type":"Pods","pods":{"metricName":"pps","targetAverageValue":"1k"}},' +
        '{"type":"Resource","resource":{"name":"memory","targetAverageValue":"512Mi"}},' +
        '{"type":"ContainerResource","containerResource":{"name":"cpu","targetAverageUtilization":40,"container":"web"}},' +
        '{"type":"External","external":{"metricName":"queue","metricSelector":{"matchLabels":{"app":"web"}},"targetValue":"30"}}]',
    );
    expect(a[HPA_CURRENT_METRICS_ANNOTATION]).to.equal(
      '[{"type":"Pods","pods":{"metricName":"pps","currentAverageValue":"900"}},{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":70,"currentAverageValue":"200m"}}]',
    );
    expect(a[HPA_CONDITIONS_ANNOTATION]).to.equal(
      '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-05-01T10:00:00Z","reason":"ReadyForNewScale","message":"a \\u003cb\\u003e \\u0026 c"}]',
    );
    expect(a[HPA_BEHAVIOR_ANNOTATION]).to.equal(
      '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}]},' +
        '"ScaleDown":{"StabilizationWindowSeconds":120,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}]}}',
    );
  });

  it('is lossless both ways: v2 → v1 → v2 and v1 → v2 → v1 (which adds the current CPU metric annotation, as upstream)', () => {
    const v2 = stored(everyMetric, everyStatus, { keep: 'me' });
    expect(conv.toStorage(conv.toServed(v2))).to.deep.equal(v2);
    const v1 = fixture('horizontal-pod-autoscaler-autoscaling-v1');
    decodeAndDefault(horizontalPodAutoscalerV1, v1);
    const back = conv.toServed(conv.toStorage(v1));
    expect(back.spec).to.deep.equal(v1.spec);
    expect(back.status).to.deep.equal(v1.status);
    // As upstream, the observed CPU utilization is also kept as a current metric, raw value and all.
    expect((back.metadata as Obj).annotations).to.deep.equal({
      ...((v1.metadata as Obj).annotations as Obj),
      [HPA_CURRENT_METRICS_ANNOTATION]: '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":70,"currentAverageValue":"0"}}]',
    });
  });

  it('gives a v1 object without metrics the 80% CPU target, and drops a stored v2 object’s stale round-trip annotations', () => {
    const v2 = conv.toStorage({ metadata: { name: 'x', annotations: { [HPA_METRICS_ANNOTATION]: 'not json', other: 'kept' } }, spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3 } });
    expect((v2.spec as Obj).metrics).to.deep.equal([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    expect((v2.metadata as Obj).annotations).to.deep.equal({ other: 'kept' });
    expect((conv.toServed(v2).spec as Obj).targetCPUUtilizationPercentage).to.equal(80);
    const served = conv.toServed({ ...v2, metadata: { name: 'x', annotations: { [HPA_CONDITIONS_ANNOTATION]: '[]' } } });
    expect((served.metadata as Obj).annotations).to.equal(undefined);
  });

  it('reads annotation keys as Go does, ignoring case, and puts the CPU target after the annotated metrics', () => {
    const v2 = conv.toStorage({
      metadata: { name: 'x', annotations: { [HPA_METRICS_ANNOTATION]: '[{"Type":"Pods","pods":{"MetricName":"pps","targetAverageValue":"1000"}}]', [HPA_BEHAVIOR_ANNOTATION]: '{"scaleup":{"SelectPolicy":"Min"}}' } },
      spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 50 },
    });
    expect((v2.spec as Obj).metrics).to.deep.equal([
      { type: 'Pods', pods: { metric: { name: 'pps' }, target: { type: 'AverageValue', averageValue: '1k' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    ]);
    expect(((v2.spec as Obj).behavior as Obj).scaleUp).to.deep.equal({ stabilizationWindowSeconds: 0, selectPolicy: 'Min', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] });
  });

  it('ignores an annotation that does not decode as its type, as upstream', () => {
    const v2 = conv.toStorage({
      metadata: { name: 'x', annotations: { [HPA_METRICS_ANNOTATION]: '[{"type":"Pods","pods":{"targetAverageValue":"many"}}]', [HPA_BEHAVIOR_ANNOTATION]: '{}' } },
      spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 50 },
    });
    expect((v2.spec as Obj).metrics).to.deep.equal([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]);
    expect((v2.spec as Obj).behavior).to.equal(undefined);
  });
});
