/**
 * Strategies of kinds whose own rules restate every upstream check — required fields and enums
 * included — in upstream's order and wording (the admission and API registration kinds). The
 * schema's declarative checks do not run for them: they would report some fields a second time
 * with other words (a bare `Required value` where upstream says `sideEffects: Required value:
 * must specify one of None, NoneOnDryRun`, a service's name where upstream reports the
 * namespace) or require what upstream does not (a condition's `message`). Updates run the kind's
 * update rules alone (they ratchet on the stored object) instead of its create rules plus update
 * rules.
 */
import type { FieldError } from '../../apimachinery/field-errors.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../apimachinery/validation/object-meta.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';
import { type KindStrategyOptions, newKindStrategy, newStatusStrategy } from '../generic/kind-strategy.js';
import type { Strategy } from '../rest/strategy.js';

/** The kind's own rules: on create, on update (whole, not in addition), on a status write. */
export interface UpstreamRules {
  create(obj: Obj): FieldError[];
  update(obj: Obj, old: Obj): FieldError[];
  status?(obj: Obj, old: Obj): FieldError[];
}

type Meta = Record<string, unknown>;
const metaOf = (o: Obj): Meta => (o.metadata ?? {}) as Meta;

/** The main strategy of `kind` with `rules`, and its status strategy when the kind has a status subresource. */
export function newUpstreamRulesStrategies(kind: KindDefinition, rules: UpstreamRules, options: KindStrategyOptions = {}): { main: Strategy; status?: Strategy } {
  const main = newKindStrategy(kind, options, {
    validate: (_ctx: RequestContext, obj: Obj) => [...validateObjectMeta(obj.metadata as Meta | undefined, kind.namespaced, kind.nameRule), ...rules.create(obj)],
    validateUpdate: (_ctx: RequestContext, obj: Obj, old: Obj) => [...validateObjectMetaUpdate(metaOf(obj), metaOf(old)), ...rules.update(obj, old)],
  });
  if (!kind.statusSubresource) return { main };
  const statusRules = rules.status ?? (() => []);
  const status = newStatusStrategy(main, {
    validateUpdate: (_ctx: RequestContext, obj: Obj, old: Obj) => [...validateObjectMetaUpdate(metaOf(obj), metaOf(old)), ...statusRules(obj, old)],
  });
  return { main, status };
}
