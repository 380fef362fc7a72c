import { expect } from 'chai';
import { controllerRevision } from '../../../../../lib/apis/apps/v1/index.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: { name: 'web-5d8b9c', namespace: 'default' },
  data: { spec: { template: { $patch: 'replace', metadata: { labels: { app: 'web' } } } } },
  revision: 2,
});
const errorsOf = (mutate: (o: Obj) => void): string[] => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(controllerRevision, o);
  return messages(validateCreate(controllerRevision, o));
};

describe('apps/v1 ControllerRevision: definition (issue #12 item 1)', () => {
  it('declares the upstream discovery facts: no short name, no category, no status', () => {
    expect(controllerRevision).to.include({
      group: 'apps',
      version: 'v1',
      kind: 'ControllerRevision',
      resource: 'controllerrevisions',
      singular: 'controllerrevision',
      namespaced: true,
      statusSubresource: false,
    });
    expect(controllerRevision.shortNames).to.deep.equal([]);
    expect(controllerRevision.categories).to.deep.equal([]);
  });

  it('keeps data as any JSON value, with no defaults, and validates clean', () => {
    const o = minimal();
    expect(decodeAndDefault(controllerRevision, o)).to.deep.equal({ unknownFields: [] });
    expect(o).to.deep.equal(minimal());
    expect(validateCreate(controllerRevision, o)).to.deep.equal([]);
    expect(errorsOf((x) => (x.data = [1, 'two']))).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    expect(decodeAndDefault(controllerRevision, fixture('controller-revision'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(controllerRevision.schema, fixture('controller-revision'))).to.deep.equal([]);
  });
});

describe('apps/v1 ControllerRevision: validation (upstream ValidateControllerRevision)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['data is mandatory', (o) => delete o.data, ['data: Required value: data is mandatory']],
    ['null data is no data', (o) => (o.data = null), ['data: Required value: data is mandatory']],
    ['revision is required', (o) => delete o.revision, ['revision: Required value']],
    ['revision is non-negative', (o) => (o.revision = -1), ['revision: Invalid value: -1: must be greater than or equal to 0']],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('apps/v1 ControllerRevision: updates (upstream ValidateControllerRevisionUpdate)', () => {
  const stored = (): Obj => variant(minimal(), (o) => ((o.metadata as Obj).resourceVersion = '1'));

  it('keeps data immutable', () => {
    const old = stored();
    expect(messages(validateUpdate(controllerRevision, variant(old, (o) => (o.data = { spec: {} })), old))).to.deep.equal(['data: Invalid value: {"spec":{}}: field is immutable']);
  });

  it('lets revision and labels change, as upstream', () => {
    const old = stored();
    const next = variant(old, (o) => {
      o.revision = 5;
      (o.metadata as Obj).labels = { 'controller-revision-hash': '5d8b9c' };
    });
    expect(messages(validateUpdate(controllerRevision, next, old))).to.deep.equal([]);
  });
});
