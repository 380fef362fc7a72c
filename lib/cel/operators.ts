/**
 * Operator semantics that differ from the engine's: equality and `+` honour `set` / `map` lists
 * (spec 000 § Expression language (CEL) in fields), equality and list membership compare
 * numbers across int, uint and double, and lists accept uint indexes.
 */

import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { celEquals, concatLists } from './equality.js';
import { PASS, type OperatorOverride } from './library/common.js';
import { STANDARD_OPERATORS } from './library/standard.js';
import { listSemanticsOf } from './values.js';

const isObject = (v: unknown): boolean => v !== null && typeof v === 'object';

/** All operator overrides, in the order they are tried. */
export const OPERATOR_OVERRIDES: readonly OperatorOverride[] = [
  { op: '==', apply: (l, r) => (isObject(l) || isObject(r) ? celEquals(l, r) : PASS) },
  { op: '!=', apply: (l, r) => (isObject(l) || isObject(r) ? !celEquals(l, r) : PASS) },
  { op: '+', apply: (l, r) => (listSemanticsOf(l) && Array.isArray(r) ? concatLists(l as unknown[], r) : PASS) },
  { op: 'in', apply: (l, r) => (Array.isArray(r) ? r.some((e) => celEquals(l, e)) : PASS) },
  { op: '[]', apply: (l, r, builtin) => (Array.isArray(l) && r instanceof UnsignedInt ? l[Number(r.valueOf())] ?? builtin() : PASS) },
  ...STANDARD_OPERATORS,
];
