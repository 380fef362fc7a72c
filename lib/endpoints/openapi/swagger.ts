/**
 * The Swagger 2.0 document of `/openapi/v2` (spec 000 § Other paths): every served resource path
 * and verb with its parameters and answers, and the definitions of every kind, list kind and
 * type they reach, as upstream kube-apiserver serves it.
 */
import type { GroupVersionEntry } from '../installer.js';
import { DefinitionSet } from './definitions.js';
import { addKindDefinitions, addMetaGVKs, resourceFacts } from './model.js';
import { type JSONObject, setActionExtension, setGVKExtension } from './names.js';
import { type OperationSpec, type PathSpec, resourcePaths } from './operations.js';
import { v2Parameter } from './parameters.js';

/** `info` of the documents. */
export interface DocumentInfo {
  title: string;
  version: string;
}

/** Bearer-token security, as upstream declares it in both documents. */
export const BEARER_TOKEN_SECURITY: JSONObject = { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' };

/** Sorted copy of an object's entries (upstream serializes maps in key order). */
export function sortedObject<T>(entries: Iterable<[string, T]>): Record<string, T> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

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
  setActionExtension(out, o.action);
  setGVKExtension(out, o.gvk);
  return out;
}

/** Renders one path item. */
function v2PathItem(p: PathSpec, defs: DefinitionSet): JSONObject {
  const item: JSONObject = {};
  for (const o of p.operations) item[o.method] = v2Operation(o, defs);
  item.parameters = p.parameters.map(v2Parameter);
  return item;
}

/** Builds the Swagger 2.0 document of the served group versions. */
export function buildSwagger(gvs: readonly GroupVersionEntry[], info: DocumentInfo): JSONObject {
  const defs = new DefinitionSet('v2');
  addMetaGVKs(defs, gvs);
  const paths: [string, JSONObject][] = [];
  for (const gv of gvs) {
    const facts = resourceFacts(gv);
    addKindDefinitions(defs, facts);
    for (const r of facts) for (const p of resourcePaths(r)) paths.push([p.path, v2PathItem(p, defs)]);
  }
  return {
    swagger: '2.0',
    info: { title: info.title, version: info.version },
    paths: sortedObject(paths),
    definitions: defs.definitions(),
    securityDefinitions: { BearerToken: BEARER_TOKEN_SECURITY },
    security: [{ BearerToken: [] }],
  };
}
