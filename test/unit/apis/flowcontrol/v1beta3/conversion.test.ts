import { expect } from 'chai';
import { canonicalize } from '../../../../../lib/apimachinery/schema/canonical.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { componentStatus } from '../../../../../lib/apis/core/v1/component-status.js';
import { deprecationWarning } from '../../../../../lib/apis/deprecation.js';
import { flowSchema, priorityLevelConfiguration } from '../../../../../lib/apis/flowcontrol/v1/index.js';
import {
  flowcontrolV1beta3Kinds,
  flowSchemaV1beta3,
  flowSchemaV1beta3Conversion as fsConv,
  priorityLevelConfigurationV1beta3,
  priorityLevelConfigurationV1beta3Conversion as plConv,
} from '../../../../../lib/apis/flowcontrol/v1beta3/index.js';
import { APF_PRESERVE_ZERO_SHARES_ANNOTATION } from '../../../../../lib/apis/vendor.js';
import { decodeAndDefault, validateCreate } from '../../kind-pipeline.js';

const FC = 'flowcontrol.apiserver.orch.io';
const KEY = 'flowcontrol.orch.io/v1beta3-preserve-zero-concurrency-shares';

const plc = (apiVersion: string, limited: Obj, annotations?: Record<string, string>): Obj => ({
  apiVersion,
  kind: 'PriorityLevelConfiguration',
  metadata: { name: 'p', ...(annotations ? { annotations } : {}) },
  spec: { type: 'Limited', limited: { ...limited, limitResponse: { type: 'Reject' } } },
});
/** A v1beta3 object as a client writes it, decoded and defaulted, then stored. */
const writeV1beta3 = (o: Obj): Obj => {
  decodeAndDefault(priorityLevelConfigurationV1beta3, o);
  return plConv.toStorage(o);
};
/** A v1 object as stored (decoded and defaulted), read in v1beta3. */
const readV1beta3 = (o: Obj): Obj => {
  decodeAndDefault(priorityLevelConfiguration, o);
  return plConv.toServed(o);
};
const limitedOf = (o: Obj) => ((o.spec as Obj).limited as Obj);
const annotationsOf = (o: Obj) => (o.metadata as Obj).annotations;

