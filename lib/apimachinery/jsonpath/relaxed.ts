/**
 * kubectl's `RelaxedJSONPathExpression` (get/customcolumn.go): accepts `metadata.name`,
 * `.metadata.name`, `{metadata.name}` and `{.metadata.name}` and returns the template
 * `{.metadata.name}`. Pure.
 */
import { JSONPathSyntaxError } from './nodes.js';

const RELAXED = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/;

/**
 * The complete template of a relaxed path (`.spec.x` → `{.spec.x}`); the empty string stays
 * empty. Throws JSONPathSyntaxError (`unexpected path string, expected a 'name1.name2' or
 * '.name1.name2' or '{name1.name2}' or '{.name1.name2}'`) for anything else, e.g. `{a}{b}`.
 */
export function relaxedJSONPathExpression(path: string): string {
  if (path.length === 0) return path;
  const m = RELAXED.exec(path);
  if (!m) {
    throw new JSONPathSyntaxError("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'");
  }
  return `{.${m[1] ?? m[2]}}`;
}
