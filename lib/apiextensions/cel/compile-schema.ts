/**
 * Compiling every validation rule of a CRD schema once (upstream apiextensions-apiserver
 * pkg/apiserver/schema/cel `NewValidator`): a tree that follows the schema's structural spine
 * (properties, items, additionalProperties) and keeps only the branches that hold rules. Rules
 * compile as stored expressions (every feature of the current version), as upstream does when
 * it validates custom resources. spec 000 § Expression language (CEL) in fields.
 */
import { EXT, type JSONSchemaProps } from '../types.js';
import { compileNodeRules, validationRules, type CompiledRule } from './compile.js';
import { mapListKeys } from './correlation.js';

/** The compiled rules of one schema node and the nodes below it that hold rules. */
export interface RuleNode {
  readonly schema: JSONSchemaProps;
  /** The schema's `type` as upstream shows it in errors (`object` at a resource root, '' if unset). */
  readonly type: string;
  readonly rules: readonly CompiledRule[];
  /** Why `self` has no type here (every evaluation then reports it). */
  readonly typeError?: string;
  /** Key fields when the node is a `map` list (old items correlate by them). */
  readonly mapKeys?: readonly string[];
  readonly properties?: ReadonlyMap<string, RuleNode>;
  readonly items?: RuleNode;
  readonly additionalProperties?: RuleNode;
}

/** Every rule of a schema, compiled; keep one per CRD version and generation. */
export interface CompiledSchemaRules {
  /** The schema compiled. */
  readonly schema: JSONSchemaProps;
  /** The root of the rule tree; undefined when the schema holds no rules. */
  readonly root: RuleNode | undefined;
  /** Every compiled rule, in schema order (for reporting). */
  readonly rules: readonly CompiledRule[];
}

const isSchema = (v: unknown): v is JSONSchemaProps => v !== null && typeof v === 'object' && !Array.isArray(v);

function buildNode(schema: JSONSchemaProps, resourceRoot: boolean, all: CompiledRule[]): RuleNode | undefined {
  const own = validationRules(schema).length > 0 ? compileNodeRules(schema, resourceRoot) : undefined;
  if (own) all.push(...own.rules);
  let properties: Map<string, RuleNode> | undefined;
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (!isSchema(prop)) continue;
    const child = buildNode(prop, prop[EXT.embeddedResource] === true, all);
    if (child) (properties ??= new Map()).set(name, child);
  }
  const items = isSchema(schema.items) ? buildNode(schema.items, schema.items[EXT.embeddedResource] === true, all) : undefined;
  const extra = schema.additionalProperties;
  const additionalProperties = isSchema(extra) ? buildNode(extra, extra[EXT.embeddedResource] === true, all) : undefined;
  if (!own && !properties && !items && !additionalProperties) return undefined;
  const keys = mapListKeys(schema);
  return {
    schema,
    type: resourceRoot ? 'object' : typeof schema.type === 'string' ? schema.type : '',
    rules: own?.rules ?? [],
    ...(own?.typeError ? { typeError: own.typeError } : {}),
    ...(keys ? { mapKeys: keys } : {}),
    ...(properties ? { properties } : {}),
    ...(items ? { items } : {}),
    ...(additionalProperties ? { additionalProperties } : {}),
  };
}

const cache = new WeakMap<JSONSchemaProps, CompiledSchemaRules>();

/**
 * Compiles every `x-<vendor>-validations` rule (and message expression) of `schema`, the
 * `openAPIV3Schema` of one CRD version, walking it once; the root is typed as a resource root
 * and every embedded resource likewise. Memoized per schema object (treat the schema as
 * immutable afterwards). Never throws: rules that do not compile carry their error.
 */
export function compileSchemaRules(schema: JSONSchemaProps): CompiledSchemaRules {
  let compiled = cache.get(schema);
  if (!compiled) {
    const rules: CompiledRule[] = [];
    compiled = { schema, root: buildNode(schema, true, rules), rules };
    cache.set(schema, compiled);
  }
  return compiled;
}
