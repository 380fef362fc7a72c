/**
 * Expression environments. spec 000 § Expression language (CEL) in fields: standard macros and
 * functions, homogeneous aggregate literals, default UTC time zone, eager validation of
 * declarations, the extended string, list, regex, URL, authorizer and quantity libraries,
 * optional types and cross-type numeric comparisons — the gated ones per compatibility version.
 *
 * An environment is built from variable declarations (a type written as in expressions, or an
 * OpenAPI schema) and validated eagerly: a bad declaration fails here, not at first use.
 */

import { Environment } from '@marcbachmann/cel-js';
import { celEquals } from './equality.js';
import { libraryTypeNames, registerLibraries } from './library/index.js';
import { SchemaTypeBuilder, type OpenAPISchema } from './schema-types.js';
import { celTypeName, parseTypeName, type DeclType, type ObjectDecl } from './types.js';
import { objectClass, toCel, ConversionError } from './values.js';
import {
  CURRENT_VERSION,
  DEFAULT_COMPATIBILITY_VERSION,
  featuresAt,
  formatVersion,
  parseVersion,
  type FeatureSet,
  type Version,
} from './versions.js';
import { RESERVED_WORDS } from './escaping.js';

/** One variable: its name and either an expression type (`int`, `list<string>`…) or a schema. */
export interface VariableDeclaration {
  readonly name: string;
  /** Type as written in expressions, including library types such as the authorizer's. */
  readonly type?: string;
  /** OpenAPI v3 schema the type is derived from (see schema-types.ts). */
  readonly schema?: OpenAPISchema;
  /** The schema is the root of a resource: apiVersion, kind and metadata name are added. */
  readonly resourceRoot?: boolean;
  /** Declare `optional<T>` (e.g. `oldSelf` of rules that also run on create). */
  readonly optional?: boolean;
}

/** Options of createEnvironment. */
export interface EnvironmentOptions {
  /** Compatibility version for new expressions (`"1.29"`); default DEFAULT_COMPATIBILITY_VERSION. */
  readonly version?: string | Version;
  /** Build the environment for stored expressions: every feature of CURRENT_VERSION. */
  readonly stored?: boolean;
  readonly variables?: readonly VariableDeclaration[];
}

/** A declaration the environment rejects; thrown by createEnvironment. */
export class EnvironmentError extends Error {
  override readonly name = 'EnvironmentError';
}

/** Activation values already converted for an environment (reusable across programs). */
export class PreparedActivation {
  constructor(
    /** @internal converted values by variable name */
    readonly values: Readonly<Record<string, unknown>>,
    readonly environment: CelEnvironment,
  ) {}
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const baseEnvironments = new Map<string, Environment>();

function baseEnvironment(features: FeatureSet): Environment {
  const key = JSON.stringify(features);
  let env = baseEnvironments.get(key);
  if (!env) {
    env = new Environment({ homogeneousAggregateLiterals: true, enableOptionalTypes: features.optionalTypes });
    registerLibraries(env, features);
    baseEnvironments.set(key, env);
  }
  return env;
}

function objectTypes(t: DeclType, out: Set<ObjectDecl>): void {
  switch (t.kind) {
    case 'object':
      if (out.has(t)) return;
      out.add(t);
      for (const f of t.fields.values()) objectTypes(f.type, out);
      return;
    case 'list':
      return objectTypes(t.elem, out);
    case 'map':
      return objectTypes(t.value, out);
    case 'optional':
      return objectTypes(t.inner, out);
    default:
      return;
  }
}

/** An environment: declared variables, available features and the engine configured with them. */
export class CelEnvironment {
  /** Gated features this environment offers. */
  readonly features: FeatureSet;
  /** Declared variables and their types. */
  readonly variables: ReadonlyMap<string, DeclType>;
  /** Object types derived from schemas, by type name. */
  readonly objectTypes: ReadonlyMap<string, ObjectDecl>;
  /** @internal the configured engine environment */
  readonly engine: Environment;

