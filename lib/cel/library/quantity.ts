/**
 * Quantity library (from 1.28). spec 000 § Expression language (CEL) in fields:
 * `isQuantity(string)`, `quantity(string)`; members `isInteger()`, `asInteger()`,
 * `asApproximateFloat()`, `sign()`, `add(Quantity | int)`, `sub(Quantity | int)`,
 * `isLessThan`, `isGreaterThan`, `compareTo` (0, 1 or -1). Values are lib/apimachinery Quantity.
 * Errors: the parser's message for `quantity`, `cannot convert value to integer` for `asInteger`.
 */

import { VENDOR } from '../../apis/vendor.js';
import { Quantity, QuantityParseError } from '../../apimachinery/quantity.js';
import { LibraryError, type FunctionDecl } from './common.js';

/** Name of the quantity type in expressions. */
export const QUANTITY_TYPE = `${VENDOR}.Quantity`;

function parse(s: string): Quantity {
  try {
    return Quantity.parse(s);
  } catch (err) {
    if (err instanceof QuantityParseError) throw new LibraryError(err.message);
    throw err;
  }
}

function asInteger(q: Quantity): bigint {
  const v = q.asInt64();
  if (v === undefined) throw new LibraryError('cannot convert value to integer');
  return v;
}

const Q = QUANTITY_TYPE;
const member = (name: string, params: string[], result: string, handler: FunctionDecl['handler']): FunctionDecl => ({
  name,
  receiver: Q,
  params,
  result,
  handler,
});

/** The quantity library's functions. */
export const QUANTITY_FUNCTIONS: readonly FunctionDecl[] = [
  { name: 'quantity', params: ['string'], result: Q, handler: parse },
  { name: 'isQuantity', params: ['string'], result: 'bool', handler: (s: string) => Quantity.isQuantity(s) },
  member('isInteger', [], 'bool', (q: Quantity) => q.asInt64() !== undefined),
  member('asInteger', [], 'int', asInteger),
  member('asApproximateFloat', [], 'double', (q: Quantity) => q.asApproximateFloat64()),
  member('sign', [], 'int', (q: Quantity) => BigInt(q.sign())),
  member('add', [Q], Q, (q: Quantity, o: Quantity) => q.add(o)),
  member('add', ['int'], Q, (q: Quantity, n: bigint) => q.add(Quantity.fromInt(n, 'DecimalExponent'))),
  member('sub', [Q], Q, (q: Quantity, o: Quantity) => q.sub(o)),
  member('sub', ['int'], Q, (q: Quantity, n: bigint) => q.sub(Quantity.fromInt(n, 'DecimalExponent'))),
  member('isLessThan', [Q], 'bool', (q: Quantity, o: Quantity) => q.cmp(o) < 0),
  member('isGreaterThan', [Q], 'bool', (q: Quantity, o: Quantity) => q.cmp(o) > 0),
  member('compareTo', [Q], 'int', (q: Quantity, o: Quantity) => BigInt(q.cmp(o))),
];
