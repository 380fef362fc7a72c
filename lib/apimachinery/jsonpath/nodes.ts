/**
 * The parse tree of the upstream JSONPath template dialect (client-go `util/jsonpath`, node.go):
 * a template is a list of text and `{…}` actions; an action is a list of steps. Also the two
 * error classes of the package. Pure data, no behaviour.
 */

/** One bound of a slice `[start:end:step]`; `derived` marks the end of a single index (`[i]` = `[i:i+1]`). */
export interface SliceParam {
  readonly known: boolean;
  readonly value: number;
  readonly derived: boolean;
}

/** A step of an action, or the whole template (a `list`). */
export type JSONPathNode =
  | { readonly type: 'list'; readonly nodes: readonly JSONPathNode[] }
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'field'; readonly name: string }
  | { readonly type: 'identifier'; readonly name: string }
  | { readonly type: 'array'; readonly params: readonly [SliceParam, SliceParam, SliceParam] }
  | { readonly type: 'filter'; readonly left: ListNode; readonly right: ListNode; readonly operator: string }
  | { readonly type: 'int'; readonly value: number }
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'wildcard' }
  | { readonly type: 'recursive' }
  | { readonly type: 'union'; readonly nodes: readonly ListNode[] };

/** A list node: the template root, one `{…}` action, a filter side or a union member. */
export type ListNode = Extract<JSONPathNode, { type: 'list' }>;

/**
 * A parsed template (`parseJSONPath`): `root.nodes` are the text pieces and actions in order.
 * Immutable; evaluate it any number of times with `evaluateJSONPath`.
 */
export interface JSONPathTemplate {
  readonly source: string;
  readonly root: ListNode;
}

/** A template that does not parse; `message` is upstream's error text (`unclosed action`). */
export class JSONPathSyntaxError extends Error {
  override readonly name = 'JSONPathSyntaxError';
}

/** A template that fails on the given data; `message` is upstream's (`spec is not found`). */
export class JSONPathEvalError extends Error {
  override readonly name = 'JSONPathEvalError';
}
