/**
 * A ValidatingAdmissionPolicy compiled once per generation (upstream v1.30 `compilePolicy` and
 * the policy source's param resolution; spec 001 § Admission control): its match constraints,
 * parameter source, match conditions, variables, validations with their message expressions,
 * and audit annotations, all in one environment of stored expressions (`object`, `oldObject`,
 * `request`, `namespaceObject`, `authorizer`, `params` when the policy has a paramKind, and
 * `variables` typed as each variable's expression compiled). Expressions that do not compile
 * are kept with their error: evaluating them is an error the failure policy decides about.
 */
import { canonicalGroup } from '../../../apis/vendor.js';
import { obj, objs, str, type Obj } from '../../../apis/core/v1/obj-access.js';
import { escapeProperty, type CelEnvironment } from '../../../cel/index.js';
import type { ObjectDecl } from '../../../cel/types.js';
import { environmentFor } from '../../cel/compiler.js';
import { compileMatchConditions, type CompiledMatchConditions } from '../../cel/match-conditions.js';
import type { ResourceAccess, ServedResource } from '../../plugin-deps.js';
import { compileExpression, type CompiledExpression, type CompiledVariable } from './expressions.js';
import { compileMatchResources, type CompiledMatchResources, nameOf } from './matching.js';

/** One validation: its expression, message, message expression and status reason. */
export interface CompiledValidation {
  readonly condition: CompiledExpression;
  /** The static message (may be ''). */
  readonly message: string;
  readonly messageExpression?: CompiledExpression;
  /** Forbidden, Invalid or RequestEntityTooLarge; absent: Invalid. */
  readonly reason?: string;
}

/** One audit annotation: its key and value expression. */
export interface CompiledAuditAnnotation {
  readonly key: string;
  readonly value: CompiledExpression;
}

/** Where the policy's parameters come from: the served resource of its paramKind. */
export interface ParamSource {
  readonly access: ResourceAccess;
  readonly served: ServedResource;
}

/** A compiled policy. */
export interface CompiledPolicy {
  readonly name: string;
  readonly failurePolicy: string;
  readonly matchConstraints: CompiledMatchResources;
  /** Whether the policy declares a paramKind (then `params` is declared). */
  readonly hasParamKind: boolean;
  /** The parameter resource, when the paramKind is served. */
  readonly params?: ParamSource;
  /** Upstream's policy-level configuration error (the paramKind is not served). */
  readonly configurationError?: string;
  readonly env: CelEnvironment;
  /** The type of `variables` in `env`, when the policy has variables. */
  readonly variablesType?: ObjectDecl;
  readonly variables: readonly CompiledVariable[];
  readonly validations: readonly CompiledValidation[];
  readonly auditAnnotations: readonly CompiledAuditAnnotation[];
  readonly matchConditions?: CompiledMatchConditions;
  /** Whether an expression mentions `authorizer` (else no authorizer is bound for it). */
  readonly usesAuthorizer: boolean;
  /**
   * The activation variables some expression mentions (`object`, `oldObject`, `request`,
   * `namespaceObject`, `params`): the others are not built for an evaluation.
   */
  readonly uses: ReadonlySet<string>;
}

/** Finds the served resource of `apiVersion`/`kind` (group in either spelling), or undefined. */
export type ServedKindLookup = (group: string, version: string, kind: string) => ServedResource | undefined;

/** Upstream schema.ParseGroupVersion for a paramKind's apiVersion. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

function resolveParams(paramKind: Obj, lookup: ServedKindLookup, access: (r: ServedResource) => ResourceAccess): { params?: ParamSource; error?: string } {
  const { group, version } = parseGroupVersion(str(paramKind.apiVersion));
  const kind = str(paramKind.kind);
  const served = lookup(canonicalGroup(group), version, kind);
  if (!served) return { error: `failed to find resource referenced by paramKind: '${group}/${version}, Kind=${kind}'` };
  return { params: { access: access(served), served } };
}

/**
 * Compiles the variables in order: each one's type comes from compiling it with the variables
 * before it (as validation does), then every expression of the policy compiles in the
 * environment declaring all of them.
 */
