/**
 * The protobuf form of `/openapi/v2`: the Swagger 2.0 document as the gnostic `openapi.v2.Document`
 * message, as kube-openapi's `ToProtoBinary` produces it (gnostic's JSON parser, then
 * `proto.Marshal`): no magic prefix, maps as ordered name/value pairs, defaults, enums and `x-`
 * extensions as YAML text in `Any` (YAML 1.1 quoting, which the Go YAML readers of clients expect).
 */
import { stringify } from 'yaml';
import protobuf from 'protobufjs';
import { GnosticDocument, GnosticNamedPathItem, GnosticNamedSchema } from './gnostic-proto.js';
import type { JSONObject } from './names.js';

type Msg = Record<string, unknown>;

const obj = (v: unknown): JSONObject => v as JSONObject;

/** Copies the listed scalar keys (renamed per `rename`) when present. */
function scalars(o: JSONObject, keys: readonly string[], rename: Record<string, string> = {}): Msg {
  const m: Msg = {};
  for (const k of keys) if (o[k] !== undefined) m[rename[k] ?? k] = o[k];
  return m;
}

const SCHEMA_SCALARS = ['$ref', 'format', 'title', 'description', 'maximum', 'minimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'required', 'readOnly'];
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/** Converts one document; YAML texts are memoized (most extension values repeat). */
class GnosticWriter {
  private readonly yaml = new Map<string, Msg>();

  /** gnostic's `Any` of a JSON value: its YAML text. */
  private any(value: unknown): Msg {
    const key = JSON.stringify(value);
    let m = this.yaml.get(key);
    if (!m) {
      m = { yaml: stringify(value, { version: '1.1' }) };
      this.yaml.set(key, m);
    }
    return m;
  }

  /** Sets `vendorExtension` from the `x-` keys of `o`, when there are any. */
  private extensions(m: Msg, o: JSONObject): Msg {
    const ext: Msg[] = [];
    for (const k in o) if (k.startsWith('x-')) ext.push({ name: k, value: this.any(o[k]) });
    if (ext.length > 0) m.vendorExtension = ext;
    return m;
  }

  private schema(s: JSONObject): Msg {
    const m = scalars(s, SCHEMA_SCALARS, { $ref: 'ref' });
    if (s.default !== undefined) m.default = this.any(s.default);
    if (Array.isArray(s.enum)) m.enum = s.enum.map((v) => this.any(v));
    if (s.additionalProperties !== undefined) {
      m.additionalProperties = typeof s.additionalProperties === 'boolean' ? { boolean: s.additionalProperties } : { schema: this.schema(obj(s.additionalProperties)) };
    }
    if (s.type !== undefined) m.type = { value: Array.isArray(s.type) ? s.type : [s.type] };
    if (s.items !== undefined) m.items = { schema: (Array.isArray(s.items) ? s.items : [s.items]).map((i) => this.schema(obj(i))) };
    if (Array.isArray(s.allOf)) m.allOf = s.allOf.map((i) => this.schema(obj(i)));
    if (s.properties !== undefined) m.properties = { additionalProperties: this.namedSchemas(obj(s.properties)) };
    return this.extensions(m, s);
  }

  private namedSchemas(o: JSONObject): Msg[] {
    return Object.entries(o).map(([name, value]) => ({ name, value: this.schema(obj(value)) }));
  }

  private parameter(p: JSONObject): Msg {
    if (p.$ref !== undefined) return { jsonReference: { ref: p.$ref } };
    const common = this.extensions(scalars(p, ['required', 'in', 'description', 'name']), p);
    if (p.in === 'body') return { parameter: { bodyParameter: { ...common, schema: this.schema(obj(p.schema)) } } };
    const sub = { ...common, ...scalars(p, ['type', 'format', 'uniqueItems']) };
    return { parameter: { nonBodyParameter: p.in === 'path' ? { pathParameterSubSchema: sub } : { queryParameterSubSchema: sub } } };
  }

  private operation(o: JSONObject): Msg {
    const m = scalars(o, ['tags', 'summary', 'description', 'operationId', 'produces', 'consumes', 'schemes', 'deprecated']);
    if (Array.isArray(o.parameters)) m.parameters = o.parameters.map((p) => this.parameter(obj(p)));
    const responseCode = Object.entries(obj(o.responses ?? {})).map(([name, r]) => {
      const resp = obj(r);
      const value = scalars(resp, ['description']);
      if (resp.schema !== undefined) value.schema = { schema: this.schema(obj(resp.schema)) };
      return { name, value: { response: value } };
    });
    m.responses = { responseCode };
    return this.extensions(m, o);
  }

  private pathItem(p: JSONObject): Msg {
    const m: Msg = {};
    for (const method of METHODS) if (p[method] !== undefined) m[method] = this.operation(obj(p[method]));
    if (Array.isArray(p.parameters)) m.parameters = p.parameters.map((x) => this.parameter(obj(x)));
    return this.extensions(m, p);
  }

  /** The document, converted in batches of entries with `pause()` between them. */
  async document(doc: JSONObject, pause: () => Promise<void>): Promise<Msg> {
    const m = scalars(doc, ['swagger', 'host', 'basePath', 'schemes', 'consumes', 'produces']);
    m.info = scalars(obj(doc.info ?? {}), ['title', 'version', 'description']);
    m.paths = { path: await inBatches(Object.entries(obj(doc.paths ?? {})), ([name, p]) => ({ name, value: this.pathItem(obj(p)) }), pause) };
    m.definitions = { additionalProperties: await inBatches(Object.entries(obj(doc.definitions ?? {})), ([name, d]) => ({ name, value: this.schema(obj(d)) }), pause) };
    if (Array.isArray(doc.security)) {
      m.security = doc.security.map((req) => ({ additionalProperties: Object.entries(obj(req)).map(([name, scopes]) => ({ name, value: { value: scopes } })) }));
    }
    if (doc.securityDefinitions !== undefined) {
      m.securityDefinitions = {
        additionalProperties: Object.entries(obj(doc.securityDefinitions)).map(([name, d]) => ({ name, value: { apiKeySecurity: scalars(obj(d), ['type', 'name', 'in', 'description']) } })),
      };
    }
    return this.extensions(m, doc);
  }
}

const BATCH = 25;

/** Maps `items` with `pause()` after every BATCH of them (keeps each synchronous step short). */
async function inBatches<T, R>(items: readonly T[], f: (item: T) => R, pause: () => Promise<void>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += BATCH) {
    if (i > 0) await pause();
    for (const item of items.slice(i, i + BATCH)) out.push(f(item));
  }
  return out;
}

