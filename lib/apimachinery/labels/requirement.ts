/**
 * One label selector requirement (`key in (a,b)`, `!key`, `key>3`…): its validation with the
 * upstream messages, its match against a label map and its canonical text.
 * spec 000 § Collections; issue #4 item 6.
 */
import { aggregateMessage } from '../errors.js';
import { fieldErrorString, goStringSlice, invalid } from '../field-errors.js';
import { isQualifiedName, isValidLabelValue } from '../validation/names.js';
import { SelectorParseError } from './errors.js';

/**
 * A requirement's operator, spelled as upstream's `selection.Operator`: `!` is "does not exist",
 * `gt`/`lt` compare the label value as a 64-bit integer.
 */
export type Operator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

/** A label map as matched by selectors; absent (`undefined`/`null`) means no labels. */
export type Labels = Readonly<Record<string, string>> | null | undefined;

/** Above this many values, membership is tested with a Set instead of a scan. */
const SET_THRESHOLD = 8;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Parses a base-10 integer with an optional sign in the int64 range (upstream `strconv.ParseInt`). */
export function parseInt64(s: string): bigint | undefined {
  const n = s.length;
  let i = s[0] === '+' || s[0] === '-' ? 1 : 0;
  if (i === n) return undefined;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  const v = BigInt(s);
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

function validate(key: string, operator: Operator, values: readonly string[]): string[] {
  const errs: string[] = [];
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length > 0) errs.push(fieldErrorString(invalid('key', key, keyErrs.join('; '))));
  const countError = (detail: string) => errs.push(`values: Invalid value: ${goStringSlice(values).text}: ${detail}`);
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) countError("for 'in', 'notin' operators, values set can't be empty");
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) countError('exact-match compatibility requires one single value');
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) countError('values set must be empty for exists and does not exist');
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) countError("for 'Gt', 'Lt' operators, exactly one value is required");
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined)
          errs.push(fieldErrorString(invalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer")));
      });
      break;
  }
  values.forEach((v, i) => {
    const valueErrs = isValidLabelValue(v);
    if (valueErrs.length > 0) errs.push(fieldErrorString(invalid(`values[${i}][${key}]`, v, valueErrs.join('; '))));
  });
  return errs;
}

/** An immutable, validated requirement. Upstream `labels.Requirement`. */
export class Requirement {
  readonly values: readonly string[];
  private readonly valueSet: ReadonlySet<string> | undefined;
  private readonly bound: bigint;

  /**
   * Validates as upstream `NewRequirement`: the key is a qualified name; `in`/`notin` need at
   * least one value, `=`/`==`/`!=` exactly one, `exists`/`!` none, `gt`/`lt` one integer; every
   * value is a valid label value. Throws SelectorParseError with the upstream (aggregated) message,
   * e.g. `values[0][app]: Invalid value: "-x": a valid label must be …`.
   */
  constructor(
    readonly key: string,
    readonly operator: Operator,
    values: readonly string[],
  ) {
    const errs = validate(key, operator, values);
    if (errs.length > 0) throw new SelectorParseError(aggregateMessage(errs));
    this.values = Object.freeze([...values]);
    this.valueSet = values.length > SET_THRESHOLD ? new Set(values) : undefined;
    this.bound = operator === 'gt' || operator === 'lt' ? parseInt64(values[0]!)! : 0n;
  }

  /**
   * Whether `labels` satisfy this requirement: `in`/`=`/`==` need the key with one of the values;
   * `notin`/`!=` pass when the key is absent or has another value; `exists`/`!` test presence;
   * `gt`/`lt` need the key with an integer value strictly above/below the bound.
   */
  matches(labels: Labels): boolean {
    const v = labels == null ? undefined : labels[this.key];
    const has = typeof v === 'string';
    switch (this.operator) {
      case 'in':
      case '=':
      case '==':
        return has && this.hasValue(v);
      case 'notin':
      case '!=':
        return !has || !this.hasValue(v);
      case 'exists':
        return has;
      case '!':
        return !has;
      case 'gt':
      case 'lt': {
        if (!has) return false;
        const n = parseInt64(v);
        if (n === undefined) return false;
        return this.operator === 'gt' ? n > this.bound : n < this.bound;
      }
    }
  }

  private hasValue(v: string): boolean {
    if (this.valueSet !== undefined) return this.valueSet.has(v);
    const values = this.values;
    for (let i = 0; i < values.length; i++) if (values[i] === v) return true;
    return false;
  }

  /** Canonical text: `!k`, `k`, `k=v`, `k==v`, `k!=v`, `k>1`, `k<1`, `k in (a,b)` (values sorted). */
  toString(): string {
    switch (this.operator) {
      case 'exists':
        return this.key;
      case '!':
        return `!${this.key}`;
      case 'in':
      case 'notin':
        return `${this.key} ${this.operator} (${[...this.values].sort().join(',')})`;
      case 'gt':
        return `${this.key}>${this.values[0]}`;
      case 'lt':
        return `${this.key}<${this.values[0]}`;
      default:
        return `${this.key}${this.operator}${this.values[0]}`;
    }
  }
}
