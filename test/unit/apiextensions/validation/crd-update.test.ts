/**
 * CustomResourceDefinition validation on update and status writes (upstream v1.30 apiextensions
 * `ValidateCustomResourceDefinitionUpdate`, `ValidateUpdateCustomResourceDefinitionStatus`):
 * immutable fields, checks ratcheted on the stored definition, stored versions.
 */
import { expect } from 'chai';
import type { CustomResourceDefinition } from '../../../../lib/apiextensions/types.js';
import { validateCustomResourceDefinitionStatusUpdate, validateCustomResourceDefinitionUpdate } from '../../../../lib/apiextensions/validation/crd.js';
import { crd, messages, recordingHooks, schema } from './fixtures.js';

const established = (c: CustomResourceDefinition): CustomResourceDefinition => {
  c.status = { ...c.status, conditions: [{ type: 'Established', status: 'True' }] };
  return c;
};
const update = (c: CustomResourceDefinition, old: CustomResourceDefinition) => messages(validateCustomResourceDefinitionUpdate(c, old, recordingHooks()));

describe('validateCustomResourceDefinitionUpdate (upstream apiextensions validation)', () => {
  it('accepts an unchanged definition', () => {
    expect(update(crd(), crd())).to.deep.equal([]);
  });

  it('refuses a change of group and plural always, and of scope and kind once Established', () => {
    const c = crd();
    c.spec.group = 'other.com';
    c.spec.names.plural = 'gadgets';
    c.metadata.name = 'gadgets.other.com';
    c.spec.scope = 'Cluster';
    c.spec.names.kind = 'Gadget';
    c.spec.names.listKind = 'GadgetList';
    const want = [
      'metadata.name: Invalid value: "gadgets.other.com": field is immutable',
      'spec.group: Invalid value: "other.com": field is immutable',
      'spec.names.plural: Invalid value: "gadgets": field is immutable',
    ];
    expect(update(c, crd())).to.deep.equal(want);
    expect(update(c, established(crd()))).to.deep.equal([
      want[0],
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Gadget": field is immutable',
      ...want.slice(1),
    ]);
  });

  it('requires schemas only when the stored definition had them all', () => {
    const c = crd();
    delete c.spec.versions[0]!.schema;
    expect(update(c, crd())).to.deep.equal(['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']);
    const old = crd();
    delete old.spec.versions[0]!.schema;
    expect(update(c, old)).to.deep.equal(['spec.versions[0].schema.openAPIV3Schema: Required value: because otherwise all fields are pruned']);
  });

  it('requires a recognized review version only when the stored webhook had one', () => {
    const webhook = (versions: string[]) => ({ strategy: 'Webhook', webhook: { clientConfig: { url: 'https://a.example.com' }, conversionReviewVersions: versions } });
    const c = crd();
    c.spec.conversion = webhook(['v9']);
    expect(update(c, crd())).to.deep.equal(['spec.conversion.conversionReviewVersions: Invalid value: []string{"v9"}: must include at least one of v1, v1beta1']);
    const old = crd();
    old.spec.conversion = webhook(['v8']);
    expect(update(c, old)).to.deep.equal([]);
  });

  it('refuses dropping a stored version from spec.versions', () => {
    const c = crd();
    c.spec.versions = [{ name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: schema() } }];
    c.status = { storedVersions: ['v1', 'v2'] };
    expect(update(c, crd())).to.deep.equal(['status.storedVersions[0]: Invalid value: "v1": must appear in spec.versions']);
  });

  it('allows preserveUnknownFields: true only when the stored definition has it', () => {
    const c = crd();
    c.spec.preserveUnknownFields = true;
    const msg = 'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-orch-preserve-unknown-fields to true in spec.versions[*].schema instead';
    expect(update(c, crd())).to.deep.equal([msg]);
    const old = crd();
    old.spec.preserveUnknownFields = true;
    expect(update(c, old)).to.deep.equal([]);
  });

  it('gives the schema hook the stored schema of the same version', () => {
    const c = crd();
    const old = crd();
    old.spec.versions[0]!.schema!.openAPIV3Schema!.description = 'old';
    const hooks = recordingHooks();
    validateCustomResourceDefinitionUpdate(c, old, hooks);
    expect(hooks.calls).to.have.length(1);
    const call = hooks.calls[0]!;
    expect(call.hook === 'schema' && call.ctx).to.deep.equal({ statusEnabled: false, isUpdate: true, oldProps: old.spec.versions[0]!.schema!.openAPIV3Schema });
  });
});

describe('validateCustomResourceDefinitionStatusUpdate (upstream apiextensions validation)', () => {
  it('checks metadata and accepted names only', () => {
    const c = crd();
    c.status = { acceptedNames: { plural: 'widgets', kind: 'Widget', listKind: 'Widget' }, storedVersions: [] };
    c.spec.scope = 'Nowhere';
    expect(messages(validateCustomResourceDefinitionStatusUpdate(c, crd()))).to.deep.equal([
      'status.acceptedNames.listKind: Invalid value: "Widget": kind and listKind may not be the same',
    ]);
  });

  it('refuses new finalizers on a terminating definition', () => {
    const old = crd();
    old.metadata.deletionTimestamp = '2024-01-01T00:00:00Z';
    const c = crd();
    c.metadata.deletionTimestamp = '2024-01-01T00:00:00Z';
    c.metadata.finalizers = ['x/y'];
    expect(messages(validateCustomResourceDefinitionStatusUpdate(c, old))).to.deep.equal([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"x/y"}',
    ]);
  });
});