  constructor(
    /** The compatibility version (CURRENT_VERSION for stored expressions). */
    readonly version: Version,
    /** Whether this is the environment for stored expressions. */
    readonly stored: boolean,
    declarations: readonly VariableDeclaration[],
  ) {
    this.features = featuresAt(version);
    const opaque = libraryTypeNames(this.features);
    const builder = new SchemaTypeBuilder();
    const variables = new Map<string, DeclType>();
    for (const d of declarations) {
      if (!IDENTIFIER.test(d.name) || RESERVED_WORDS.has(d.name)) throw new EnvironmentError(`invalid variable name "${d.name}"`);
      if (variables.has(d.name)) throw new EnvironmentError(`variable "${d.name}" is declared twice`);
      if ((d.type === undefined) === (d.schema === undefined)) {
        throw new EnvironmentError(`variable "${d.name}" needs exactly one of type or schema`);
      }
      let t: DeclType | undefined;
      if (d.schema) {
        t = builder.build(d.schema, d.name, d.resourceRoot ?? false);
        if (!t) throw new EnvironmentError(`variable "${d.name}": the schema has no type expressions can use`);
      } else {
        try {
          t = parseTypeName(d.type!, opaque);
        } catch (err) {
          throw new EnvironmentError(`variable "${d.name}": ${(err as Error).message}`);
        }
      }
      variables.set(d.name, d.optional ? { kind: 'optional', inner: t, maxElements: t.maxElements, minSerializedSize: 0 } : t);
    }
    this.variables = variables;
    this.engine = baseEnvironment(this.features).clone();
    const objects = new Set<ObjectDecl>();
    for (const t of variables.values()) objectTypes(t, objects);
    this.objectTypes = new Map([...objects].map((o) => [o.name, o]));
    try {
      for (const o of objects) {
        const fields = Object.fromEntries([...o.fields].map(([ident, f]) => [ident, celTypeName(f.type)]));
        this.engine.registerType(o.name, { ctor: objectClass(o), fields });
        this.engine.registerOperator(`${o.name} == ${o.name}`, celEquals);
      }
      for (const [name, t] of variables) this.engine.registerVariable(name, celTypeName(t));
    } catch (err) {
      throw new EnvironmentError((err as Error).message);
    }
  }

  /**
   * Converts JSON activation values (by variable name) to runtime values once, for evaluating
   * several programs against the same data. Missing variables stay unbound (optional ones become
   * empty optionals). Throws ConversionError when data does not fit its declared type.
   */
  prepare(activation: Readonly<Record<string, unknown>>): PreparedActivation {
    const values: Record<string, unknown> = {};
    for (const [name, t] of this.variables) {
      try {
        const v = toCel(activation[name], t);
        if (v !== undefined) values[name] = v;
      } catch (err) {
        throw err instanceof ConversionError ? err.under(name) : err;
      }
    }
    return new PreparedActivation(values, this);
  }

  /**
   * An activation from values that are already runtime values (ints as BigInt, typed objects…),
   * taken as they are. Only declared variables are kept.
   */
  fromRuntimeValues(values: Readonly<Record<string, unknown>>): PreparedActivation {
    const kept: Record<string, unknown> = {};
    for (const name of this.variables.keys()) if (values[name] !== undefined) kept[name] = values[name];
    return new PreparedActivation(kept, this);
  }

  /** `"1.29"` or `"1.30 (stored expressions)"`. */
  describe(): string {
    return `${formatVersion(this.version)}${this.stored ? ' (stored expressions)' : ''}`;
  }
}

/**
 * Builds an environment. New expressions get the features of `version` (default 1.29); with
 * `stored: true` every feature of CURRENT_VERSION, so stored expressions keep compiling.
 * Throws EnvironmentError on an invalid declaration.
 */
export function createEnvironment(options: EnvironmentOptions = {}): CelEnvironment {
  const requested = typeof options.version === 'string' ? parseVersion(options.version) : (options.version ?? DEFAULT_COMPATIBILITY_VERSION);
  return new CelEnvironment(options.stored ? CURRENT_VERSION : requested, options.stored ?? false, options.variables ?? []);
}

/** The pair upstream calls an env set: one environment for new expressions, one for stored. */
export interface EnvironmentSet {
  readonly newExpressions: CelEnvironment;
  readonly storedExpressions: CelEnvironment;
}

/** Builds both environments from the same declarations. */
export function createEnvironmentSet(options: Omit<EnvironmentOptions, 'stored'> = {}): EnvironmentSet {
  return {
    newExpressions: createEnvironment({ ...options, stored: false }),
    storedExpressions: createEnvironment({ ...options, stored: true }),
  };
}
