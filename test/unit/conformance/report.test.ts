import { expect } from 'chai';
import { covers, coveredRows } from '../../conformance/covers.js';
import { buildReport, formatReport } from '../../conformance/report.js';
import { parseSpecRows } from '../../conformance/spec-tables.js';

const DOC = [
  '# Title',
  '## Errors',
  '',
  '| Status | Condition |',
  '|---|---|',
  '| 409 Conflict | PUT with a stale `resourceVersion` |',
  '| 410 Gone | Watch too old |',
  '',
  'Text | not a table',
  '### Removed',
  '| Release | Removed version |',
  '| --- | --- |',
  '| 1.25 | `batch/v1beta1` CronJob |',
  '| 1.25 | `policy/v1beta1` PodDisruptionBudget |',
  '| 1.22 | `x/v1beta1` |',
  '',
  'Watch semantics:',
  '',
  '| resourceVersion | Meaning |',
  '|---|---|',
  '| unset | Get state; start at most recent |',
  '| unset | again (second row) |',
].join('\n');

describe('conformance: spec rows and the report', () => {
  const rows = parseSpecRows('001', DOC);

  it('gives every data row of every table an id of document, nearest heading and first cell', () => {
    expect(rows.map((r) => r.id)).to.deep.equal([
      '001 § Errors › 409 Conflict',
      '001 § Errors › 410 Gone',
      '001 § Removed › 1.25 / batch/v1beta1 CronJob',
      '001 § Removed › 1.25 / policy/v1beta1 PodDisruptionBudget',
      '001 § Removed › 1.22',
      '001 § Removed (Watch semantics) › unset / Get state',
      '001 § Removed (Watch semantics) › unset / again',
    ]);
    expect(rows[0]!.line).to.equal(6);
  });

  it('tags titles with covers() and reads them back', () => {
    const title = `answers 409 to a stale PUT${covers('001 § Errors › 409 Conflict', '001 § Removed › 1.22')}`;
    expect(title).to.equal('answers 409 to a stale PUT [spec: 001 § Errors › 409 Conflict] [spec: 001 § Removed › 1.22]');
    expect(coveredRows(title)).to.deep.equal(['001 § Errors › 409 Conflict', '001 § Removed › 1.22']);
    expect(() => covers()).to.throw('at least one');
    expect(() => covers('a [spec: b')).to.throw('contains "[spec: "');
    expect(coveredRows(`x${covers('001 § A › rules[]', '001 § A › b')}`)).to.deep.equal(['001 § A › rules[]', '001 § A › b']);
  });

  it('judges rows pass, fail or none and reports tags that name no row', () => {
    const report = buildReport(rows, [
      { title: `suite stale PUT${covers('001 § Errors › 409 Conflict')}`, state: 'passed' },
      { title: `suite conflict again${covers('001 § Errors › 409 Conflict')}`, state: 'passed' },
      { title: `suite watch too old${covers('001 § Errors › 410 Gone')}`, state: 'failed' },
      { title: `suite later${covers('001 § Removed › 1.22')}`, state: 'pending' },
      { title: `suite typo${covers('001 § Errors › 499')}`, state: 'passed' },
    ]);
    expect(report.rows.map((r) => r.verdict)).to.deep.equal(['pass', 'fail', 'none', 'none', 'none', 'none', 'none']);
    expect(report.rows[0]!.tests).to.deep.equal(['suite stale PUT', 'suite conflict again']);
    expect(report.counts).to.deep.equal({ pass: 1, fail: 1, none: 5 });
    expect(report.unknownTags).to.deep.equal([{ tag: '001 § Errors › 499', test: 'suite typo' }]);
    const text = formatReport(report);
    expect(text).to.include('001 § Errors → 409 Conflict → suite stale PUT (+1 more) → pass');
    expect(text).to.include('001 § Removed → 1.22 → (no test) → none');
    expect(text).to.include('[spec: 001 § Errors › 499] in "suite typo"');
    expect(text.trimEnd().split('\n').at(-1)).to.equal('7 rows: 1 pass, 1 fail, 5 with no test');
  });
});
