/**
 * Type checking of a ValidatingAdmissionPolicy against the kinds it matches (upstream v1.30
 * validating `TypeChecker`; spec 001 § Admission control): the kinds named by the resource rules
 * of `spec.matchConstraints` (rules with a wildcard group or version are skipped, wildcard and
 * subresource entries too; at most 10 kinds, sorted by group, version, kind), each checked with
 * `object` and `oldObject` typed by the kind's schema and `params` by the paramKind's (absent
 * when that is not served). Every validation's expression and message expression that does not
 * compile for some kind gets a warning at its field path (`spec.validations[0].expression`):
 * `<group>/<version>, Kind=<kind>: <compile errors>\n` per kind, joined by newlines. Type
 * errors never change what the policy does; the status controller publishes them.
 */
import { canonicalGroup } from '../../../apis/vendor.js';
import { obj, objs, str, type Obj } from '../../../apis/core/v1/obj-access.js';
import { compile, CompileErrors, createEnvironment, type CelEnvironment, type OpenAPISchema, type VariableDeclaration } from '../../../cel/index.js';
import { declarations } from '../../cel/compiler.js';
import type { ServedResource } from '../../plugin-deps.js';
import { kindSchema } from './kind-schema.js';

/** One warning of `status.typeChecking.expressionWarnings`. */
export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

const MAX_TYPES_TO_CHECK = 10;

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** Upstream GroupVersionKind.String(). */
function gvkString(r: ServedResource): string {
  return `${r.group}/${r.version}, Kind=${r.kind}`;
}

/** The served kinds the policy's resource rules name (upstream `typesToCheck`). */
export function typesToCheck(policy: Obj, served: readonly ServedResource[]): ServedResource[] {
  const found = new Map<string, ServedResource>();
  const rules = objs(obj(obj(policy.spec)?.matchConstraints)?.resourceRules);
  for (const rule of rules) {
    const groups = strings(rule.apiGroups);
    const versions = strings(rule.apiVersions);
    if (groups.some((g) => g.includes('*')) || versions.some((v) => v.includes('*'))) continue;
    const resources = strings(rule.resources).filter((r) => !/[*/]/.test(r));
    for (const group of [...groups].sort(compareStrings)) {
      for (const version of [...versions].sort(compareStrings)) {
        for (const resource of [...resources].sort(compareStrings)) {
          for (const r of served) {
            if (r.group !== canonicalGroup(group) || r.version !== version || r.resource !== resource) continue;
            found.set(gvkString(r), r);
            if (found.size >= MAX_TYPES_TO_CHECK) return sortKinds([...found.values()]);
          }
        }
      }
    }
  }
  return sortKinds([...found.values()]);
}

function sortKinds(list: ServedResource[]): ServedResource[] {
  return list.sort((a, b) => compareStrings(a.group, b.group) || compareStrings(a.version, b.version) || compareStrings(a.kind, b.kind));
}

/** The compile errors of `expression` in `env` (all of them, upstream's format), or undefined. */
function issues(expression: string, env: CelEnvironment): string | undefined {
  try {
    const c = compile(expression, env);
    return c instanceof CompileErrors ? c.message : undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** The environment of one kind: declarations of the admission compiler with schema-typed object, oldObject and params. */
function environment(object: OpenAPISchema, params: OpenAPISchema | undefined, variables: ReadonlyMap<string, string> | undefined): CelEnvironment {
  const typed: Record<string, VariableDeclaration> = {
    object: { name: 'object', schema: object, resourceRoot: true },
    oldObject: { name: 'oldObject', schema: object, resourceRoot: true },
  };
  if (params) typed.params = { name: 'params', schema: params, resourceRoot: true };
  const decls = declarations({ params: params !== undefined, authorizer: true, stored: true, variables }).map((d) => typed[d.name] ?? d);
  return createEnvironment({ stored: true, variables: decls });
}

/** A checking context for one kind: the environment with every variable typed. */
function kindEnvironment(object: OpenAPISchema, params: OpenAPISchema | undefined, variables: readonly Obj[]): CelEnvironment {
  if (variables.length === 0) return environment(object, params, undefined);
  const types = new Map<string, string>();
  for (const v of variables) {
    let type = 'dyn';
    try {
      const c = compile(str(v.expression), environment(object, params, types));
      if (!(c instanceof CompileErrors)) type = c.resultType;
    } catch {
      type = 'dyn';
    }
    types.set(str(v.name), type);
  }
  return environment(object, params, types);
}

/**
 * Type-checks `policy` against `served`: the warnings for `status.typeChecking`, in the order
 * of the validations (expression, then message expression). Never throws for a bad policy.
 */
export function typeCheckPolicy(policy: Obj, served: readonly ServedResource[]): ExpressionWarning[] {
  const spec = obj(policy.spec) ?? {};
  const kinds = typesToCheck(policy, served);
  if (kinds.length === 0) return [];
  const paramKind = obj(spec.paramKind);
  let params: OpenAPISchema | undefined;
  if (paramKind) {
    const apiVersion = str(paramKind.apiVersion);
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : canonicalGroup(apiVersion.slice(0, slash));
    const version = apiVersion.slice(slash + 1);
    const p = served.find((r) => r.group === group && r.version === version && r.kind === str(paramKind.kind));
    if (p) params = kindSchema(p.definition.schema);
  }
  const variables = objs(spec.variables);
  const envs = kinds.map((k) => ({ kind: gvkString(k), env: kindEnvironment(kindSchema(k.definition.schema), params, variables) }));
  const check = (expression: string): string | undefined => {
    const parts: string[] = [];
    for (const { kind, env } of envs) {
      const found = issues(expression, env);
      if (found !== undefined) parts.push(`${kind}: ${found}\n`);
    }
    return parts.length > 0 ? parts.join('\n') : undefined;
  };
  const warnings: ExpressionWarning[] = [];
  objs(spec.validations).forEach((v, i) => {
    const expression = check(str(v.expression));
    if (expression !== undefined) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: expression });
    const messageExpression = str(v.messageExpression);
    if (messageExpression === '') return;
    const message = check(messageExpression);
    if (message !== undefined) warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: message });
  });
  return warnings;
}
