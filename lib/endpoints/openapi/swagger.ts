/**
 * The Swagger 2.0 document of `/openapi/v2` (spec 000 § Other paths): every served resource path
 * and verb with its parameters and answers — the upstream aliases' paths too when they are served
 * (issue #9) — and the definitions of every kind, list kind and type they reach, as upstream
 * kube-apiserver serves it.
 */
import type { GroupVersionEntry } from '../installer.js';
import { DefinitionSet } from './definitions.js';
import { BEARER_TOKEN_SECURITY, type DocumentInfo, addKindDefinitions, declareGVKs, renderPaths, resourceFacts } from './model.js';
import type { ExtensionWriter, JSONObject } from './names.js';
import type { OperationSpec } from './operations.js';
import { v2Parameter } from './parameters.js';

function v2Operation(o: OperationSpec, defs: DefinitionSet): JSONObject {
  const parameters: JSONObject[] = [];
  if (o.body) {
    const body: JSONObject = { name: 'body', in: 'body', schema: { $ref: defs.ref(defs.addStruct(o.body.schema)) } };
    if (o.body.required) body.required = true;
    parameters.push(body);
  }
  parameters.push(...o.query.map(v2Parameter));
  const responses: JSONObject = {};
  for (const [code, description, schema] of o.responses) responses[code] = { description, schema: { $ref: defs.ref(defs.addStruct(schema)) } };
  responses['401'] = { description: 'Unauthorized' };
  const out: JSONObject = {
    description: o.description,
    consumes: [...o.consumes],
    produces: [...o.produces],
    schemes: ['https'],
    tags: [o.tag],
    operationId: o.operationId,
  };
  if (parameters.length > 0) out.parameters = parameters;
  out.responses = responses;
  defs.ext.action(out, o.action);
  defs.ext.gvk(out, o.gvk);
  return out;
}

/**
 * Builds the Swagger 2.0 document of the served group versions (`groupVersions()` of the
 * installer, aliases included), writing extensions with `ext`.
 */
export function buildSwagger(gvs: readonly GroupVersionEntry[], info: DocumentInfo, ext: ExtensionWriter): JSONObject {
  const defs = new DefinitionSet('v2', ext);
  declareGVKs(defs, gvs);
  const facts = gvs.flatMap((gv) => resourceFacts(gv));
  addKindDefinitions(defs, facts);
  const paths = renderPaths(facts, (o) => v2Operation(o, defs), v2Parameter);
  return {
    swagger: '2.0',
    info: { title: info.title, version: info.version },
    paths,
    definitions: defs.definitions(),
    securityDefinitions: { BearerToken: BEARER_TOKEN_SECURITY },
    security: [{ BearerToken: [] }],
  };
}
