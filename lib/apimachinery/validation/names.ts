/**
 * Name and label syntax checks with the upstream messages. Each returns a list of problems
 * (empty = valid), to be wrapped in `invalid(path, value, msg)` by the caller.
 * spec 000 § Naming rules; upstream apimachinery util/validation.
 */

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const QUALIFIED_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${QUALIFIED_NAME})?`;

const reLabel = new RegExp(`^${DNS1123_LABEL}$`);
const reSubdomain = new RegExp(`^${DNS1123_SUBDOMAIN}$`);
const re1035 = new RegExp(`^${DNS1035_LABEL}$`);
const reQualified = new RegExp(`^${QUALIFIED_NAME}$`);
const reLabelValue = new RegExp(`^${LABEL_VALUE}$`);

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;
export const LABEL_VALUE_MAX = 63;
export const QUALIFIED_NAME_MAX = 63;

/** Upstream `RegexError`: `<msg> (e.g. 'a',  or 'b', regex used for validation is '<re>')`. */
export function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}'`).join(',  or ')}, regex used for validation is '${re}')`;
}

const maxLenError = (n: number) => `must be no more than ${n} characters`;

/** RFC 1123 label (namespace names): lower case, ≤ 63. */
export function isDNS1123Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!reLabel.test(v))
    errs.push(
      regexError(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        DNS1123_LABEL,
        'my-name',
        '123-abc',
      ),
    );
  return errs;
}

/** RFC 1123 subdomain (most object names): lower case, dots allowed, ≤ 253. */
export function isDNS1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!reSubdomain.test(v))
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN,
        'example.com',
      ),
    );
  return errs;
}

/** RFC 1035 label (Service names): starts with a letter, ≤ 63. */
export function isDNS1035Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!re1035.test(v))
    errs.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL,
        'my-name',
        'abc-123',
      ),
    );
  return errs;
}

/** Path segment names (RBAC objects): not `.`/`..`, no `/` or `%`. */
export function isValidPathSegmentName(v: string): string[] {
  if (v === '.' || v === '..') return [`may not be '${v}'`];
  const errs: string[] = [];
  for (const c of ['/', '%']) if (v.includes(c)) errs.push(`may not contain '${c}'`);
  return errs;
}

/** Same as isValidPathSegmentName, for a generateName prefix (only the illegal characters). */
export function isValidPathSegmentPrefix(v: string): string[] {
  const errs: string[] = [];
  for (const c of ['/', '%']) if (v.includes(c)) errs.push(`may not contain '${c}'`);
  return errs;
}

/** Qualified name (label and annotation keys, finalizers): `[prefix/]name`. */
export function isQualifiedName(v: string): string[] {
  const errs: string[] = [];
  const parts = v.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      regexError(
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        QUALIFIED_NAME,
        'MyName',
        'my.name',
        '123-abc',
      ) + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > QUALIFIED_NAME_MAX) errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX)}`);
  if (!reQualified.test(name))
    errs.push(
      'name part ' +
        regexError(
          "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
          QUALIFIED_NAME,
          'MyName',
          'my.name',
          '123-abc',
        ),
    );
  return errs;
}

/** Label value: empty or a qualified-name-like token, ≤ 63. */
export function isValidLabelValue(v: string): string[] {
  const errs: string[] = [];
  if (v.length > LABEL_VALUE_MAX) errs.push(maxLenError(LABEL_VALUE_MAX));
  if (!reLabelValue.test(v))
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  return errs;
}

/** How a kind's object names are checked (upstream ValidateNameFunc). */
/**
 * A kind's own name check (upstream `ValidateNameFunc`): the messages for `name`, a generateName
 * prefix when `prefix` is true; [] when valid.
 */
export type NameFunc = (name: string, prefix: boolean) => string[];

export type NameRule = 'dns1123Subdomain' | 'dns1123Label' | 'dns1035Label' | 'pathSegment' | NameFunc;

/**
 * Checks a name (or, with `prefix`, a generateName prefix, whose trailing part may be incomplete)
 * under a rule. Upstream trims a trailing `-` from a prefix before checking.
 */
export function checkName(rule: NameRule, name: string, prefix = false): string[] {
  if (typeof rule === 'function') return rule(name, prefix);
  const v = prefix ? maskTrailingDash(name) : name;
  switch (rule) {
    case 'dns1123Subdomain':
      return isDNS1123Subdomain(v);
    case 'dns1123Label':
      return isDNS1123Label(v);
    case 'dns1035Label':
      return isDNS1035Label(v);
    case 'pathSegment':
      return prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);
  }
}

function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}