function compileVariables(spec: Obj, hasParams: boolean): { env: CelEnvironment; variables: CompiledVariable[] } {
  const raw = objs(spec.variables);
  const types = new Map<string, string>();
  const errors = new Map<string, string>();
  for (const v of raw) {
    const name = str(v.name);
    const env = environmentFor({ params: hasParams, authorizer: true, stored: true, variables: new Map(types) });
    const c = compileExpression(str(v.expression), env, 'any');
    if (c.compileError) errors.set(name, c.compileError);
    types.set(name, c.program?.resultType ?? 'dyn');
  }
  const env = environmentFor({ params: hasParams, authorizer: true, stored: true, variables: raw.length > 0 ? types : undefined });
  const variables = raw.map((v): CompiledVariable => {
    const name = str(v.name);
    const ident = escapeProperty(name) ?? name;
    const compileError = errors.get(name);
    return compileError ? { name, ident, expression: str(v.expression), compileError } : { name, ident, ...compileExpression(str(v.expression), env, 'any') };
  });
  return { env, variables };
}

const AUTHORIZER = /\bauthorizer\b/;
const ACTIVATION_NAMES = /\b(?:object|oldObject|request|namespaceObject|params)\b/g;

/**
 * Compiles `policy` (a stored ValidatingAdmissionPolicy). `lookup` finds paramKind's resource;
 * `access` gives access to it (its informer starts on first use).
 */
export function compilePolicy(policy: Obj, lookup: ServedKindLookup, access: (r: ServedResource) => ResourceAccess): CompiledPolicy {
  const spec = obj(policy.spec) ?? {};
  const paramKind = obj(spec.paramKind);
  const hasParamKind = paramKind !== undefined;
  const { env, variables } = compileVariables(spec, hasParamKind);
  const validations = objs(spec.validations).map((v): CompiledValidation => {
    const messageExpression = str(v.messageExpression);
    return {
      condition: compileExpression(str(v.expression), env, 'bool'),
      message: str(v.message),
      messageExpression: messageExpression === '' ? undefined : compileExpression(messageExpression, env, 'string'),
      reason: typeof v.reason === 'string' && v.reason !== '' ? v.reason : undefined,
    };
  });
  const auditAnnotations = objs(spec.auditAnnotations).map((a) => ({ key: str(a.key), value: compileExpression(str(a.valueExpression).trim(), env, 'string-or-null') }));
  const conditions = objs(spec.matchConditions).map((c) => ({ name: str(c.name), expression: str(c.expression) }));
  const resolved = paramKind ? resolveParams(paramKind, lookup, access) : {};
  const texts = [...variables, ...validations.map((v) => v.condition), ...auditAnnotations.map((a) => a.value), ...conditions].map((e) => e.expression);
  const messages = validations.flatMap((v) => (v.messageExpression ? [v.messageExpression.expression] : []));
  const variablesType = env.variables.get('variables');
  return {
    name: nameOf(policy),
    failurePolicy: str(spec.failurePolicy) || 'Fail',
    matchConstraints: compileMatchResources(obj(spec.matchConstraints)),
    hasParamKind,
    params: resolved.params,
    configurationError: resolved.error,
    env,
    variablesType: variablesType?.kind === 'object' ? variablesType : undefined,
    variables,
    validations,
    auditAnnotations,
    matchConditions: conditions.length > 0 ? compileMatchConditions(conditions, { params: hasParamKind, authorizer: true }) : undefined,
    usesAuthorizer: texts.some((t) => AUTHORIZER.test(t)),
    uses: new Set([...texts, ...messages].flatMap((t) => t.match(ACTIVATION_NAMES) ?? [])),
  };
}
