import { expect } from 'chai';
import { horizontalPodAutoscalerV1 } from '../../../../lib/apis/autoscaling/v1/index.js';
import { horizontalPodAutoscaler } from '../../../../lib/apis/autoscaling/v2/index.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { HPA_METRICS_ANNOTATION } from '../../../../lib/apis/vendor.js';
import { cellsOf, meta } from '../printers/helpers.js';
import { tableFor } from '../../../../lib/apimachinery/table/builder.js';

const hpa = (spec: Obj, status: Obj = {}): Obj => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: meta('web', 120),
  spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 6, ...spec },
  status: { currentReplicas: 3, desiredReplicas: 3, ...status },
});
const cpu = (u: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: u } } });

describe('apis/printers: HorizontalPodAutoscaler', () => {
  it('has the upstream columns: Name, Reference, Targets, MinPods, MaxPods, Replicas, Age', () => {
    const table = tableFor(horizontalPodAutoscaler, hpa({ metrics: [cpu(80)] }), { now: Date.now(), includeObject: 'None' });
    expect(table.columnDefinitions!.map((c) => [c.name, c.type, c.priority])).to.deep.equal([
      ['Name', 'string', 0],
      ['Reference', 'string', 0],
      ['Targets', 'string', 0],
      ['MinPods', 'string', 0],
      ['MaxPods', 'string', 0],
      ['Replicas', 'string', 0],
      ['Age', 'string', 0],
    ]);
  });

  it('prints a CPU target before any metric is observed, then with its current value', () => {
    expect(cellsOf(horizontalPodAutoscaler, hpa({ metrics: [cpu(80)] }))).to.deep.equal(['web', 'Deployment/web', 'cpu: <unknown>/80%', '2', 6, 3, '2m']);
    const observed = hpa({ metrics: [cpu(80)] }, { currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 41, averageValue: '200m' } } }] });
    expect(cellsOf(horizontalPodAutoscaler, observed)[2]).to.equal('cpu: 41%/80%');
  });

  it('prints each metric source as upstream, at most two then the count of the others', () => {
    const metrics = [
      { type: 'Pods', pods: { metric: { name: 'pps' }, target: { type: 'AverageValue', averageValue: '1k' } } },
      { type: 'Object', object: { describedObject: { kind: 'Ingress', name: 'main' }, metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '30' } } },
    ];
    const statuses = [{ type: 'Pods', pods: { metric: { name: 'pps' }, current: { averageValue: '900' } } }];
    expect(cellsOf(horizontalPodAutoscaler, hpa({ metrics }, { currentMetrics: statuses }))[2]).to.equal('900/1k, <unknown>/10 (avg) + 1 more...');
    const resources = [
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'web', target: { type: 'Utilization' } } },
    ];
    expect(cellsOf(horizontalPodAutoscaler, hpa({ metrics: resources }))[2]).to.equal('memory: <unknown>/512Mi, cpu: <unknown>/<auto>');
  });

  it('prints <none> without metrics and <unset> without minReplicas', () => {
    const o = hpa({ metrics: [] });
    delete (o.spec as Obj).minReplicas;
    expect(cellsOf(horizontalPodAutoscaler, o).slice(2, 4)).to.deep.equal(['<none>', '<unset>']);
  });

  it('prints an autoscaling/v1 object as the v2 object it converts to', () => {
    const v1: Obj = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: meta('web', 120, { annotations: { [HPA_METRICS_ANNOTATION]: '[{"type":"Pods","pods":{"metricName":"pps","targetAverageValue":"1k"}}]' } }),
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 50 },
      status: { currentReplicas: 1, desiredReplicas: 1, currentCPUUtilizationPercentage: 20 },
    };
    expect(cellsOf(horizontalPodAutoscalerV1, v1)).to.deep.equal(['web', 'Deployment/web', '<unknown>/1k, cpu: <unknown>/50%', '1', 4, 1, '2m']);
  });
});
