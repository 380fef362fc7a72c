/**
 * Object keys from request bodies are arbitrary strings, and `__proto__` is a valid one (a
 * ConfigMap data key, a label value map key). With the `Object.prototype.__proto__` accessor in
 * place, `obj[key] = value` for that key would change `obj`'s prototype instead of setting a key,
 * and a patch that merges into `obj["__proto__"]` would reach `Object.prototype` itself (prototype
 * pollution). Removing the accessor — what `node --disable-proto=delete` does — makes the key an
 * ordinary own property everywhere: in decoding, patching, copying and apply alike.
 */

/**
 * Removes `Object.prototype.__proto__` from this process (idempotent). `Object.getPrototypeOf`
 * and `{ __proto__: … }` literals are unaffected. Called before the server accepts requests.
 */
export function removeProtoAccessor(): void {
  delete (Object.prototype as { __proto__?: unknown }).__proto__;
}
