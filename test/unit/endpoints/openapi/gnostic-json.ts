/**
 * Test helper: the inverse of lib/endpoints/openapi/gnostic.ts — decodes gnostic
 * `openapi.v2.Document` bytes back into the Swagger 2.0 JSON document, to check that the protobuf
 * form carries exactly the JSON form.
 */
import { parse } from 'yaml';
import { GnosticDocument } from '../../../../lib/endpoints/openapi/gnostic-proto.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type M = any;
type J = Record<string, unknown>;

const yaml = (a: M): unknown => parse(a.yaml, { version: '1.1' });

function withExtensions(out: J, m: M): J {
  for (const e of m.vendorExtension ?? []) out[e.name] = yaml(e.value);
  return out;
}

function copy(m: M, keys: string[], rename: Record<string, string> = {}): J {
  const out: J = {};
  for (const k of keys) if (m[k] !== undefined) out[rename[k] ?? k] = m[k];
  return out;
}

function schema(m: M): J {
  const out = copy(m, ['ref', 'format', 'title', 'description', 'maximum', 'minimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'required', 'readOnly'], { ref: '$ref' });
  if (m.default) out.default = yaml(m.default);
  if (m.enum) out.enum = m.enum.map(yaml);
  if (m.additionalProperties) out.additionalProperties = m.additionalProperties.schema ? schema(m.additionalProperties.schema) : m.additionalProperties.boolean;
  if (m.type) out.type = m.type.value.length === 1 ? m.type.value[0] : m.type.value;
  if (m.items) out.items = m.items.schema.length === 1 ? schema(m.items.schema[0]) : m.items.schema.map(schema);
  if (m.allOf) out.allOf = m.allOf.map(schema);
  if (m.properties) out.properties = Object.fromEntries(m.properties.additionalProperties.map((p: M) => [p.name, schema(p.value)]));
  return withExtensions(out, m);
}

function parameter(m: M): J {
  if (m.jsonReference) return { $ref: m.jsonReference.ref };
  const p = m.parameter;
  if (p.bodyParameter) return withExtensions({ ...copy(p.bodyParameter, ['required', 'in', 'description', 'name']), schema: schema(p.bodyParameter.schema) }, p.bodyParameter);
  const sub = p.nonBodyParameter.queryParameterSubSchema ?? p.nonBodyParameter.pathParameterSubSchema;
  return withExtensions(copy(sub, ['required', 'in', 'description', 'name', 'type', 'format', 'uniqueItems']), sub);
}

function operation(m: M): J {
  const out = copy(m, ['tags', 'summary', 'description', 'operationId', 'produces', 'consumes', 'schemes', 'deprecated']);
  if (m.parameters) out.parameters = m.parameters.map(parameter);
  out.responses = Object.fromEntries(
    (m.responses?.responseCode ?? []).map((r: M) => {
      const resp = copy(r.value.response, ['description']);
      if (r.value.response.schema) resp.schema = schema(r.value.response.schema.schema);
      return [r.name, resp];
    }),
  );
  return withExtensions(out, m);
}

function pathItem(m: M): J {
  const out: J = {};
  for (const method of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch']) if (m[method]) out[method] = operation(m[method]);
  if (m.parameters) out.parameters = m.parameters.map(parameter);
  return withExtensions(out, m);
}

/** Decodes gnostic bytes into the Swagger 2.0 JSON document they encode. */
export function gnosticToJSON(bytes: Uint8Array): J {
  const m: M = GnosticDocument.toObject(GnosticDocument.decode(bytes), { longs: Number });
  const out = copy(m, ['swagger', 'host', 'basePath', 'schemes', 'consumes', 'produces']);
  out.info = copy(m.info ?? {}, ['title', 'version', 'description']);
  out.paths = Object.fromEntries((m.paths?.path ?? []).map((p: M) => [p.name, pathItem(p.value)]));
  out.definitions = Object.fromEntries((m.definitions?.additionalProperties ?? []).map((d: M) => [d.name, schema(d.value)]));
  if (m.security) out.security = m.security.map((r: M) => Object.fromEntries(r.additionalProperties.map((a: M) => [a.name, a.value.value ?? []])));
  if (m.securityDefinitions) {
    out.securityDefinitions = Object.fromEntries(m.securityDefinitions.additionalProperties.map((d: M) => [d.name, copy(d.value.apiKeySecurity, ['type', 'name', 'in', 'description'])]));
  }
  return withExtensions(out, m);
}
