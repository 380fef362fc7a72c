import { expect } from 'chai';
import { parse } from 'yaml';
import { changes, comparableYaml, conflictsOf, editableYaml, lineDiff } from '../../../console/src/views/edit/apply-yaml.js';

const cm = {
  kind: 'ConfigMap',
  apiVersion: 'v1',
  metadata: {
    name: 'x',
    namespace: 'default',
    labels: { app: 'a' },
    uid: 'u',
    resourceVersion: '5',
    generation: 1,
    creationTimestamp: '2024-01-01T00:00:00Z',
    managedFields: [{ manager: 'm' }],
  },
  data: { a: '1' },
  status: { phase: 'x' },
};

describe('console/edit: the YAML of an apply configuration (issue #22 § Edit safely)', () => {
  it('keeps apiVersion, kind, name, namespace, labels and the rest; drops status and what the server sets', () => {
    const text = editableYaml(cm);
    expect(parse(text)).to.deep.equal({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default', labels: { app: 'a' } }, data: { a: '1' } });
    expect(text.split('\n')[0]).to.equal('apiVersion: v1');
  });

  it('compares objects without managedFields', () => {
    expect(parse(comparableYaml(cm)).metadata).to.not.have.property('managedFields');
    expect(parse(comparableYaml(cm)).metadata.resourceVersion).to.equal('5');
  });

  it('diffs line by line', () => {
    const d = lineDiff('a: 1\nb: 2\n', 'a: 1\nb: 3\n');
    expect(d).to.deep.equal([
      { op: ' ', text: 'a: 1' },
      { op: '-', text: 'b: 2' },
      { op: '+', text: 'b: 3' },
    ]);
    expect(changes(d)).to.equal(true);
    expect(changes(lineDiff('a: 1\n', 'a: 1\n'))).to.equal(false);
  });
});

describe('console/edit: the conflicts of a 409 apply (issue #22 § Edit safely)', () => {
  it('names the manager and field of each FieldManagerConflict cause', () => {
    const details = {
      causes: [
        { reason: 'FieldManagerConflict', message: 'conflict with "other-tool" using v1', field: '.data.a' },
        { reason: 'FieldManagerConflict', message: 'conflict with "kubectl-edit" with subresource "scale"', field: '.spec.replicas' },
        { reason: 'FieldValueInvalid', message: 'x', field: '.y' },
      ],
    };
    expect(conflictsOf(details)).to.deep.equal([
      { manager: 'other-tool', field: '.data.a' },
      { manager: 'kubectl-edit', field: '.spec.replicas' },
    ]);
    expect(conflictsOf(undefined)).to.deep.equal([]);
  });
});
