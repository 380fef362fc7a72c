/**
 * A hand-rolled protobuf wire writer for the tests, independent of protobufjs: expected bytes are
 * spelled field by field with the numbers of the upstream `generated.proto` files, so a wrong
 * field number or type in the serializer fails the comparison.
 */

/** Base-128 varint of a non-negative integer (exact up to 2^53). */
export function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Buffer.from(out);
}

/** A varint field (wire type 0): int32, int64, bool, enum. */
export function vfield(num: number, value: number | boolean): Buffer {
  return Buffer.concat([varint(num * 8), varint(Number(value))]);
}

/** A length-delimited field (wire type 2) holding `parts` concatenated. */
export function lfield(num: number, ...parts: (Buffer | string)[]): Buffer {
  const body = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
  return Buffer.concat([varint(num * 8 + 2), varint(body.length), body]);
}

/** A `map<string, V>` entry field: key = 1, value = 2 (a string, or an already encoded value body). */
export function entry(num: number, key: string, value: string | Buffer): Buffer {
  return lfield(num, lfield(1, key), lfield(2, value));
}

/** Concatenates fields. */
export function bytes(...parts: Buffer[]): Buffer {
  return Buffer.concat(parts);
}
