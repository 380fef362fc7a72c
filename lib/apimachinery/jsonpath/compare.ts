/**
 * Filter comparisons (`==`, `!=`, `<`, `>`, `<=`, `>=`) with the semantics of upstream's
 * `evalOperator` over the forked text/template comparison functions: both sides must be of the
 * same basic kind (bool, int, float, string); int literals are compared as float64, so a data
 * integer (`int64`) never equals a literal `3`. Kind mismatches and non-basic values are
 * "ignored" as upstream ignores them: the comparison's zero result stands, which makes `!=`
 * true. Pure.
 */
import { JSONPathEvalError } from './nodes.js';
import { NumberLiteral } from './values.js';

type Kind = 'bool' | 'int' | 'float' | 'string';

/** The basic kind, or undefined for Go's `invalid type for comparison`. */
function basicKind(v: unknown): Kind | undefined {
  if (v instanceof NumberLiteral) return 'float';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(v) ? 'int' : 'float';
    default:
      return undefined;
  }
}

const raw = (v: unknown): unknown => (v instanceof NumberLiteral ? v.value : v);

/** Go's comparison result: a truth value, or an error (always one of the ignored ones here). */
type Outcome = { truth: boolean; err: boolean };

function equal(a: unknown, b: unknown): Outcome {
  const ka = basicKind(a);
  const kb = basicKind(b);
  if (ka === undefined || kb === undefined || ka !== kb) return { truth: false, err: true };
  return { truth: raw(a) === raw(b), err: false };
}

function less(a: unknown, b: unknown): Outcome {
  const ka = basicKind(a);
  const kb = basicKind(b);
  if (ka === undefined || kb === undefined || ka !== kb || ka === 'bool') return { truth: false, err: true };
  return { truth: (raw(a) as number | string) < (raw(b) as number | string), err: false };
}

function lessEqual(a: unknown, b: unknown): Outcome {
  const lt = less(a, b);
  return lt.truth || lt.err ? lt : equal(a, b);
}

/**
 * Whether `left <op> right` passes the filter. Throws JSONPathEvalError
 * (`unrecognized filter operator =`) for an operator other than the six.
 */
export function compareValues(operator: string, left: unknown, right: unknown): boolean {
  switch (operator) {
    case '==':
      return equal(left, right).truth;
    case '!=':
      return !equal(left, right).truth;
    case '<':
      return less(left, right).truth;
    case '<=':
      return lessEqual(left, right).truth;
    case '>': {
      const le = lessEqual(left, right);
      return !le.err && !le.truth;
    }
    case '>=': {
      const lt = less(left, right);
      return !lt.err && !lt.truth;
    }
    default:
      throw new JSONPathEvalError(`unrecognized filter operator ${operator}`);
  }
}
