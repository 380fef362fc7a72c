/**
 * Compilation of the validation rules of one schema node (upstream apiextensions-apiserver
 * pkg/apiserver/schema/cel compilation.go `Compile` / `compileRule`): `self` is typed from the
 * node's schema (a resource root — the CRD root or an embedded resource — gains apiVersion,
 * kind and metadata.name/generateName), `oldSelf` has the same type, or `optional<T>` for rules
 * with `optionalOldSelf`. spec 000 § Expression language (CEL) in fields; spec 001 § Limits
 * (expression cost).
 */
import {
  compile,
  CompileErrors,
  createEnvironment,
  EnvironmentError,
  referencesVariable,
  type CelEnvironment,
  type OpenAPISchema,
  type Program,
} from '../../cel/index.js';
import { EXT, type JSONSchemaProps, type ValidationRule } from '../types.js';
import { cardinalityFromMinSize } from './cost.js';
import { resolveFieldPath } from './field-path.js';

/** Which environment an expression compiles in: new expressions, or stored ones (every feature). */
export type ExpressionEnv = 'new' | 'stored';

/** The compilation of one rule. A rule whose text is blank has neither program nor error. */
export interface CompiledRule {
  /** The rule as written in the schema. */
  readonly rule: ValidationRule;
  readonly program?: Program;
  /** `compilation failed: ERROR: <input>:1:…` or `cel expression must evaluate to a bool`. */
  readonly error?: string;
  /** The rule reads `oldSelf`: a transition rule. */
  readonly usesOldSelf: boolean;
  /** Estimated worst-case cost of one evaluation (CEL cost units). */
  readonly maxCost: number;
  readonly messageExpression?: Program;
  /** The message expression reads `oldSelf`. */
  readonly messageUsesOldSelf?: boolean;
  /** `messageExpression compilation failed: …` or `messageExpression must evaluate to a string`. */
  readonly messageExpressionError?: string;
  readonly messageExpressionMaxCost: number;
  /** `fieldPath` resolved against the node (`spec.x`, `labels[app]`); undefined if unset or invalid. */
  readonly normalizedFieldPath?: string;
}

/** The rules of one node, or why `self` could not be typed there. */
export interface CompiledNodeRules {
  readonly rules: readonly CompiledRule[];
  /**
   * Times a value of this node could repeat in one request (upstream `maxCardinality` of the
   * node's minimum serialized size), used when an enclosing list or map is unbounded.
   */
  readonly maxCardinality: number;
  /** Set ({@link UNTYPED_SCHEMA}) when `self` has no type. */
  readonly typeError?: string;
}

/** Options of compileNodeRules. */
export interface CompileNodeOptions {
  /** The environment of every expression (default `stored`). */
  readonly env?: ExpressionEnv;
  /** Rules and message expressions that compile as stored ones whatever `env` says (they existed before an update). */
  readonly preexisting?: ReadonlySet<string>;
}

/**
 * The `x-<vendor>-validations` rules of a schema node, in order (empty when absent; an entry
 * that is not an object stands for a blank rule, keeping the indexes).
 */
