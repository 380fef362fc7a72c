/**
 * The match conditions of an authorization webhook (spec 001 § Authorization: `matchConditions`,
 * at most 64 CEL boolean expressions over `request`, the v1 SubjectAccessReview spec). Compiled
 * once per configuration load through lib/cel, evaluated per request with lib/cel's per-call cost
 * budget. As upstream: any condition evaluating to false → the webhook is skipped (even if
 * another failed); otherwise any evaluation error is the outcome; all true → the webhook is called.
 */
import { type CelEnvironment, CompileErrors, type OpenAPISchema, type Program, compile, createEnvironment } from '../../cel/index.js';
import type { SubjectAccessReviewSpecV1 } from './subject-access-review.js';

/** The variable match conditions see. */
export const REQUEST_VARIABLE = 'request';
/** Most match conditions one webhook may have. */
export const MAX_MATCH_CONDITIONS = 64;

const STRING: OpenAPISchema = { type: 'string' };
const STRINGS: OpenAPISchema = { type: 'array', items: STRING };

/**
 * `request`: the v1 SubjectAccessReviewSpec; absent members are absent (test them with `has()`).
 * The attribute objects are string maps, so that `request.resourceAttributes.namespace` reads as
 * upstream's (a typed object would escape the reserved word `namespace` as `__namespace__`).
 */
const REQUEST_SCHEMA: OpenAPISchema = {
  type: 'object',
  properties: {
    resourceAttributes: { type: 'object', additionalProperties: STRING },
    nonResourceAttributes: { type: 'object', additionalProperties: STRING },
    user: STRING,
    groups: STRINGS,
    extra: { type: 'object', additionalProperties: STRINGS },
    uid: STRING,
  },
};

let env: CelEnvironment | undefined;

/** The environment of match conditions, built once per process. */
export function matchConditionEnvironment(): CelEnvironment {
  env ??= createEnvironment({ stored: true, variables: [{ name: REQUEST_VARIABLE, schema: REQUEST_SCHEMA }] });
  return env;
}

/**
 * Compiles one condition. Returns the Program, or the reason it is rejected as upstream words it
 * (`compilation failed: ERROR: <input>:1:1: …`, `must evaluate to bool`).
 */
export function compileMatchCondition(expression: string): Program | string {
  let compiled: Program | CompileErrors;
  try {
    compiled = compile(expression, matchConditionEnvironment());
  } catch (err) {
    return `compilation failed: ${(err as Error).message}`;
  }
  if (compiled instanceof CompileErrors) return `compilation failed: ${compiled.message}`;
  return compiled.resultType === 'bool' ? compiled : 'must evaluate to bool';
}

/** The conditions of one webhook, compiled. */
export class MatchConditions {
  constructor(readonly programs: readonly Program[]) {}

  /**
   * Whether the webhook applies to `spec`.
   * @returns true when all conditions hold, false when one is false.
   * @throws Error aggregating the evaluation errors (`cel evaluation error: expression '<e>'
   *   resulted in error: <reason>`) when none is false and some failed.
   */
  matches(spec: SubjectAccessReviewSpecV1): boolean {
    const errors: string[] = [];
    let activation;
    try {
      activation = matchConditionEnvironment().prepare({ [REQUEST_VARIABLE]: spec });
    } catch (err) {
      throw new Error(`cel evaluation error: ${(err as Error).message}`, { cause: err });
    }
    for (const p of this.programs) {
      const r = p.evaluate(activation);
      if (!r.ok) {
        errors.push(`cel evaluation error: expression '${p.expression}' resulted in error: ${r.error.message}`);
        continue;
      }
      if (typeof r.value !== 'boolean') {
        errors.push(`cel evaluation error: expression '${p.expression}' eval result type should be bool but got ${typeof r.value}`);
        continue;
      }
      if (!r.value) return false;
    }
    if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
    return true;
  }
}
