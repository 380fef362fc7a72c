import { expect } from 'chai';
import { canonicalize } from '../../../../../lib/apimachinery/schema/canonical.js';
import { autoscalingV2Kinds, horizontalPodAutoscaler } from '../../../../../lib/apis/autoscaling/v2/index.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { horizontalPodAutoscalerStatusStrategy, horizontalPodAutoscalerStrategy } from '../../../../../lib/registry/autoscaling/horizontalpodautoscaler/strategy.js';
import { internalContext } from '../../../../../lib/request/context.js';
import { decodeAndDefault, fixture, messages, unsetFields, variant } from '../../kind-pipeline.js';

const ctx = internalContext({ name: 'test', groups: [] });
const minimal = (): Obj => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'default' },
  spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 5 },
});
const spec = (o: Obj) => o.spec as Obj;
/** Decodes, defaults and canonicalizes as a write does, then validates through the strategy. */
const validate = (o: Obj) => {
  decodeAndDefault(horizontalPodAutoscaler, o);
  return messages(horizontalPodAutoscalerStrategy.validate(ctx, canonicalize(horizontalPodAutoscaler.schema, o)));
};
const metric = (m: Obj): ((o: Obj) => void) => (o) => (spec(o).metrics = [m]);

describe('autoscaling/v2 HorizontalPodAutoscaler (issue #12 item 1)', () => {
  it('declares the upstream discovery facts: short name hpa, category all, status subresource', () => {
    expect(horizontalPodAutoscaler).to.include({ group: 'autoscaling', version: 'v2', apiVersion: 'autoscaling/v2', resource: 'horizontalpodautoscalers', singular: 'horizontalpodautoscaler', namespaced: true, statusSubresource: true });
    expect(horizontalPodAutoscaler.shortNames).to.deep.equal(['hpa']);
    expect(horizontalPodAutoscaler.categories).to.deep.equal(['all']);
    expect(horizontalPodAutoscaler.schema.id).to.equal('api.autoscaling.v2.HorizontalPodAutoscaler');
    expect(autoscalingV2Kinds).to.deep.equal([horizontalPodAutoscaler]);
  });

  it('defaults minReplicas to 1 and the metrics to 80% average CPU utilization; no behavior', () => {
    const o = minimal();
    decodeAndDefault(horizontalPodAutoscaler, o);
    expect(o.spec).to.deep.equal({
      scaleTargetRef: { kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    });
  });

  it('fills every unset scaling rule of a given behavior (SetDefaults_HorizontalPodAutoscalerBehavior)', () => {
    const o = variant(minimal(), (x) => (spec(x).behavior = { scaleDown: { selectPolicy: 'Min', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } }));
    decodeAndDefault(horizontalPodAutoscaler, o);
    expect(spec(o).behavior).to.deep.equal({
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
      scaleDown: { selectPolicy: 'Min', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
    });
  });

  it('decodes the complete fixture with every field and no unknown field', () => {
    expect(decodeAndDefault(horizontalPodAutoscaler, fixture('horizontal-pod-autoscaler'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(horizontalPodAutoscaler.schema, fixture('horizontal-pod-autoscaler'))).to.deep.equal([]);
  });

  it('writes an empty status as upstream: desiredReplicas 0, currentMetrics null', () => {
    expect(canonicalize(horizontalPodAutoscaler.schema, minimal()).status).to.deep.equal({ desiredReplicas: 0, currentMetrics: null });
  });

  const cases: Array<[string, (o: Obj) => void, string[]]> = [
    ['a minimal autoscaler is valid', () => undefined, []],
    ['the scale target needs a kind and a name', (o) => (spec(o).scaleTargetRef = {}), ['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Required value']],
    ['the scale target names are path segments', (o) => (spec(o).scaleTargetRef = { kind: 'a/b', name: '..' }), [
      'spec.scaleTargetRef.kind: Invalid value: "a/b": may not contain \'/\'',
      'spec.scaleTargetRef.name: Invalid value: "..": may not be \'..\'',
    ]],
    ['minReplicas is at least 1', (o) => {
      spec(o).minReplicas = 0;
      spec(o).metrics = [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1' } } }];
    }, ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1']],
    ['maxReplicas is positive and not below minReplicas', (o) => {
      spec(o).minReplicas = 3;
      spec(o).maxReplicas = 2;
    }, ['spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`']],
    ['maxReplicas 0', (o) => (spec(o).maxReplicas = 0), ['spec.maxReplicas: Invalid value: 0: must be greater than 0', 'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`']],
    ['a metric needs a known type', metric({ type: 'Magic' }), [
      'spec.metrics[0].type: Unsupported value: "Magic": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      'spec.metrics[0].type: Unsupported value: "Magic": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
    ]],
    ['a metric needs the source of its type', metric({ type: 'Pods', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }), [
      'spec.metrics[0].pods: Required value: must populate information for the given metric source',
    ]],
    ['a metric sets one source only', metric({ type: 'Pods', pods: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '1' } }, external: { metric: { name: 'q' }, target: { type: 'Value', value: '1' } } }), [
      'spec.metrics[0].external: Forbidden: must populate the given metric source only',
    ]],
    ['a resource target sets a utilization or a value, not both', metric({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50, averageValue: '1' } } }), [
      'spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization',
    ]],
    ['targets are positive and typed', metric({ type: 'Object', object: { describedObject: { kind: 'Ingress', name: 'main' }, metric: { name: 'rps' }, target: { type: 'Sum', value: '0' } } }), [
      'spec.metrics[0].object.target.type: Invalid value: "Sum": must be either Utilization, Value, or AverageValue',
      'spec.metrics[0].object.target.value: Invalid value: "0": must be positive',
    ]],
    ['a pods metric needs an average value and a metric name', metric({ type: 'Pods', pods: { metric: { name: '' }, target: { type: 'Value', value: '1' } } }), [
      'spec.metrics[0].pods.metric.name: Required value: must specify a metric name',
      'spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue',
    ]],
    ['an external metric sets a value or a per-pod value, not both', metric({ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1', averageValue: '1' } } }), [
      'spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target',
    ]],
    ['a container resource names a container resource and a container', metric({ type: 'ContainerResource', containerResource: { name: 'pods', container: 'Web', target: { type: 'AverageValue', averageValue: '1' } } }), [
      'spec.metrics[0].containerResource.name: Invalid value: "pods": must be a standard resource for containers',
      'spec.metrics[0].containerResource.container: Invalid value: "Web": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
    ]],
    ['behavior policies are checked', (o) => (spec(o).behavior = { scaleUp: { stabilizationWindowSeconds: 4000, selectPolicy: 'Any', policies: [{ type: 'Nodes', value: 0, periodSeconds: 2000 }] }, scaleDown: { policies: [] } }), [
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600',
      'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Any": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleUp.policies[0].type: Unsupported value: "Nodes": supported values: "Percent", "Pods"',
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 2000: must be less than or equal to 1800',
      'spec.behavior.scaleDown.policies: Required value: must specify at least one Policy',
    ]],
    ['the name is a DNS subdomain', (o) => ((o.metadata as Obj).name = 'Web'), [
      'metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
    ]],
  ];
  for (const [name, mutate, expected] of cases) {
    it(`validation: ${name}`, () => {
      expect(validate(variant(minimal(), mutate))).to.deep.equal(expected);
    });
  }

  it('an update keeps a stored minReplicas of 0 allowed, and the spec mutable', () => {
    const old = variant(minimal(), (o) => {
      spec(o).minReplicas = 0;
      (o.metadata as Obj).resourceVersion = '1';
    });
    const next = variant(old, (o) => (spec(o).maxReplicas = 9));
    decodeAndDefault(horizontalPodAutoscaler, old);
    decodeAndDefault(horizontalPodAutoscaler, next);
    expect(messages(horizontalPodAutoscalerStrategy.validateUpdate(ctx, next, old))).to.deep.equal([
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]);
    const fromOne = variant(old, (o) => (spec(o).minReplicas = 1));
    expect(messages(horizontalPodAutoscalerStrategy.validateUpdate(ctx, variant(next, (o) => (spec(o).minReplicas = 0)), fromOne))).to.include(
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
    );
  });

  it('clears the status on create and carries it over on main writes; no generation', () => {
    const o = variant(minimal(), (x) => (x.status = { desiredReplicas: 3 }));
    horizontalPodAutoscalerStrategy.prepareForCreate(ctx, o);
    expect(o.status).to.equal(undefined);
    expect((o.metadata as Obj).generation).to.equal(undefined);
    const old = variant(minimal(), (x) => (x.status = { desiredReplicas: 3 }));
    const next = variant(minimal(), (x) => (x.status = { desiredReplicas: 9 }));
    horizontalPodAutoscalerStrategy.prepareForUpdate(ctx, next, old);
    expect(next.status).to.deep.equal({ desiredReplicas: 3 });
    expect(horizontalPodAutoscalerStrategy.allowCreateOnUpdate()).to.equal(false);
  });

  it('status writes change only the status and refuse negative replica counts', () => {
    const old = variant(minimal(), (x) => ((x.metadata as Obj).resourceVersion = '1'));
    const next = variant(old, (x) => {
      spec(x).maxReplicas = 50;
      x.status = { currentReplicas: -1, desiredReplicas: -2 };
    });
    horizontalPodAutoscalerStatusStrategy.prepareForUpdate(ctx, next, old);
    expect(spec(next).maxReplicas).to.equal(5);
    expect(messages(horizontalPodAutoscalerStatusStrategy.validateUpdate(ctx, next, old))).to.deep.equal([
      'status.currentReplicas: Invalid value: -1: must be greater than or equal to 0',
      'status.desiredReplicas: Invalid value: -2: must be greater than or equal to 0',
    ]);
  });
});