export function validationRules(schema: JSONSchemaProps): ValidationRule[] {
  const raw = schema[EXT.validations];
  return Array.isArray(raw) ? raw.map((r): ValidationRule => (r !== null && typeof r === 'object' && !Array.isArray(r) ? (r as ValidationRule) : { rule: '' })) : [];
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Upstream's reason when a schema node has no expression type. */
export const UNTYPED_SCHEMA = 'unable to convert structural schema to CEL declarations';

/** The four environments of a node, built on first use. */
class NodeEnvironments {
  private readonly cache = new Map<string, CelEnvironment>();

  constructor(
    private readonly schema: JSONSchemaProps,
    private readonly resourceRoot: boolean,
  ) {}

  /** Throws EnvironmentError when `self` cannot be typed. */
  get(env: ExpressionEnv, optionalOldSelf: boolean): CelEnvironment {
    const key = `${env}/${optionalOldSelf}`;
    let e = this.cache.get(key);
    if (!e) {
      const schema = this.schema as OpenAPISchema;
      e = createEnvironment({
        stored: env === 'stored',
        variables: [
          { name: 'self', schema, resourceRoot: this.resourceRoot },
          { name: 'oldSelf', schema, resourceRoot: this.resourceRoot, optional: optionalOldSelf },
        ],
      });
      this.cache.set(key, e);
    }
    return e;
  }
}

function compileExpression(expression: string, env: CelEnvironment): Program | string {
  try {
    const result = compile(expression, env);
    return result instanceof CompileErrors ? result.message : result;
  } catch (err) {
    return (err as Error).message;
  }
}

function compileRule(rule: ValidationRule, schema: JSONSchemaProps, env: CelEnvironment, messageEnv: CelEnvironment): CompiledRule {
  const empty = { rule, usesOldSelf: false, maxCost: 0, messageExpressionMaxCost: 0 };
  const source = text(rule.rule);
  if (source.trim() === '') return empty;
  const program = compileExpression(source, env);
  if (typeof program === 'string') return { ...empty, error: `compilation failed: ${program}` };
  if (program.resultType !== 'bool') return { ...empty, error: 'cel expression must evaluate to a bool' };
  const compiled = {
    ...empty,
    program,
    usesOldSelf: referencesVariable(program, 'oldSelf'),
    maxCost: program.estimatedCost.max,
  };
  const messageSource = text(rule.messageExpression);
  let message: Pick<CompiledRule, 'messageExpression' | 'messageExpressionMaxCost' | 'messageUsesOldSelf'> = { messageExpressionMaxCost: 0 };
  if (messageSource !== '') {
    const msg = compileExpression(messageSource, messageEnv);
    if (typeof msg === 'string') {
      return { ...compiled, messageExpressionError: `messageExpression compilation failed: ${msg}` };
    }
    if (msg.resultType !== 'string') return { ...compiled, messageExpressionError: 'messageExpression must evaluate to a string' };
    message = { messageExpression: msg, messageExpressionMaxCost: msg.estimatedCost.max, messageUsesOldSelf: referencesVariable(msg, 'oldSelf') };
  }
  const fieldPath = text(rule.fieldPath);
  let normalizedFieldPath: string | undefined;
  if (fieldPath !== '') {
    try {
      normalizedFieldPath = resolveFieldPath(fieldPath, schema).path;
    } catch {
      normalizedFieldPath = undefined;
    }
  }
  return { ...compiled, ...message, ...(normalizedFieldPath !== undefined ? { normalizedFieldPath } : {}) };
}

/**
 * Compiles every rule of `schema`'s own `x-<vendor>-validations` (not its children's), in order.
 * `resourceRoot`: the node is the CRD root or an embedded resource. Never throws: a node whose
 * type cannot be expressed gets `typeError` and no rules.
 */
export function compileNodeRules(schema: JSONSchemaProps, resourceRoot: boolean, options: CompileNodeOptions = {}): CompiledNodeRules {
  const rules = validationRules(schema);
  const envs = new NodeEnvironments(schema, resourceRoot);
  let plain: CelEnvironment;
  try {
    plain = envs.get('stored', false);
  } catch (err) {
    if (err instanceof EnvironmentError) return { rules: [], maxCardinality: 0, typeError: UNTYPED_SCHEMA };
    throw err;
  }
  const maxCardinality = cardinalityFromMinSize(plain.variables.get('self')!.minSerializedSize);
  const envFor = (expression: unknown, optionalOldSelf: boolean): CelEnvironment => {
    const stored = options.env !== 'new' || (options.preexisting?.has(text(expression)) ?? false);
    return envs.get(stored ? 'stored' : 'new', optionalOldSelf);
  };
  const compiled = rules.map((rule) => {
    const optional = rule.optionalOldSelf === true;
    return compileRule(rule, schema, envFor(rule.rule, optional), envFor(rule.messageExpression, optional));
  });
  return { rules: compiled, maxCardinality };
}