/**
 * The gnostic message object (plain, in the shape of gnostic-proto.ts) of a Swagger 2.0 document;
 * `pause` is awaited between batches of paths and definitions (e.g. to yield to the event loop).
 */
export function toGnostic(doc: JSONObject, pause: () => Promise<void> = async () => {}): Promise<Msg> {
  return new GnosticWriter().document(doc, pause);
}

/** The length-delimited field `id` holding `payload`: tag, length, bytes. */
function lengthDelimited(id: number, payload: Uint8Array): Buffer {
  return Buffer.from(protobuf.Writer.create().uint32((id << 3) | 2).bytes(payload).finish());
}

/** Encodes each entry as field `id` of its parent message, with `pause()` between batches. */
async function encodeRepeated(type: protobuf.Type, id: number, entries: readonly Msg[], pause: () => Promise<void>): Promise<Buffer> {
  const parts = await inBatches(entries, (e) => lengthDelimited(id, type.encode(e).finish()), pause);
  return Buffer.concat(parts);
}

/**
 * Encodes a gnostic message object (from toGnostic) as `openapi.v2.Document` bytes (no magic
 * prefix), path items and definitions one by one with `pause()` between batches. The bytes are
 * exactly those of encoding the whole message at once (fields in number order: 1–7, `paths` 8,
 * `definitions` 9, then 12, 13, 16), so every decoder reads one `paths` and one `definitions`.
 */
export async function encodeGnosticMessage(message: Msg, pause: () => Promise<void> = async () => {}): Promise<Buffer> {
  const { paths, definitions, security, securityDefinitions, vendorExtension, ...head } = message;
  const pathItems = ((paths as Msg | undefined)?.path ?? []) as Msg[];
  const namedSchemas = ((definitions as Msg | undefined)?.additionalProperties ?? []) as Msg[];
  return Buffer.concat([
    GnosticDocument.encode(head).finish(),
    lengthDelimited(8, await encodeRepeated(GnosticNamedPathItem, 2, pathItems, pause)),
    lengthDelimited(9, await encodeRepeated(GnosticNamedSchema, 1, namedSchemas, pause)),
    GnosticDocument.encode({ security, securityDefinitions, vendorExtension }).finish(),
  ]);
}
