import { expect } from 'chai';
import { validateScale } from '../../../../lib/apis/autoscaling/v1/scale.js';
import { labelSelectorAt, scaleSubresource, selectorMapAt } from '../../../../lib/registry/generic/scale.js';
import { fieldPathOf, parentManagedFields, scaleManagedFields } from '../../../../lib/registry/generic/scale-managed-fields.js';
import { messages } from '../../apis/kind-pipeline.js';

const REPLICAS = fieldPathOf(['spec', 'replicas']);
const T1 = '2024-01-01T00:00:00Z';
const T2 = '2024-01-02T00:00:00Z';

const entry = (manager: string, apiVersion: string, fieldsV1: object, extra: object = {}) => ({
  manager,
  operation: 'Update',
  apiVersion,
  time: T1,
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...extra,
});
const replicasAndImage = { 'f:spec': { 'f:replicas': {}, 'f:paused': {} } };

describe('scale managed fields (upstream ScaleHandler)', () => {
  it('shows each parent entry owning the replicas as an autoscaling/v1 entry owning spec.replicas', () => {
    const parent = [entry('creator', 'apps/v1', replicasAndImage), entry('labeller', 'apps/v1', { 'f:metadata': { 'f:labels': {} } })];
    expect(scaleManagedFields(parent, 'apps/v1', REPLICAS)).to.deep.equal([entry('creator', 'autoscaling/v1', { 'f:spec': { 'f:replicas': {} } })]);
  });

  it('leaves out entries of another apiVersion, and answers undefined when nothing remains', () => {
    expect(scaleManagedFields([entry('old', 'apps/v1beta1', replicasAndImage)], 'apps/v1', REPLICAS)).to.equal(undefined);
    expect(scaleManagedFields(undefined, 'apps/v1', REPLICAS)).to.equal(undefined);
  });

  it('moves the replicas to the scale writer: the parent entry keeps the rest, the writer gets a parent entry without time', () => {
    const parent = [entry('creator', 'apps/v1', replicasAndImage)];
    // What a scale write that changed the replicas leaves: the writer alone owns them.
    const scale = [entry('hpa', 'autoscaling/v1', { 'f:spec': { 'f:replicas': {} } }, { time: T2, subresource: 'scale' })];
    expect(parentManagedFields(parent, scale, 'apps/v1', REPLICAS)).to.deep.equal([
      { manager: 'hpa', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' },
      entry('creator', 'apps/v1', { 'f:spec': { 'f:paused': {} } }),
    ]);
  });

  it('splits an updater that still shares the replicas in two entries, as upstream (its Scale identifier names autoscaling/v1)', () => {
    const parent = [entry('creator', 'apps/v1', replicasAndImage)];
    const out = parentManagedFields(parent, scaleManagedFields(parent, 'apps/v1', REPLICAS), 'apps/v1', REPLICAS)!;
    expect(out).to.deep.equal([
      { manager: 'creator', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
      entry('creator', 'apps/v1', { 'f:spec': { 'f:paused': {} } }),
    ]);
  });

  it('drops a parent entry that owned only the replicas, and parent entries of another apiVersion', () => {
    const parent = [entry('creator', 'apps/v1', { 'f:spec': { 'f:replicas': {} } }), entry('old', 'apps/v1beta2', { 'f:metadata': { 'f:labels': {} } })];
    const scale = [entry('hpa', 'autoscaling/v1', { 'f:spec': { 'f:replicas': {} } }, { subresource: 'scale' })];
    expect(parentManagedFields(parent, scale, 'apps/v1', REPLICAS)!.map((e) => e.manager)).to.deep.equal(['hpa']);
  });

  it('keeps an applier entry whole when the scale write kept its identifier', () => {
    const applied = { manager: 'hpa', operation: 'Apply', apiVersion: 'apps/v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' };
    const scale = scaleManagedFields([applied], 'apps/v1', REPLICAS)!;
    expect(scale).to.deep.equal([{ ...applied, apiVersion: 'autoscaling/v1' }]);
    expect(parentManagedFields([applied], scale, 'apps/v1', REPLICAS)).to.deep.equal([applied]);
  });

  it('ignores scale entries that do not own spec.replicas', () => {
    const scale = [entry('status-writer', 'autoscaling/v1', { 'f:status': { 'f:replicas': {} } })];
    expect(parentManagedFields([], scale, 'apps/v1', REPLICAS)).to.equal(undefined);
  });
});

describe('scale subresource facts', () => {
  it('defaults to spec.replicas, status.replicas and the LabelSelector at spec.selector', () => {
    const s = scaleSubresource();
    expect(s.specReplicasPath).to.deep.equal(['spec', 'replicas']);
    expect(s.statusReplicasPath).to.deep.equal(['status', 'replicas']);
    expect(s.selector({ spec: { selector: { matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'c', operator: 'NotIn', values: ['y', 'x'] }] } } })).to.equal(
      'a=1,b=2,c notin (x,y)',
    );
  });

  it('prints nil and empty selectors as the empty string, as upstream', () => {
    expect(labelSelectorAt('spec.selector')({ spec: {} })).to.equal('');
    expect(labelSelectorAt('spec.selector')({ spec: { selector: {} } })).to.equal('');
  });

  it('reads a map selector (ReplicationController) in key order', () => {
    expect(selectorMapAt('spec.selector')({ spec: { selector: { tier: 'web', app: 'x' } } })).to.equal('app=x,tier=web');
  });

  it('throws for an operator a selector cannot have', () => {
    expect(() => labelSelectorAt('spec.selector')({ spec: { selector: { matchExpressions: [{ key: 'a', operator: 'Foo' }] } } })).to.throw('"Foo" is not a valid label selector operator');
  });
});

describe('validateScale (upstream ValidateScale)', () => {
  const scale = (replicas: number) => ({ metadata: { name: 'web', namespace: 'default' }, spec: { replicas } });
  it('accepts zero and positive replicas', () => {
    expect(validateScale(scale(0))).to.deep.equal([]);
    expect(validateScale(scale(3))).to.deep.equal([]);
  });
  it('rejects negative replicas', () => {
    expect(messages(validateScale(scale(-1)))).to.deep.equal(['spec.replicas: Invalid value: -1: must be greater than or equal to 0']);
  });
  it('validates the metadata as a namespaced object', () => {
    expect(messages(validateScale({ metadata: { name: 'Web' }, spec: {} }))).to.deep.equal([
      "metadata.name: Invalid value: \"Web\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'metadata.namespace: Required value',
    ]);
  });
});
