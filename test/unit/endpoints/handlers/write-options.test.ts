import { expect } from 'chai';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { statusErrorOf } from '../../../framework/status-error.js';
import { parseDryRun, parseWriteOptions } from '../../../../lib/endpoints/handlers/write-options.js';

const parse = (query: string) => parseWriteOptions(new URLSearchParams(query));


describe('handlers/write-options: dryRun (spec 000 § Modifying-request query parameters)', () => {
  const rows: Array<[string, string[], boolean]> = [
    ['absent: a real write', [], false],
    ['All', ['All'], true],
    ['valueless (?dryRun)', [''], true],
    ['All given twice', ['All', 'All'], true],
  ];
  for (const [what, values, dry] of rows) {
    it(`${what} → ${dry}`, () => {
      expect(parseDryRun(values)).to.equal(dry);
    });
  }

  it('any other value is rejected naming the supported value', () => {
    const err = statusErrorOf(() => parseDryRun(['true']));
    expect(err.status.message).to.equal('dryRun: Unsupported value: "true": supported values: "All"');
  });

  it('an unsupported value next to All is rejected', () => {
    expect(statusErrorOf(() => parseDryRun(['All', 'x'])).status.message).to.include('dryRun: Unsupported value');
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
    expect(statusErrorOf(() => parse('fieldValidation=strict')).status.message).to.equal(
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
    expect(statusErrorOf(() => parse(`fieldManager=${'m'.repeat(129)}`)).status.message).to.equal('fieldManager: Too long: may not be more than 128 bytes');
  });

  it('the length counts bytes, not characters', () => {
    expect(statusErrorOf(() => parse(`fieldManager=${encodeURIComponent('é'.repeat(65))}`)).status.message).to.equal(
      'fieldManager: Too long: may not be more than 128 bytes',
    );
  });

  it('a non-printable character is rejected with its position', () => {
    expect(statusErrorOf(() => parse(`fieldManager=${encodeURIComponent('ab\ncd')}`)).status.message).to.equal(
      'fieldManager: Invalid value: "ab\\ncd": invalid character U+000A (at position 2)',
    );
  });

  it('printable non-ASCII characters are accepted', () => {
    expect(parse(`fieldManager=${encodeURIComponent('gestionnaire-é')}`).fieldManager).to.equal('gestionnaire-é');
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
      expect(parse(query).force).to.equal(force);
    });
  }
});
