import { expect } from 'chai';
import {
  checkName,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  isValidPathSegmentPrefix,
} from '../../../../lib/apimachinery/validation/names.js';

const LABEL_RE = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_RE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_RE =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_RE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const QUALIFIED_RE =
  "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
const LABEL_VALUE_RE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function table(title: string, fn: (v: string) => string[], rows: Array<[string, string[]]>): void {
  describe(title, () => {
    for (const [value, errs] of rows) {
      it(`${JSON.stringify(value.length > 40 ? `${value.slice(0, 20)}…(${value.length})` : value)} → ${errs.length === 0 ? 'valid' : errs.length + ' error(s)'}`, () => {
        expect(fn(value)).to.deep.equal(errs);
      });
    }
  });
}

describe('validation/names (spec 000 § Naming rules; upstream util/validation messages)', () => {
  table('isDNS1123Label', isDNS1123Label, [
    ['a', []],
    ['my-name', []],
    ['123-abc', []],
    ['a'.repeat(63), []],
    ['a'.repeat(64), ['must be no more than 63 characters']],
    ['A', [LABEL_RE]],
    ['-a', [LABEL_RE]],
    ['a-', [LABEL_RE]],
    ['a.b', [LABEL_RE]],
    ['', [LABEL_RE]],
    ['A'.repeat(64), ['must be no more than 63 characters', LABEL_RE]],
  ]);

  table('isDNS1123Subdomain', isDNS1123Subdomain, [
    ['example.com', []],
    ['a-b.c-d', []],
    ['a'.repeat(253), []],
    ['a'.repeat(254), ['must be no more than 253 characters']],
    ['Example.com', [SUBDOMAIN_RE]],
    ['a..b', [SUBDOMAIN_RE]],
    ['.a', [SUBDOMAIN_RE]],
    ['a_b', [SUBDOMAIN_RE]],
  ]);

  table('isDNS1035Label', isDNS1035Label, [
    ['my-name', []],
    ['abc-123', []],
    ['1abc', [DNS1035_RE]],
    ['a'.repeat(64), ['must be no more than 63 characters']],
  ]);

  table('isQualifiedName', isQualifiedName, [
    ['MyName', []],
    ['my.name', []],
    ['123-abc', []],
    ['example.com/MyName', []],
    ['a_b', []],
    ['-a', [NAME_PART_RE]],
    ['a_', [NAME_PART_RE]],
    ['k'.repeat(63), []],
    ['k'.repeat(64), ['name part must be no more than 63 characters']],
    ['', ['name part must be non-empty', NAME_PART_RE]],
    ['example.com/', ['name part must be non-empty', NAME_PART_RE]],
    ['/a', ['prefix part must be non-empty']],
    ['Example.com/a', [`prefix part ${SUBDOMAIN_RE}`]],
    ['a/b/c', [QUALIFIED_RE]],
  ]);

  table('isValidLabelValue', isValidLabelValue, [
    ['', []],
    ['MyValue', []],
    ['my_value', []],
    ['12345', []],
    ['v'.repeat(63), []],
    ['v'.repeat(64), ['must be no more than 63 characters']],
    ['-a', [LABEL_VALUE_RE]],
    ['a/b', [LABEL_VALUE_RE]],
  ]);

  table('isValidPathSegmentName', isValidPathSegmentName, [
    ['system:admin', []],
    ['.', ["may not be '.'"]],
    ['..', ["may not be '..'"]],
    ['a/b', ["may not contain '/'"]],
    ['a%b', ["may not contain '%'"]],
    ['a/%b', ["may not contain '/'", "may not contain '%'"]],
  ]);

  table('isValidPathSegmentPrefix', isValidPathSegmentPrefix, [
    ['.', []],
    ['a/', ["may not contain '/'"]],
  ]);
});

describe('validation/names: checkName (upstream ValidateNameFunc)', () => {
  it('a generateName prefix may end with a dash', () => {
    expect(checkName('dns1123Subdomain', 'web-', true)).to.deep.equal([]);
    expect(checkName('dns1123Label', 'web-', true)).to.deep.equal([]);
    expect(checkName('dns1035Label', 'web-', true)).to.deep.equal([]);
  });

  it('a name may not end with a dash', () => {
    expect(checkName('dns1123Subdomain', 'web-')).to.deep.equal([SUBDOMAIN_RE]);
  });

  it('a prefix is otherwise checked like a name', () => {
    expect(checkName('dns1123Label', 'Web-', true)).to.deep.equal([LABEL_RE]);
  });

  it('path-segment names: a prefix only may not contain / or %', () => {
    expect(checkName('pathSegment', '..')).to.deep.equal(["may not be '..'"]);
    expect(checkName('pathSegment', '..', true)).to.deep.equal([]);
    expect(checkName('pathSegment', 'a%', true)).to.deep.equal(["may not contain '%'"]);
  });
});
