/**
 * The evaluator of parsed JSONPath templates (client-go `util/jsonpath/jsonpath.go`
 * `FindResults`): one result list per top-level node (text pieces and actions), `range` / `end`
 * loops, missing keys as errors unless `allowMissingKeys`. Steps return upstream's (values,
 * error) pairs, since a filter under `allowMissingKeys` goes on with the values a failed step
 * returned. Unlike upstream, evaluating never alters the template (upstream truncates its node
 * list after a `range`). Pure.
 */
import { compareValues } from './compare.js';
import { JSONPathEvalError, type JSONPathNode, type JSONPathTemplate, type ListNode } from './nodes.js';
import { children, goTypeName, isMap, isNil, NumberLiteral, plain } from './values.js';

/** Options of `evaluateJSONPath`. */
export interface JSONPathEvalOptions {
  /** A missing field or key gives no result instead of the error `<name> is not found`. */
  allowMissingKeys?: boolean;
}

/** Go's `([]reflect.Value, error)`: the values, and the error message when the step failed. */
interface Step {
  values: unknown[];
  err?: string;
}

const ok = (values: unknown[]): Step => ({ values });
const fail = (values: unknown[], err: string): Step => ({ values, err });

/** One evaluation: the range stack and counters of upstream's JSONPath object. */
class Evaluator {
  private stack: unknown[][] = [];
  private cur: unknown[] = [];
  private beginRange = 0;
  private inRange = 0;
  private endRange = 0;

  constructor(private readonly allowMissingKeys: boolean) {}

  findResults(data: unknown, nodes: readonly JSONPathNode[]): unknown[][] {
    this.cur = [data];
    const full: unknown[][] = [];
    for (let i = 0; i < nodes.length; i++) {
      const step = this.walk(this.cur, nodes[i]!);
      if (step.err !== undefined) throw new JSONPathEvalError(step.err);
      if (this.endRange > 0 && this.endRange <= this.inRange) {
        this.endRange--;
        break;
      }
      if (this.beginRange > 0) {
        this.beginRange--;
        this.inRange++;
        const rest = nodes.slice(i + 1);
        step.values.forEach((value, k) => {
          if (k === step.values.length - 1) this.inRange--;
          full.push(...this.findResults(value, rest));
        });
        break;
      }
      full.push(step.values);
    }
    return full;
  }

  private walk(input: unknown[], node: JSONPathNode): Step {
    switch (node.type) {
      case 'list':
        return this.evalList(input, node);
      case 'text':
        return ok([node.text]);
      case 'field':
        return this.evalField(input, node.name);
      case 'array':
        return evalArray(input, node);
      case 'filter':
        return this.evalFilter(input, node);
      case 'int':
        return ok(input.map(() => new NumberLiteral(node.value, 'int')));
      case 'float':
        return ok(input.map(() => new NumberLiteral(node.value, 'float64')));
      case 'bool':
        return ok(input.map(() => node.value));
      case 'wildcard':
        return ok(input.flatMap((v) => (isNil(v) ? [] : (children(v) ?? []))));
      case 'recursive':
        return ok(evalRecursive(input));
      case 'union':
        return this.evalUnion(input, node.nodes);
      case 'identifier':
        return this.evalIdentifier(input, node.name);
    }
  }

  private evalList(input: unknown[], list: ListNode): Step {
    let cur = input;
    for (const node of list.nodes) {
      const step = this.walk(cur, node);
      if (step.err !== undefined) return step;
      cur = step.values;
    }
    return ok(cur);
  }

  private evalIdentifier(input: unknown[], name: string): Step {
    switch (name) {
      case 'range':
        this.stack.push(this.cur);
        this.beginRange++;
        return ok(input);
      case 'end':
        if (this.endRange < this.inRange) {
          this.endRange++;
          return ok([]);
        }
        if (this.stack.length === 0) return fail([], 'not in range, nothing to end');
        this.cur = this.stack.pop()!;
        return ok([]);
      default:
        return fail(input, `unrecognized identifier ${name}`);
    }
  }

