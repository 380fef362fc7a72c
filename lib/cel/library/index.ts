/**
 * The function libraries of the expression environment (spec 000 § Expression language (CEL) in
 * fields): extended strings, lists, regex, URLs, and — from the versions that introduced them —
 * the authorizer and quantity libraries.
 */

import type { Environment } from '@marcbachmann/cel-js';
import { Quantity } from '../../apimachinery/quantity.js';
import { celEquals } from '../equality.js';
import type { FeatureSet } from '../versions.js';
import { AUTHORIZER_CLASSES, AUTHORIZER_FIELDS, AUTHORIZER_FUNCTIONS, AUTHORIZER_TYPES } from './authorizer.js';
import { registerFunctions, type FunctionOverride } from './common.js';
import { LIST_FUNCTIONS } from './lists.js';
import { QUANTITY_FUNCTIONS, QUANTITY_TYPE } from './quantity.js';
import { REGEX_FUNCTIONS, REGEX_OVERRIDES } from './regex.js';
import { BYTES_ORDERING, STANDARD_FUNCTIONS, STANDARD_OVERRIDES } from './standard.js';
import { FORMAT_FUNCTIONS } from './format.js';
import { QUOTE_FUNCTIONS, STRING_FUNCTIONS, STRING_OVERRIDES, STRINGS_NAMESPACE_TYPE, StringsNamespace } from './strings.js';
import { CelURL, URL_FUNCTIONS, URL_TYPE } from './url.js';
import { CIDR_TYPE, CelCIDR, CelIP, IP_NAMESPACE_TYPE, IP_TYPE, IPNamespace, NET_FUNCTIONS } from './net.js';

/** Built-in functions of the engine replaced by upstream semantics (applied at compile time). */
export const FUNCTION_OVERRIDES: readonly FunctionOverride[] = [...STANDARD_OVERRIDES, ...STRING_OVERRIDES, ...REGEX_OVERRIDES];

/** Registers a library type (without fields unless given); `ctor` is the class of its runtime values. */
function registerOpaqueType(env: Environment, name: string, ctor: { prototype: object }, fields: Readonly<Record<string, string>> = {}): void {
  env.registerType(name, { ctor: ctor as unknown as (...args: unknown[]) => unknown, fields: { ...fields } });
  env.registerOperator(`${name} == ${name}`, celEquals);
}

/** The library types an environment with `features` declares, by name. */
export function libraryTypeNames(features: FeatureSet): Set<string> {
  const names = new Set([URL_TYPE]);
  if (features.quantityLibrary) names.add(QUANTITY_TYPE);
  if (features.networkLibraries) for (const t of [IP_TYPE, CIDR_TYPE]) names.add(t);
  if (features.authorizerLibrary) for (const t of Object.values(AUTHORIZER_TYPES)) names.add(t);
  return names;
}

/** Registers the libraries available with `features` on an engine environment. */
export function registerLibraries(env: Environment, features: FeatureSet): void {
  for (const [op, compare] of BYTES_ORDERING) env.registerOperator(`bytes ${op} bytes`, compare);
  env.registerOperator('optional<A> == optional<A>', celEquals);
  registerOpaqueType(env, URL_TYPE, CelURL);
  registerFunctions(env, [...STANDARD_FUNCTIONS, ...STRING_FUNCTIONS, ...REGEX_FUNCTIONS, ...LIST_FUNCTIONS, ...URL_FUNCTIONS]);
  if (features.stringsLibraryV2) {
    env.registerType(STRINGS_NAMESPACE_TYPE, StringsNamespace);
    env.registerConstant('strings', STRINGS_NAMESPACE_TYPE, new StringsNamespace());
    registerFunctions(env, [...FORMAT_FUNCTIONS, ...QUOTE_FUNCTIONS]);
  }
  if (features.networkLibraries) {
    registerOpaqueType(env, IP_TYPE, CelIP);
    registerOpaqueType(env, CIDR_TYPE, CelCIDR);
    env.registerType(IP_NAMESPACE_TYPE, IPNamespace);
    env.registerConstant('ip', IP_NAMESPACE_TYPE, new IPNamespace());
    registerFunctions(env, NET_FUNCTIONS);
  }
  if (features.quantityLibrary) {
    registerOpaqueType(env, QUANTITY_TYPE, Quantity);
    registerFunctions(env, QUANTITY_FUNCTIONS);
  }
  if (features.authorizerLibrary) {
    // The authorizer last: its field names another of the library's types.
    const keys = (Object.keys(AUTHORIZER_TYPES) as Array<keyof typeof AUTHORIZER_TYPES>).sort((a, b) => Number(a === 'authorizer') - Number(b === 'authorizer'));
    for (const key of keys) registerOpaqueType(env, AUTHORIZER_TYPES[key], AUTHORIZER_CLASSES[key], AUTHORIZER_FIELDS[key]);
    registerFunctions(env, AUTHORIZER_FUNCTIONS);
  }
}

/** Functions of the gated libraries, to explain a rejection below their version. */
export const GATED_FUNCTIONS: ReadonlyMap<string, 'quantityLibrary' | 'authorizerLibrary' | 'stringsLibraryV2' | 'networkLibraries'> = new Map([
  ...FORMAT_FUNCTIONS.map((f) => [f.name, 'stringsLibraryV2'] as const),
  ...QUANTITY_FUNCTIONS.map((f) => [f.name, 'quantityLibrary'] as const),
  ...AUTHORIZER_FUNCTIONS.map((f) => [f.name, 'authorizerLibrary'] as const),
  ...NET_FUNCTIONS.filter((f) => f.name !== 'string').map((f) => [f.name, 'networkLibraries'] as const),
]);
