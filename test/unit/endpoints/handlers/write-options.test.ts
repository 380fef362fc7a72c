import { expect } from 'chai';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { statusErrorOf } from '../../../framework/status-error.js';
import type { FieldError } from '../../../../lib/apimachinery/field-errors.js';
import { parseDryRun, parseWriteOptions } from '../../../../lib/endpoints/handlers/write-options.js';

const parse = (query: string) => parseWriteOptions(new URLSearchParams(query), 'CreateOptions');
/** The message of the 422 Invalid a query is rejected with, after checking its code, reason and kind. */
const rejection = (query: string, kind: 'CreateOptions' | 'PatchOptions' = 'CreateOptions', isApply = false) => {
  const err = statusErrorOf(() => parseWriteOptions(new URLSearchParams(query), kind, isApply));
  expect(err.status.code).to.equal(422);
  expect(err.status.reason).to.equal('Invalid');
  expect(err.status.details?.kind).to.equal(kind);
  expect(err.status.details?.group).to.equal('meta.orch.io');
  return err.status.message!.replace(`${kind}.meta.orch.io "" is invalid: `, '');
};


describe('handlers/write-options: dryRun (spec 000 § Modifying-request query parameters)', () => {
  const rows: Array<[string, string[], boolean]> = [
    ['absent: a real write', [], false],
    ['All', ['All'], true],
    ['valueless (?dryRun)', [''], true],
    ['All given twice', ['All', 'All'], true],
  ];
  for (const [what, values, dry] of rows) {
    it(`${what} → ${dry}`, () => {
      const errs: FieldError[] = [];
      expect(parseDryRun(values, errs)).to.equal(dry);
      expect(errs).to.deep.equal([]);
    });
  }

  it('any other value is a 422 of CreateOptions naming the supported value, the values shown as Go prints a []string', () => {
    expect(rejection('dryRun=true')).to.equal('dryRun: Unsupported value: []string{"true"}: supported values: "All"');
  });

  it('an unsupported value next to All is rejected with both values', () => {
    expect(rejection('dryRun=All&dryRun=x')).to.equal('dryRun: Unsupported value: []string{"All", "x"}: supported values: "All"');
  });

  it('read from the query, every dryRun value counts', () => {
    expect(parse('dryRun=All').dryRun).to.equal(true);
    expect(parse('dryRun').dryRun).to.equal(true);
    expect(parse('').dryRun).to.equal(false);
    expect(() => parse('dryRun=All&dryRun=x')).to.throw(StatusError);
  });
});

describe('handlers/write-options: fieldValidation (spec 000 § Field validation levels)', () => {
  const rows: Array<[string, string]> = [
    ['', 'Warn'],
    ['fieldValidation=', 'Warn'],
    ['fieldValidation=Ignore', 'Ignore'],
    ['fieldValidation=Warn', 'Warn'],
    ['fieldValidation=Strict', 'Strict'],
  ];
  for (const [query, level] of rows) {
    it(`${JSON.stringify(query)} → ${level}`, () => {
      expect(parse(query).fieldValidation).to.equal(level);
    });
  }

  it('an unknown level (values are case-sensitive) is rejected listing the supported values', () => {
    expect(rejection('fieldValidation=strict')).to.equal(
      'fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
    );
  });
});

describe('handlers/write-options: fieldManager', () => {
  it('absent is empty (inferred later from the User-Agent)', () => {
    expect(parse('').fieldManager).to.equal('');
  });

  it('is taken as given', () => {
    expect(parse('fieldManager=kubectl-client-side-apply').fieldManager).to.equal('kubectl-client-side-apply');
  });

  it('128 bytes are accepted', () => {
    expect(parse(`fieldManager=${'m'.repeat(128)}`).fieldManager).to.have.length(128);
  });

  it('more than 128 bytes are rejected', () => {
    expect(rejection(`fieldManager=${'m'.repeat(129)}`)).to.equal('fieldManager: Too long: may not be more than 128 bytes');
  });

  it('the length counts bytes, not characters', () => {
    expect(rejection(`fieldManager=${encodeURIComponent('é'.repeat(65))}`)).to.equal(
      'fieldManager: Too long: may not be more than 128 bytes',
    );
  });

  it('a non-printable character is rejected with its position', () => {
    expect(rejection(`fieldManager=${encodeURIComponent('ab\ncd')}`)).to.equal(
      'fieldManager: Invalid value: "ab\\ncd": invalid character U+000A (at position 2)',
    );
  });

  it('printable non-ASCII characters are accepted', () => {
    expect(parse(`fieldManager=${encodeURIComponent('gestionnaire-é')}`).fieldManager).to.equal('gestionnaire-é');
  });
});

describe('handlers/write-options: every problem in one Invalid, in upstream order (issue #9 item 2)', () => {
  it('fieldManager, dryRun and fieldValidation problems are listed together', () => {
    expect(rejection(`fieldManager=${'m'.repeat(129)}&dryRun=x&fieldValidation=y`)).to.equal(
      '[fieldManager: Too long: may not be more than 128 bytes, dryRun: Unsupported value: []string{"x"}: supported values: "All", fieldValidation: Unsupported value: "y": supported values: "", "Ignore", "Strict", "Warn"]',
    );
  });

  it('PatchOptions: apply needs a fieldManager; force (even false) only with apply', () => {
    expect(rejection('', 'PatchOptions', true)).to.equal('fieldManager: Required value: is required for apply patch');
    expect(rejection('force=false', 'PatchOptions', false)).to.equal('force: Forbidden: may not be specified for non-apply patch');
    expect(rejection('force=true&dryRun=no', 'PatchOptions', false)).to.equal(
      '[force: Forbidden: may not be specified for non-apply patch, dryRun: Unsupported value: []string{"no"}: supported values: "All"]',
    );
  });
});

describe('handlers/write-options: force (apply)', () => {
  const rows: Array<[string, boolean]> = [
    ['', false],
    ['force=true', true],
    ['force=1', true],
    ['force=True', true],
    ['force', true],
    ['force=false', false],
    ['force=0', false],
  ];
  for (const [query, force] of rows) {
    it(`${JSON.stringify(query)} → ${force}`, () => {
      expect(parseWriteOptions(new URLSearchParams(`fieldManager=m&${query}`), 'PatchOptions', true).force).to.equal(force);
    });
  }
});