  private evalUnion(input: unknown[], lists: readonly ListNode[]): Step {
    const result: unknown[] = [];
    for (const list of lists) {
      const step = this.evalList(input, list);
      if (step.err !== undefined) return fail(input, step.err);
      result.push(...step.values);
    }
    return ok(result);
  }

  private evalField(input: unknown[], name: string): Step {
    const results: unknown[] = [];
    for (const value of input) {
      if (isMap(value) && Object.hasOwn(value, name) && value[name] !== undefined) results.push(value[name]);
    }
    if (results.length === 0 && input.length > 0 && !this.allowMissingKeys) return fail(results, `${name} is not found`);
    return ok(results);
  }

  private evalFilter(input: unknown[], node: Extract<JSONPathNode, { type: 'filter' }>): Step {
    const results: unknown[] = [];
    for (const value of input) {
      for (const element of children(value) ?? [value]) {
        const temp = [element];
        const left = this.evalList(temp, node.left);
        if (left.err !== undefined && !this.allowMissingKeys) return fail(input, left.err);
        const right = this.evalList(temp, node.right);
        if (right.err !== undefined) return fail(input, right.err);
        const lefts = left.values;
        const rights = right.values;
        if (lefts.length === 0) continue;
        if (lefts.length > 1) return fail(input, 'can only compare one element at a time');
        if (node.operator === 'exists') {
          results.push(element);
          continue;
        }
        if (rights.length === 0) continue;
        if (rights.length > 1) return fail(input, 'can only compare one element at a time');
        let pass: boolean;
        try {
          pass = compareValues(node.operator, lefts[0], rights[0]);
        } catch (e) {
          return fail(results, (e as Error).message);
        }
        if (pass) results.push(element);
      }
    }
    return ok(results);
  }
}

/** Upstream `evalArray`: index, negative index and `[start:end:step]` slices of each array. */
function evalArray(input: unknown[], node: Extract<JSONPathNode, { type: 'array' }>): Step {
  const result: unknown[] = [];
  const [p0, p1, p2] = node.params;
  for (const value of input) {
    if (isNil(value)) continue;
    if (!Array.isArray(value)) return fail(input, `${goTypeName(value)} is not array or slice`);
    const length = value.length;
    let start = p0.known ? p0.value : 0;
    if (start < 0) start += length;
    let end = p1.known ? p1.value : length;
    if (end < 0 || (end === 0 && p1.derived)) end += length;
    if (end === start) return ok(result);
    if (start >= length || start < 0) return fail(input, `array index out of bounds: index ${start}, length ${length}`);
    if (end > length || end < 0) return fail(input, `array index out of bounds: index ${end - 1}, length ${length}`);
    if (start > end) return fail(input, `starting index ${start} is greater than ending index ${end}`);
    let step = 1;
    if (p2.known) {
      if (p2.value <= 0) return fail(input, 'step must be > 0');
      step = p2.value;
    }
    for (let i = start; i < end; i += step) result.push(value[i]);
  }
  return ok(result);
}

/** Upstream `evalRecursive`: every non-empty array or object, itself first, then its descendants. */
function evalRecursive(input: unknown[]): unknown[] {
  const result: unknown[] = [];
  for (const value of input) {
    if (isNil(value)) continue;
    const kids = children(value);
    if (kids === undefined || kids.length === 0) continue;
    result.push(value);
    result.push(...evalRecursive(kids));
  }
  return result;
}

/**
 * Evaluates a parsed template on decoded JSON `data`: the results of each top-level node in
 * order (a text piece gives its text; an action its values; a `range` block one list per node
 * per iteration), as upstream's `FindResults`. Throws JSONPathEvalError with upstream's message
 * (`spec is not found`, `array index out of bounds: index 5, length 2`, `map[string]interface {}
 * is not array or slice`, …).
 */
export function evaluateJSONPath(template: JSONPathTemplate, data: unknown, opts: JSONPathEvalOptions = {}): unknown[][] {
  const results = new Evaluator(opts.allowMissingKeys ?? false).findResults(data, template.root.nodes);
  return results.map((values) => values.map(plain));
}
