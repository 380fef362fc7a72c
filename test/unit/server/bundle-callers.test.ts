import { expect } from 'chai';
import { CallerTable, encodeCallerTable } from '../../../lib/server/bundle-callers.js';

describe('bundle caller table (log callers in the bundle)', () => {
  // Line 2 of the bundle: columns 0–9 from a.ts line 5, 10–19 a package's code, 20 on b.ts line 7.
  const names = ['a.ts', '', 'b.ts'];
  const table = CallerTable.decode(
    encodeCallerTable(names, [
      { line: 2, column: 0, name: 0, sourceLine: 5 },
      { line: 2, column: 10, name: 1, sourceLine: 80 },
      { line: 2, column: 20, name: 2, sourceLine: 7 },
      { line: 4, column: 3, name: 0, sourceLine: 65_535 },
    ]),
  );

  it('maps a frame (1-based line and column, as V8 prints them) to the entry it falls in', () => {
    expect(table.at(2, 1)).to.deep.equal({ name: 'a.ts', line: 5 });
    expect(table.at(2, 10)).to.deep.equal({ name: 'a.ts', line: 5 });
    expect(table.at(2, 11)).to.deep.equal({ name: '', line: 80 });
    expect(table.at(2, 21)).to.deep.equal({ name: 'b.ts', line: 7 });
    expect(table.at(2, 500_000)).to.deep.equal({ name: 'b.ts', line: 7 });
    expect(table.at(4, 4)).to.deep.equal({ name: 'a.ts', line: 65_535 });
  });

  it('maps nothing before the first entry of a line, nor on a line without entries', () => {
    expect(table.at(1, 1)).to.equal(undefined);
    expect(table.at(3, 1)).to.equal(undefined);
    expect(table.at(4, 3)).to.equal(undefined);
  });

  it('refuses entries out of order, values past 16 bits and a truncated file', () => {
    expect(() => encodeCallerTable(names, [{ line: 2, column: 5, name: 0, sourceLine: 1 }, { line: 2, column: 4, name: 0, sourceLine: 1 }])).to.throw('out of order');
    expect(() => encodeCallerTable(names, [{ line: 1, column: 0, name: 0, sourceLine: 65_536 }])).to.throw('16 bits');
    const bytes = encodeCallerTable(names, [{ line: 1, column: 0, name: 0, sourceLine: 1 }]);
    expect(() => CallerTable.decode(bytes.subarray(0, bytes.length - 1))).to.throw('caller table');
  });

  it('reads no table where there is none (the sources run)', () => {
    expect(CallerTable.read('/nonexistent/orch-test.cjs.callers')).to.equal(undefined);
  });
});
