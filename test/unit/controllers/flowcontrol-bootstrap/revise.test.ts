import { expect } from 'chai';
import type { Obj } from '../../../../lib/apis/define.js';
import { flowSchema, mandatoryFlowSchemas, mandatoryPriorityLevels, priorityLevelConfiguration, suggestedFlowSchemas, suggestedPriorityLevels } from '../../../../lib/apis/flowcontrol/v1/index.js';
import { APF_AUTOUPDATE_ANNOTATION } from '../../../../lib/apis/vendor.js';
import { isUnwanted, parseBool, reviseIfNeeded, shouldUpdateSpec, specEqualish } from '../../../../lib/controllers/flowcontrol-bootstrap/revise.js';

/** A stored copy of `o` with `generation` and the annotation `autoupdate` (undefined: none). */
function stored(o: Obj, generation: number, autoupdate: string | undefined, mutate: (x: Obj) => void = () => {}): Obj {
  const copy = structuredClone(o) as Obj;
  const meta = copy.metadata as Obj;
  meta.generation = generation;
  meta.annotations = autoupdate === undefined ? {} : { [APF_AUTOUPDATE_ANNOTATION]: autoupdate };
  mutate(copy);
  return copy;
}
const annotation = (o: Obj | undefined) => ((o?.metadata as Obj | undefined)?.annotations as Record<string, string> | undefined)?.[APF_AUTOUPDATE_ANNOTATION];
const spec = (o: Obj): Obj => o.spec as Obj;

const globalDefault = suggestedFlowSchemas().find((o) => o.metadata.name === 'global-default')!;
const workloadLow = suggestedPriorityLevels().find((o) => o.metadata.name === 'workload-low')!;
const [catchAllFS] = mandatoryFlowSchemas().slice(1);
const [, exemptPL] = mandatoryPriorityLevels();

describe('flowcontrol-bootstrap: what the ensurer decides (upstream ensurer strategy)', () => {
  it('parseBool reads what Go strconv.ParseBool reads', () => {
    for (const t of ['1', 't', 'T', 'TRUE', 'true', 'True']) expect(parseBool(t), t).to.equal(true);
    for (const f of ['0', 'f', 'F', 'FALSE', 'false', 'False']) expect(parseBool(f), f).to.equal(false);
    for (const x of ['yes', '', 'tRUE', undefined]) expect(parseBool(x), String(x)).to.equal(undefined);
  });

  it('a suggested object is kept up to date by its annotation, else while its generation is 1', () => {
    expect(shouldUpdateSpec(stored(globalDefault, 7, 'true'))).to.equal(true);
    expect(shouldUpdateSpec(stored(globalDefault, 1, 'false'))).to.equal(false);
    expect(shouldUpdateSpec(stored(globalDefault, 1, undefined))).to.equal(true);
    expect(shouldUpdateSpec(stored(globalDefault, 2, undefined))).to.equal(false);
    expect(shouldUpdateSpec(stored(globalDefault, 1, 'maybe'))).to.equal(true);
  });

  it('an up-to-date object needs nothing', () => {
    expect(reviseIfNeeded(flowSchema, stored(globalDefault, 1, 'true'), globalDefault, false)).to.equal(undefined);
    expect(reviseIfNeeded(flowSchema, stored(catchAllFS!, 3, 'true'), catchAllFS!, true)).to.equal(undefined);
  });

  it('a suggested object with autoupdate "true" gets the built-in spec back', () => {
    const edited = stored(globalDefault, 2, 'true', (o) => (spec(o).matchingPrecedence = 9901));
    const revised = reviseIfNeeded(flowSchema, edited, globalDefault, false)!;
    expect(spec(revised)).to.deep.equal(globalDefault.spec);
    expect(annotation(revised)).to.equal('true');
    expect((revised.metadata as Obj).generation).to.equal(2);
  });

  it('a suggested object with autoupdate "false" is left alone', () => {
    expect(reviseIfNeeded(flowSchema, stored(globalDefault, 5, 'false', (o) => (spec(o).matchingPrecedence = 9901)), globalDefault, false)).to.equal(undefined);
  });

  it('a suggested object without the annotation: revised and marked "true" at generation 1, marked "false" after an edit', () => {
    const untouched = reviseIfNeeded(priorityLevelConfiguration, stored(workloadLow, 1, undefined, (o) => (((o.spec as Obj).limited as Obj).nominalConcurrencyShares = 20)), workloadLow, false)!;
    expect(spec(untouched)).to.deep.equal(workloadLow.spec);
    expect(annotation(untouched)).to.equal('true');
    const edited = reviseIfNeeded(priorityLevelConfiguration, stored(workloadLow, 3, undefined, (o) => (((o.spec as Obj).limited as Obj).nominalConcurrencyShares = 20)), workloadLow, false)!;
    expect(((edited.spec as Obj).limited as Obj).nominalConcurrencyShares).to.equal(20);
    expect(annotation(edited)).to.equal('false');
  });

  it('a mandatory object is always revised and marked "true", whatever its annotation', () => {
    const edited = stored(catchAllFS!, 4, 'false', (o) => (spec(o).distinguisherMethod = { type: 'ByNamespace' }));
    const revised = reviseIfNeeded(flowSchema, edited, catchAllFS!, true)!;
    expect(spec(revised)).to.deep.equal(catchAllFS!.spec);
    expect(annotation(revised)).to.equal('true');
    expect(annotation(reviseIfNeeded(flowSchema, stored(catchAllFS!, 4, 'False'), catchAllFS!, true))).to.equal('true');
  });

  it('the exempt level keeps the operator\'s spec.exempt values, but not a missing spec.exempt', () => {
    const tuned = stored(exemptPL!, 2, 'true', (o) => (spec(o).exempt = { nominalConcurrencyShares: 10, lendablePercent: 50 }));
    expect(specEqualish(priorityLevelConfiguration, exemptPL!, tuned)).to.equal(true);
    expect(reviseIfNeeded(priorityLevelConfiguration, tuned, exemptPL!, true)).to.equal(undefined);
    const bare = stored(exemptPL!, 2, 'true', (o) => delete spec(o).exempt);
    expect(spec(reviseIfNeeded(priorityLevelConfiguration, bare, exemptPL!, true)!)).to.deep.equal(exemptPL!.spec);
  });

  it('only non-built-in objects with autoupdate true are unwanted', () => {
    const wanted = new Set(['global-default']);
    const other = (name: string, value: string | undefined) => stored({ metadata: { name }, spec: {} }, 1, value);
    expect(isUnwanted(other('retired', 'true'), wanted)).to.equal(true);
    expect(isUnwanted(other('retired', 'T'), wanted)).to.equal(true);
    expect(isUnwanted(other('mine', undefined), wanted)).to.equal(false);
    expect(isUnwanted(other('mine', 'false'), wanted)).to.equal(false);
    expect(isUnwanted(other('mine', 'bogus'), wanted)).to.equal(false);
    expect(isUnwanted(other('global-default', 'true'), wanted)).to.equal(false);
  });
});
