/**
 * The OpenAPI 3.0 documents of `/openapi/v3/<api/v1 | apis/<group>/<version>>`: one per served
 * group version (an upstream alias's included, issue #9), with its resource paths and the
 * component schemas they reach, self-contained (as upstream's per-group-version documents).
 */
import type { GroupVersionEntry } from '../installer.js';
import { DefinitionSet } from './definitions.js';
import { BEARER_TOKEN_SECURITY, type DocumentInfo, addKindDefinitions, declareGVKs, renderPaths, resourceFacts } from './model.js';
import type { ExtensionWriter, JSONObject } from './names.js';
import type { OperationSpec } from './operations.js';
import { v3Parameter } from './parameters.js';

function content(mediaTypes: readonly string[], ref: string): JSONObject {
  return Object.fromEntries(mediaTypes.map((m) => [m, { schema: { $ref: ref } }]));
}

function v3Operation(o: OperationSpec, defs: DefinitionSet): JSONObject {
  const out: JSONObject = { tags: [o.tag], description: o.description, operationId: o.operationId };
  if (o.query.length > 0) out.parameters = o.query.map(v3Parameter);
  if (o.body) {
    const body: JSONObject = { content: content(o.consumes, defs.ref(defs.addStruct(o.body.schema))) };
    if (o.body.required) body.required = true;
    out.requestBody = body;
  }
  const responses: JSONObject = {};
  for (const [code, description, schema] of o.responses) responses[code] = { description, content: content(o.produces, defs.ref(defs.addStruct(schema))) };
  out.responses = responses;
  defs.ext.action(out, o.action);
  defs.ext.gvk(out, o.gvk);
  return out;
}

/**
 * Builds the OpenAPI 3.0 document of one group version, writing extensions with `ext`; `all`
 * names every served one, for the group-version-kinds of the definitions (model.ts `declareGVKs`).
 */
export function buildGroupVersionDocument(gv: GroupVersionEntry, all: readonly GroupVersionEntry[], info: DocumentInfo, ext: ExtensionWriter): JSONObject {
  const defs = new DefinitionSet('v3', ext);
  declareGVKs(defs, all);
  const facts = resourceFacts(gv);
  addKindDefinitions(defs, facts);
  const paths = renderPaths(facts, (o) => v3Operation(o, defs), v3Parameter);
  return {
    openapi: '3.0.0',
    info: { title: info.title, version: info.version },
    paths,
    components: { schemas: defs.definitions(), securitySchemes: { BearerToken: BEARER_TOKEN_SECURITY } },
    security: [{ BearerToken: [] }],
  };
}
