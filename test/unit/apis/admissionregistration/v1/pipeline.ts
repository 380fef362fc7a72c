/**
 * Test helpers for the admission registration kinds: their registry strategies built with the
 * server's CEL compiler (validation of these kinds needs it), and the decode → default →
 * validate pipeline through them.
 */
import { admissionExpressionCompiler } from '../../../../../lib/admission/cel/compiler.js';
import type { KindDefinition, Obj } from '../../../../../lib/apis/define.js';
import { admissionregistrationStrategies, type KindStrategies } from '../../../../../lib/registry/admissionregistration/strategy.js';
import { internalContext } from '../../../../../lib/request/context.js';
import { decodeAndDefault, messages } from '../../kind-pipeline.js';

const ctx = internalContext({ name: 'test', groups: [] });
const strategies = admissionregistrationStrategies(admissionExpressionCompiler);

/** The strategies of `kind`. */
export function strategiesOf(kind: KindDefinition): KindStrategies {
  return strategies.find((s) => s.main.kind === kind)!;
}

/** A decoded and defaulted copy of `obj`. */
export function defaulted(kind: KindDefinition, obj: Obj): Obj {
  const copy = structuredClone(obj);
  decodeAndDefault(kind, copy);
  return copy;
}

/** The create errors of `obj` (defaulted first), as `path: message` strings. */
export function createErrors(kind: KindDefinition, obj: Obj): string[] {
  return messages(strategiesOf(kind).main.validate(ctx, defaulted(kind, obj)));
}

/** The update errors of `obj` over the stored `old` (both defaulted first). */
export function updateErrors(kind: KindDefinition, obj: Obj, old: Obj): string[] {
  return messages(strategiesOf(kind).main.validateUpdate(ctx, defaulted(kind, obj), defaulted(kind, old)));
}

/** The errors of a status write of `obj` over `old`. */
export function statusErrors(kind: KindDefinition, obj: Obj, old: Obj): string[] {
  return messages(strategiesOf(kind).status!.validateUpdate(ctx, defaulted(kind, obj), defaulted(kind, old)));
}

/** The request context the helpers use. */
export const testContext = ctx;
