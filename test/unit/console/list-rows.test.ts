import { expect } from 'chai';
import { type Table, type TableRow, appendPage, applyEvent, fromTable } from '../../../console/src/views/list/rows.js';

const cols = [
  { name: 'Name', type: 'string', format: 'name' },
  { name: 'Data', type: 'string' },
];

function row(name: string, data = 0, ns = 'default'): TableRow {
  return { cells: [name, data], object: { metadata: { name, namespace: ns, uid: `uid-${ns}-${name}` } } };
}

function table(rows: TableRow[], cont?: string): Table {
  return { columnDefinitions: cols, rows, metadata: { resourceVersion: '10', continue: cont } };
}

const names = (s: { rows: TableRow[] }) => s.rows.map((r) => r.object!.metadata!.name);

describe('console/list rows: a live list from Table answers and watch events (issue #22 § Lists are live)', () => {
  it('ADDED inserts in namespace/name order; MODIFIED replaces the row; DELETED removes it', () => {
    let s = fromTable(table([row('a'), row('c')]));
    s = applyEvent(s, 'ADDED', { rows: [row('b')] });
    expect(names(s)).to.deep.equal(['a', 'b', 'c']);
    s = applyEvent(s, 'MODIFIED', { rows: [row('b', 3)] });
    expect(s.rows[1]!.cells).to.deep.equal(['b', 3]);
    s = applyEvent(s, 'DELETED', { rows: [row('a')] });
    expect(names(s)).to.deep.equal(['b', 'c']);
    expect(s.columns).to.deep.equal(cols);
  });

  it('a MODIFIED row not shown while pages remain waits for its page; on a complete list it is inserted', () => {
    const paged = applyEvent(fromTable(table([row('a')], 'next')), 'MODIFIED', { rows: [row('z')] });
    expect(names(paged)).to.deep.equal(['a']);
    const complete = applyEvent(fromTable(table([row('a')])), 'MODIFIED', { rows: [row('z')] });
    expect(names(complete)).to.deep.equal(['a', 'z']);
  });

  it('a next page skips rows the watch already shows (newer) or deleted, and takes the next continue token', () => {
    let s = fromTable(table([row('a'), row('b')], 'tok1'));
    s = applyEvent(s, 'ADDED', { rows: [row('c', 9)] });
    s = applyEvent(s, 'DELETED', { rows: [row('d')] });
    s = appendPage(s, table([row('c'), row('d'), row('e')], 'tok2'));
    expect(names(s)).to.deep.equal(['a', 'b', 'c', 'e']);
    expect(s.rows[2]!.cells).to.deep.equal(['c', 9]);
    expect(s.continueToken).to.equal('tok2');
    expect(appendPage(s, table([row('f')])).continueToken).to.equal(undefined);
  });

  it('rows of equal names in different namespaces are different rows', () => {
    const s = applyEvent(fromTable(table([row('x', 0, 'a')])), 'ADDED', { rows: [row('x', 0, 'b')] });
    expect(s.rows.map((r) => r.object!.metadata!.namespace)).to.deep.equal(['a', 'b']);
  });
});
