import { expect } from 'chai';
import { type FieldError, fieldErrorString, invalid } from '../../../../lib/apimachinery/field-errors.js';
import { enumOf, field, string, stringWith, struct } from '../../../../lib/apimachinery/schema/builder.js';
import { defineKind, type Obj } from '../../../../lib/apis/define.js';
import { objectMeta } from '../../../../lib/apis/meta/v1/types.js';
import { newKindStrategy, newStatusStrategy } from '../../../../lib/registry/generic/kind-strategy.js';
import { internalContext } from '../../../../lib/request/context.js';

const ctx = internalContext({ name: 'admin', groups: [] });

/** A kind with a required spec and a status of its own, as VolumeAttachment or CertificateSigningRequest. */
const widget = defineKind({
  group: 'example.test',
  version: 'v1',
  kind: 'Widget',
  resource: 'widgets',
  singular: 'widget',
  namespaced: false,
  statusSubresource: true,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, struct('api.example.v1.WidgetSpec', { size: field(1, string, { required: true }) }), { required: true }),
    status: field(3, struct('api.example.v1.WidgetStatus', { phase: field(1, enumOf('Ready', 'Broken')), message: field(2, stringWith({ maxLength: 8 })) })),
  },
  validateStatusUpdate: (obj: Obj, old: Obj): FieldError[] =>
    (obj.status as Obj | undefined)?.phase === 'Broken' && (old.status as Obj | undefined)?.phase === 'Ready' ? [invalid('status.phase', 'Broken', 'may not go back')] : [],
});

const stored = (status?: Obj): Obj => ({
  apiVersion: 'example.test/v1',
  kind: 'Widget',
  metadata: { name: 'w', resourceVersion: '7', uid: 'u-1', creationTimestamp: '2024-01-01T00:00:00Z' },
  spec: { size: 'L' },
  ...(status ? { status } : {}),
});

/** The errors of a status write of `status` over `old`, after the strategy's preparation. */
function statusWrite(status: Obj, old: Obj = stored(), options: { allowUnconditionalUpdate?: boolean } = {}): string[] {
  const strategy = newStatusStrategy(newKindStrategy(widget, options));
  const obj: Obj = { apiVersion: 'example.test/v1', kind: 'Widget', metadata: { name: 'w', resourceVersion: '7' }, status };
  strategy.prepareForUpdate(ctx, obj, old);
  return strategy.validateUpdate(ctx, obj, old).map(fieldErrorString);
}

describe('newStatusStrategy (issue #12: status writes of kinds whose spec is required)', () => {
  it('validates the status field alone: the stored required spec is not reported', () => {
    expect(statusWrite({ phase: 'Ready' })).to.deep.equal([]);
  });

  it('reports the declarative errors of the status, with their paths', () => {
    expect(statusWrite({ phase: 'Gone', message: 'much too long' })).to.deep.equal([
      'status.phase: Unsupported value: "Gone": supported values: "Ready", "Broken"',
      'status.message: Too long: may not be more than 8 bytes',
    ]);
  });

  it('runs the kind validateStatusUpdate after the declarative checks', () => {
    expect(statusWrite({ phase: 'Broken' }, stored({ phase: 'Ready' }))).to.deep.equal(['status.phase: Invalid value: "Broken": may not go back']);
  });

  it('keeps the spec of the stored object whatever the write carries', () => {
    const strategy = newStatusStrategy(newKindStrategy(widget));
    const obj: Obj = { ...stored({ phase: 'Ready' }), spec: {} };
    strategy.prepareForUpdate(ctx, obj, stored());
    expect(obj.spec).to.deep.equal({ size: 'L' });
    expect(obj.status).to.deep.equal({ phase: 'Ready' });
  });

  it('inherits whether the main strategy allows an update without resourceVersion; never creates on update', () => {
    expect(newStatusStrategy(newKindStrategy(widget, { allowUnconditionalUpdate: false })).allowUnconditionalUpdate()).to.equal(false);
    expect(newStatusStrategy(newKindStrategy(widget)).allowUnconditionalUpdate()).to.equal(true);
    expect(newStatusStrategy(newKindStrategy(widget, { allowCreateOnUpdate: true })).allowCreateOnUpdate()).to.equal(false);
  });
});
