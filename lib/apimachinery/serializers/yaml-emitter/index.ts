/**
 * YAML encoding. Upstream answers `application/yaml` by marshalling the object to JSON and
 * converting that with sigs.k8s.io/yaml's JSONToYAML: go-yaml v2 (v2.4.0) decodes the JSON into
 * generic maps and encodes them again. This folder writes the bytes that encoder writes, from the
 * same value our JSON encoder would write: keys sorted at every level in go-yaml's order, block
 * style with sequences at their key's indentation, two-space indentation, a string quoted (double
 * quotes) when plain it would read as another YAML 1.1 type, single quotes when plain it would not
 * parse, `|` literal blocks for strings with a newline, and long scalars folded at a space past
 * column 80. The comments name the go-yaml function each part follows (encode.go, resolve.go,
 * sorter.go, emitterc.go).
 *
 *   resolve.ts       what a plain scalar reads as in YAML 1.1 (resolve.go)
 *   scalar-style.ts  a string's analysis and style, Go number formatting, NEL folding
 *   key-order.ts     go-yaml's key order (sorter.go) and the simple-key cache
 *   chars.ts         code points, breaks and printable characters as the emitter sees them
 *   emitter.ts       the writer (emitterc.go)
 */
import { YAMLEmitter, jsonValue } from './emitter.js';

/** Serializes a value as YAML, byte for byte as upstream does (see above). */
export function encodeYAML(value: unknown): Buffer {
  const emitter = new YAMLEmitter();
  emitter.node(jsonValue(value, ''), false);
  return emitter.end();
}
