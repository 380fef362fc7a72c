/**
 * A schema node prepared once for value validation: the type list (with
 * `x-<vendor>-int-or-string` as `integer,string`), the format left after upstream's stripping
 * of unsupported formats, the compiled pattern, and the sub-nodes, compiled on first use and
 * cached per schema object (upstream converts the CRD schema to a kube-openapi spec.Schema
 * once per CRD version: apiextensions apiserver/validation NewSchemaValidator).
 */
import type { RE2JS } from 're2js';
import { compileRE2 } from '../../apimachinery/re2.js';
import { EXT, type JSONSchemaProps } from '../types.js';
import { effectiveFormat, type FormatCheck } from './formats.js';

/** One compiled schema node. */
export interface CompiledNode {
  readonly schema: JSONSchemaProps;
  /** Declared types; empty when the node has none. */
  readonly types: readonly string[];
  /** `types` joined by `,` as kube-openapi prints them. */
  readonly typeText: string;
  readonly nullable: boolean;
  /** The format after stripping ('' when none). */
  readonly format: string;
  /** The format's check, when the strfmt registry knows it. */
  readonly formatCheck?: FormatCheck;
  /** The compiled pattern (RE2: linear in the value, as upstream's Go regexp). */
  readonly pattern?: RE2JS;
  readonly patternText: string;
  readonly listType?: string;
  readonly listMapKeys: readonly string[];
  readonly embedded: boolean;
  readonly properties: ReadonlyMap<string, JSONSchemaProps>;
  readonly items?: JSONSchemaProps;
  /** additionalProperties as a schema. */
  readonly additional?: JSONSchemaProps;
  /** `additionalProperties: false`. */
  readonly noAdditional: boolean;
}

const cache = new WeakMap<JSONSchemaProps, CompiledNode>();

/** `p` compiled (RE2), or undefined when absent or invalid (structural validation refuses invalid ones). */
function patternOf(p: string | undefined): RE2JS | undefined {
  if (!p) return undefined;
  const compiled = compileRE2(p);
  return typeof compiled === 'string' ? undefined : compiled;
}

/** The compiled form of a schema node (cached by object identity). */
export function compiled(schema: JSONSchemaProps): CompiledNode {
  const hit = cache.get(schema);
  if (hit !== undefined) return hit;
  const intOrString = schema[EXT.intOrString] === true;
  const types = intOrString ? ['integer', 'string'] : schema.type ? [schema.type] : [];
  const fmt = effectiveFormat(types.length === 1 ? types[0] : undefined, schema.format);
  const pattern = patternOf(schema.pattern);
  const listType = schema[EXT.listType];
  const keys = schema[EXT.listMapKeys];
  const node: CompiledNode = {
    schema,
    types,
    typeText: types.join(','),
    nullable: schema.nullable === true,
    format: fmt?.name ?? '',
    ...(fmt?.check ? { formatCheck: fmt.check } : {}),
    ...(pattern ? { pattern } : {}),
    patternText: schema.pattern ?? '',
    ...(typeof listType === 'string' ? { listType } : {}),
    listMapKeys: Array.isArray(keys) ? (keys as string[]) : [],
    embedded: schema[EXT.embeddedResource] === true,
    properties: new Map(Object.entries(schema.properties ?? {})),
    ...(schema.items !== undefined && !Array.isArray(schema.items) ? { items: schema.items } : {}),
    ...(typeof schema.additionalProperties === 'object' ? { additional: schema.additionalProperties } : {}),
    noAdditional: schema.additionalProperties === false,
  };
  cache.set(schema, node);
  return node;
}
