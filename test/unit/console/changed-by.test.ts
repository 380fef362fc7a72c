import { expect } from 'chai';
import { changedBy } from '../../../console/src/views/object/changed-by.js';

const entry = (manager: string, time: string, fields: Record<string, unknown> = { 'f:data': { 'f:a': {} } }) => ({ manager, operation: 'Update', time, fieldsType: 'FieldsV1', fieldsV1: fields });
const version = (...managedFields: ReturnType<typeof entry>[]) => ({ metadata: { creationTimestamp: '2026-01-01T09:00:00Z', managedFields } });

describe('console/object/history changedBy (issue #22 § History: which manager changed it)', () => {
  it('names every manager of the first version, at the latest of their times', () => {
    expect(changedBy(version(entry('a', '2026-01-01T10:00:00Z'), entry('b', '2026-01-01T10:00:05Z')), undefined)).to.deep.equal({ managers: ['a', 'b'], time: '2026-01-01T10:00:05Z', certain: true });
  });

  it('names the manager whose entry is new, not the one that lost fields to it', () => {
    const before = version(entry('creator', '2026-01-01T10:00:00Z', { 'f:data': { 'f:a': {}, 'f:b': {} } }));
    const after = version(entry('creator', '2026-01-01T10:00:00Z', { 'f:data': { 'f:b': {} } }), entry('editor', '2026-01-01T10:01:00Z'));
    expect(changedBy(after, before)).to.deep.equal({ managers: ['editor'], time: '2026-01-01T10:01:00Z', certain: true });
  });

  it('names the manager whose entry has a new time', () => {
    const before = version(entry('a', '2026-01-01T10:00:00Z'), entry('b', '2026-01-01T10:00:01Z'));
    const after = version(entry('a', '2026-01-01T10:05:00Z'), entry('b', '2026-01-01T10:00:01Z'));
    expect(changedBy(after, before).managers).to.deep.equal(['a']);
  });

  it('names the latest managers, uncertainly, when no entry changed (two writes within one second)', () => {
    const v = version(entry('a', '2026-01-01T10:00:00Z'), entry('b', '2026-01-01T10:00:07Z'));
    expect(changedBy(v, v)).to.deep.equal({ managers: ['b'], time: '2026-01-01T10:00:07Z', certain: false });
  });
});
