/**
 * DaemonSet strategy (upstream daemonset registry of v1.30): status cleared on create and kept on
 * main writes, generation bumped by spec changes, and the template generation the server keeps in
 * the `deprecated.daemonset.template.generation` annotation — at least 1 on create (a client
 * value above 1 is kept), then the stored value on every update, plus one when the pod template
 * changed. A value that is not an integer counts as unset.
 */
import { deepEqual } from '../../../apimachinery/deep-equal.js';
import { daemonSet, DEPRECATED_TEMPLATE_GENERATION } from '../../../apis/apps/v1/index.js';
import type { Obj } from '../../../apis/define.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import { metaOf } from '../../generic/object-meta.js';
import type { Strategy } from '../../rest/strategy.js';

/** The template generation an object carries (0 when absent or not an integer). */
function templateGeneration(o: Obj): number {
  const value = (metaOf(o).annotations as Record<string, unknown> | undefined)?.[DEPRECATED_TEMPLATE_GENERATION];
  return typeof value === 'string' && /^[+-]?[0-9]+$/.test(value) ? Number.parseInt(value, 10) : 0;
}

function setTemplateGeneration(o: Obj, generation: number): void {
  const meta = metaOf(o);
  meta.annotations = { ...((meta.annotations as Record<string, string> | undefined) ?? {}), [DEPRECATED_TEMPLATE_GENERATION]: String(generation) };
}

const templateOf = (o: Obj): unknown => (o.spec as Obj | undefined)?.template;

/** Create, update and delete rules of DaemonSet. */
export const daemonSetStrategy: Strategy = newKindStrategy(daemonSet, {
  prepareForCreate: (obj) => setTemplateGeneration(obj, Math.max(templateGeneration(obj), 1)),
  prepareForUpdate: (obj, old) => {
    const changed = !deepEqual(templateOf(obj), templateOf(old));
    setTemplateGeneration(obj, templateGeneration(old) + (changed ? 1 : 0));
  },
});
