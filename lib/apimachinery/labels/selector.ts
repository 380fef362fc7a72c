/**
 * Label selectors: the `labelSelector` query parameter syntax and the `metav1.LabelSelector`
 * struct of workload specs, both producing one immutable LabelSelector.
 * spec 000 § Collections (list and watch parameters); issue #4 item 6, issue #2 item 6.
 */
import { SelectorParseError } from './errors.js';
import { parseRequirements } from './parser.js';
import { type Labels, type Operator, Requirement } from './requirement.js';

export { SelectorParseError } from './errors.js';
export { type Labels, type Operator, Requirement } from './requirement.js';

/** `metav1.LabelSelectorRequirement`: operator `In`, `NotIn`, `Exists` or `DoesNotExist`. */
export interface LabelSelectorRequirementObject {
  key: string;
  operator: string;
  values?: string[] | null;
}

/** `metav1.LabelSelector` as it appears in Deployment, Job, … specs. */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: LabelSelectorRequirementObject[] | null;
}

const OBJECT_OPERATORS: Readonly<Record<string, Operator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

const byKey = (a: Requirement, b: Requirement): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * An immutable conjunction of requirements, sorted by key (upstream `labels.Selector`). The
 * selector with no requirements selects everything; `LabelSelector.nothing()` selects nothing.
 */
export class LabelSelector {
  private static readonly EVERYTHING = new LabelSelector([], true);
  private static readonly NOTHING = new LabelSelector([], false);

  private constructor(
    /** The requirements, ANDed, sorted by key (stable for equal keys). */
    readonly requirements: readonly Requirement[],
    /** False only for the selector that selects nothing (upstream `Requirements()`'s `selectable`). */
    readonly selectable: boolean,
  ) {}

  /** The selector matching every label set (also what the empty string parses to). */
  static everything(): LabelSelector {
    return LabelSelector.EVERYTHING;
  }

  /** The selector matching no label set (a nil `metav1.LabelSelector`). */
  static nothing(): LabelSelector {
    return LabelSelector.NOTHING;
  }

  /** A selector ANDing `requirements`, which are sorted by key (stable). */
  static of(requirements: readonly Requirement[]): LabelSelector {
    if (requirements.length === 0) return LabelSelector.EVERYTHING;
    return new LabelSelector(Object.freeze([...requirements].sort(byKey)), true);
  }

  /** True when every requirement matches `labels` (always true when empty, false for nothing()). */
  matches(labels: Labels): boolean {
    if (!this.selectable) return false;
    const reqs = this.requirements;
    for (let i = 0; i < reqs.length; i++) if (!reqs[i]!.matches(labels)) return false;
    return true;
  }

  /** True when the selector does not restrict anything (no requirements; false for nothing()). */
  empty(): boolean {
    return this.selectable && this.requirements.length === 0;
  }

  /**
   * The value the selector requires for `key` when its first requirement on `key` is `=`, `==`
   * or an `in` with one value; otherwise undefined. Useful to index lookups.
   */
  requiresExactMatch(key: string): string | undefined {
    for (const r of this.requirements) {
      if (r.key !== key) continue;
      const single = r.operator === '=' || r.operator === '==' || r.operator === 'in';
      return single && r.values.length === 1 ? r.values[0] : undefined;
    }
    return undefined;
  }

  /**
   * Canonical upstream text: requirements in key order joined by `,`, `in`/`notin` values
   * sorted. Like upstream, nothing() prints as the empty string: check `selectable` before
   * round-tripping.
   */
  toString(): string {
    return this.requirements.join(',');
  }
}

/**
 * Parses the `labelSelector` syntax: `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`,
 * `!k`, `k>1`, `k<1`, comma-separated (AND); the empty or blank string selects everything.
 * Throws SelectorParseError with the upstream message, e.g.
 * `unable to parse requirement: found '', expected: in, notin, =, ==, !=, gt, lt`.
 */
export function parseLabelSelector(text: string): LabelSelector {
  return LabelSelector.of(parseRequirements(text));
}

/**
 * Converts a `metav1.LabelSelector` (upstream `LabelSelectorAsSelector`): `undefined`/`null`
 * selects nothing; one without matchLabels and matchExpressions (`{}`) selects everything;
 * otherwise `matchLabels` become `=` requirements and `matchExpressions` `in`/`notin`/exists/`!`.
 * Throws SelectorParseError for an unknown operator (`"Foo" is not a valid label selector
 * operator`) or an invalid requirement (message as `new Requirement`). Run
 * validateLabelSelectorObject first to report field errors instead.
 */
export function labelSelectorFromObject(sel: LabelSelectorObject | null | undefined): LabelSelector {
  if (sel == null) return LabelSelector.nothing();
  const requirements: Requirement[] = [];
  const matchLabels = sel.matchLabels ?? {};
  for (const key of Object.keys(matchLabels).sort()) requirements.push(new Requirement(key, '=', [matchLabels[key]!]));
  for (const expr of sel.matchExpressions ?? []) {
    const op = Object.hasOwn(OBJECT_OPERATORS, expr.operator) ? OBJECT_OPERATORS[expr.operator] : undefined;
    if (op === undefined) throw new SelectorParseError(`${JSON.stringify(expr.operator)} is not a valid label selector operator`);
    requirements.push(new Requirement(expr.key, op, expr.values ?? []));
  }
  return LabelSelector.of(requirements);
}