describe('flowcontrol v1beta3 kinds over v1 storage (issue #15 item 1; upstream pkg/apis/flowcontrol/v1beta3)', () => {
  it('the annotation key is upstream\'s in the vendor spelling', () => expect(APF_PRESERVE_ZERO_SHARES_ANNOTATION).to.equal(KEY));

  it('the kinds: FlowSchema and PriorityLevelConfiguration of v1beta3, with v1beta3 definition ids', () => {
    expect(flowcontrolV1beta3Kinds.map((k) => k.apiVersion + ' ' + k.kind)).to.deep.equal([`${FC}/v1beta3 FlowSchema`, `${FC}/v1beta3 PriorityLevelConfiguration`]);
    expect(flowSchemaV1beta3.schema.id).to.equal('api.flowcontrol.v1beta3.FlowSchema');
    const spec = priorityLevelConfigurationV1beta3.schema.fields as Record<string, { schema: { id: string } }>;
    expect(spec.spec!.schema.id).to.equal('api.flowcontrol.v1beta3.PriorityLevelConfigurationSpec');
  });

  it('the deprecation warning is upstream\'s full sentence', () => {
    expect(deprecationWarning(flowSchemaV1beta3)).to.equal(`${FC}/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use ${FC}/v1 FlowSchema`);
    expect(deprecationWarning(priorityLevelConfigurationV1beta3)).to.equal(
      `${FC}/v1beta3 PriorityLevelConfiguration is deprecated in v1.29+, unavailable in v1.32+; use ${FC}/v1 PriorityLevelConfiguration`,
    );
    expect(deprecationWarning(flowSchema)).to.equal(undefined);
    // Without a removal release or a replacement (upstream ComponentStatus): the first part only.
    expect(deprecationWarning(componentStatus)).to.equal('v1 ComponentStatus is deprecated in v1.19+');
  });

  const writes: Array<[string, Obj, Record<string, string> | undefined, number, Record<string, string> | undefined]> = [
    ['0 without the annotation is defaulted to 30', { nominalConcurrencyShares: 0 }, undefined, 30, undefined],
    ['absent is defaulted to 30', {}, undefined, 30, undefined],
    ['0 with the annotation stays 0; the annotation is not stored', { nominalConcurrencyShares: 0 }, { [KEY]: '' }, 0, undefined],
    ['other annotations stay', { nominalConcurrencyShares: 0 }, { [KEY]: 'x', a: 'b' }, 0, { a: 'b' }],
    ['a non-zero value is kept, the annotation dropped', { nominalConcurrencyShares: 7 }, { [KEY]: '' }, 7, undefined],
  ];
  for (const [name, limited, annotations, shares, stored] of writes) {
    it(`v1beta3 → v1: ${name}`, () => {
      const out = writeV1beta3(plc(`${FC}/v1beta3`, limited, annotations));
      expect(out.apiVersion).to.equal(`${FC}/v1`);
      expect(limitedOf(out).nominalConcurrencyShares).to.equal(shares);
      expect(limitedOf(out).lendablePercent).to.equal(0);
      expect(annotationsOf(out)).to.deep.equal(stored);
      expect(validateCreate(priorityLevelConfiguration, out)).to.deep.equal([]);
    });
  }

  it('v1 → v1beta3: 0 shares read with the annotation (value ""), which round-trips the 0', () => {
    const served = readV1beta3(plc(`${FC}/v1`, { nominalConcurrencyShares: 0 }));
    expect(served.apiVersion).to.equal(`${FC}/v1beta3`);
    expect(limitedOf(served).nominalConcurrencyShares).to.equal(0);
    expect(annotationsOf(served)).to.deep.equal({ [KEY]: '' });
    const back = writeV1beta3(served);
    expect(limitedOf(back).nominalConcurrencyShares).to.equal(0);
    expect(annotationsOf(back)).to.equal(undefined);
  });

  it('v1 → v1beta3: an existing annotation value is kept', () => {
    const served = readV1beta3(plc(`${FC}/v1`, { nominalConcurrencyShares: 0 }, { [KEY]: 'x' }));
    expect(annotationsOf(served)).to.deep.equal({ [KEY]: 'x' });
  });

  it('v1 → v1beta3: non-zero shares and exempt levels get no annotation', () => {
    expect(annotationsOf(readV1beta3(plc(`${FC}/v1`, { nominalConcurrencyShares: 5 })))).to.equal(undefined);
    const exempt = { apiVersion: `${FC}/v1`, kind: 'PriorityLevelConfiguration', metadata: { name: 'e' }, spec: { type: 'Exempt', exempt: {} } };
    expect(annotationsOf(readV1beta3(exempt))).to.equal(undefined);
  });

  it('round trips without loss: v1 → v1beta3 → v1', () => {
    for (const shares of [0, 1, 30, 1000]) {
      const v1 = plc(`${FC}/v1`, { nominalConcurrencyShares: shares, lendablePercent: 10, borrowingLimitPercent: 20 }, { keep: 'me' });
      decodeAndDefault(priorityLevelConfiguration, v1);
      const again = plConv.toStorage(decodeAndDefaultV1beta3(plConv.toServed(v1)));
      expect(again).to.deep.equal(plConv.toStorage(decodeAndDefaultV1beta3(plConv.toServed(again))));
      expect(limitedOf(again)).to.deep.include({ nominalConcurrencyShares: shares, lendablePercent: 10, borrowingLimitPercent: 20 });
      expect(annotationsOf(again)).to.deep.equal({ keep: 'me' });
    }
  });

  it('FlowSchema converts field for field both ways', () => {
    const v1: Obj = {
      apiVersion: `${FC}/v1`,
      kind: 'FlowSchema',
      metadata: { name: 'f' },
      spec: {
        priorityLevelConfiguration: { name: 'p' },
        matchingPrecedence: 500,
        distinguisherMethod: { type: 'ByUser' },
        rules: [{ subjects: [{ kind: 'Group', group: { name: 'g' } }], resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['*'] }] }],
      },
    };
    decodeAndDefault(flowSchema, v1);
    const served = fsConv.toServed(v1);
    expect(served.apiVersion).to.equal(`${FC}/v1beta3`);
    expect(served.spec).to.deep.equal(v1.spec);
    expect(fsConv.toStorage(served)).to.deep.equal(canonicalize(flowSchema.schema, v1));
  });
});

function decodeAndDefaultV1beta3(o: Obj): Obj {
  decodeAndDefault(priorityLevelConfigurationV1beta3, o);
  return o;
}
