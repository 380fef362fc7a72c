/**
 * A copy-on-write B+tree of the watch cache's objects by key (issue #17 items 1 and 2): the
 * ordered structure behind the cache's lists, continue pages and Exact lists (upstream 1.33
 * `store_btree.go`, where google/btree's copy-on-write clone plays this part).
 *
 * Keys are in etcd's byte order (JS string comparison, as `compareKeys` in ordered-store.ts).
 * Leaves hold at most `maxNode` sorted keys with their objects; branches hold at most `maxNode`
 * children, the key count of their subtree and separator keys. Every node except the root holds
 * at least half of `maxNode` entries. With n keys and B = `maxNode`:
 * - `set` / `delete`: O(log n + B) (a binary search per level, one splice of ≤ B entries);
 * - `freeze()` (a snapshot): O(1). Each node carries the generation of the tree that may change
 *   it in place; freezing gives the tree a new generation, so the first later write copies only
 *   the nodes on its path (O(B · log_B n)), never the n keys;
 * - `OrderedView.scan`: O(log n) to seek, O(1) amortized per key after;
 * - `OrderedView.count`: O(B · log_B n), from the subtree counts.
 */
import type { StoredObject } from '../interface.js';

/** Default node size: leaves of at most 64 keys, branches of at most 64 children. */
export const DEFAULT_NODE_SIZE = 64;

let lastGeneration = 0;

class Leaf {
  constructor(
    public gen: number,
    public keys: string[],
    public values: StoredObject[],
  ) {}

  get size(): number {
    return this.keys.length;
  }
}

/**
 * `seps[i]` separates `children[i]` and `children[i + 1]`: every key of `children[i]` is below
 * it, every key of `children[i + 1]` is at or above it.
 */
class Branch {
  constructor(
    public gen: number,
    public seps: string[],
    public children: TreeNode[],
    public size: number,
  ) {}
}

type TreeNode = Leaf | Branch;

/** Index of the first key ≥ `key` in the sorted `keys`. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The child of `b` whose keys may include `key` (and where `key` would be inserted). */
function childIndex(b: Branch, key: string): number {
  const seps = b.seps;
  let lo = 0;
  let hi = seps.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (seps[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of keys below `key` under `root`. */
function rank(root: TreeNode, key: string): number {
  let below = 0;
  let node = root;
  while (node instanceof Branch) {
    const i = childIndex(node, key);
    for (let j = 0; j < i; j++) below += node.children[j]!.size;
    node = node.children[i]!;
  }
  return below + lowerBound(node.keys, key);
}

/**
 * An immutable view of the objects in key order: a snapshot (`OrderedTree.freeze`), or the live
 * tree during one synchronous read. Reads only; never changes while held if it is a snapshot.
 */
export class OrderedView {
  /**
   * @param root the tree's root when the view was taken (internal to ordered-tree.ts; the
   *   default is an empty tree)
   * @param nodeSize the node size of the tree it was taken from (entries per node, ≥ 4)
   */
  constructor(
    readonly root: TreeNode = new Leaf(0, [], []),
    readonly nodeSize = DEFAULT_NODE_SIZE,
  ) {
    if (nodeSize < 4) throw new Error(`node size ${nodeSize} is below 4`);
  }

  /** Number of keys. */
  get size(): number {
    return this.root.size;
  }

  /**
   * A cursor at the first key ≥ `from` that walks the keys below `to` (no bound when omitted)
   * in order. O(log n) to seek.
   */
  scan(from: string, to?: string): Cursor {
    return new Cursor(this.root, from, to);
  }

  /** Number of keys k with `from` ≤ k < `to` (`to` omitted: no bound). O(B · log_B n). */
  count(from: string, to?: string): number {
    const end = to === undefined ? this.root.size : rank(this.root, to);
    return Math.max(0, end - rank(this.root, from));
  }
}

/**
 * A position in a view's key order: `key` and `value` are the current entry, `key` is undefined
 * once the range is exhausted. `next()` moves to the following key (O(1) amortized). Valid for
 * as long as its view is (a live view: until the next change of the store).
 */
export class Cursor {
  /** Current key; undefined past the end of the range. */
  key: string | undefined;
  /** Current object; undefined past the end of the range. */
  value: StoredObject | undefined;
  private leaf: Leaf;
  private pos: number;
  /** The positions of `leaf` below `to` end here: where the range ends, if before the leaf's end. */
  private leafEnd: number;
  /** The branches from the root to the leaf, and the child index taken in each. */
  private readonly branches: Branch[] = [];
  private readonly indexes: number[] = [];

  constructor(
    root: TreeNode,
    from: string,
    private readonly to: string | undefined,
  ) {
    let node = root;
    while (node instanceof Branch) {
      const i = childIndex(node, from);
      this.branches.push(node);
      this.indexes.push(i);
      node = node.children[i]!;
    }
    this.leaf = node;
    this.pos = lowerBound(node.keys, from);
    this.leafEnd = this.endIn(node);
    this.settle();
  }

  /** Moves to the next key of the range. */
  next(): void {
    if (this.key === undefined) return;
    this.pos++;
    this.settle();
  }

  /** Steps to the next leaf while past the current one, then loads the entry or ends the range. */
  private settle(): void {
    while (this.pos >= this.leafEnd) {
      if (this.leafEnd < this.leaf.keys.length || !this.nextLeaf()) {
        this.key = this.value = undefined;
        return;
      }
    }
    this.key = this.leaf.keys[this.pos]!;
    this.value = this.leaf.values[this.pos]!;
  }

  /** The end of the range within `leaf`: its length unless `to` falls inside (one comparison per leaf). */
  private endIn(leaf: Leaf): number {
    const keys = leaf.keys;
    const to = this.to;
    if (to === undefined || keys.length === 0 || keys[keys.length - 1]! < to) return keys.length;
    return lowerBound(keys, to);
  }

  private nextLeaf(): boolean {
    let depth = this.branches.length - 1;
    while (depth >= 0 && this.indexes[depth]! + 1 >= this.branches[depth]!.children.length) depth--;
    if (depth < 0) return false;
    this.indexes[depth]!++;
    let node = this.branches[depth]!.children[this.indexes[depth]!]!;
    for (let d = depth + 1; d < this.branches.length; d++) {
      const b = node as Branch;
      this.branches[d] = b;
      this.indexes[d] = 0;
      node = b.children[0]!;
    }
    this.leaf = node as Leaf;
    this.pos = 0;
    this.leafEnd = this.endIn(this.leaf);
    return true;
  }
}

/** A B+tree changed in place by one owner, with O(1) snapshots (`freeze`). */
export class OrderedTree {
  private root: TreeNode;
  /** Nodes of this generation belong to this tree alone and are changed in place. */
  private gen = ++lastGeneration;
  private readonly maxNode: number;
  private readonly minNode: number;
  /** Set by `insert` when the node it changed split: the new right node and its separator. */
  private splitRight: TreeNode | undefined;
  private splitSep = '';

  /**
   * A tree holding `from`'s keys, with its node size: a copy-on-write copy of a snapshot (its
   * nodes are shared until changed here; `from` never changes), or an empty tree.
   */
  constructor(from: OrderedView = new OrderedView()) {
    this.maxNode = from.nodeSize;
    this.minNode = from.nodeSize >> 1;
    this.root = from.root;
  }

  /** A tree of the sorted, distinct `keys` with their `values` (same length), built in O(n). */
  static fromSorted(keys: readonly string[], values: readonly StoredObject[], maxNode = DEFAULT_NODE_SIZE): OrderedTree {
    const tree = new OrderedTree(new OrderedView(undefined, maxNode));
    const gen = tree.gen;
    let level: TreeNode[] = [];
    for (const [a, b] of spans(keys.length, maxNode)) level.push(new Leaf(gen, keys.slice(a, b), values.slice(a, b)));
    /** The smallest key under each node of `level`. */
    let firsts = level.map((l) => (l as Leaf).keys[0]!);
    while (level.length > 1) {
      const up: TreeNode[] = [];
      const upFirsts: string[] = [];
      for (const [a, b] of spans(level.length, maxNode)) {
        const children = level.slice(a, b);
        up.push(new Branch(gen, firsts.slice(a + 1, b), children, children.reduce((n, c) => n + c.size, 0)));
        upFirsts.push(firsts[a]!);
      }
      level = up;
      firsts = upFirsts;
    }
    if (level.length === 1) tree.root = level[0]!;
    return tree;
  }

  /** Number of keys. */
  get size(): number {
    return this.root.size;
  }

  /** The live tree as a view, for a read that finishes before the next change. */
  view(): OrderedView {
    return new OrderedView(this.root, this.maxNode);
  }

  /** An immutable view of the current state, O(1): later changes copy the nodes they touch. */
  freeze(): OrderedView {
    this.gen = ++lastGeneration;
    return new OrderedView(this.root, this.maxNode);
  }

  /** Sets `key` to `value` (insert or replace). */
  set(key: string, value: StoredObject): void {
    const root = this.own(this.root);
    this.root = root;
    this.insert(root, key, value);
    const right = this.splitRight;
    if (right) {
      this.splitRight = undefined;
      this.root = new Branch(this.gen, [this.splitSep], [root, right], root.size + right.size);
    }
  }

  /** Removes `key`; false when absent. */
  delete(key: string): boolean {
    let root = this.own(this.root);
    this.root = root;
    if (!this.remove(root, key)) return false;
    while (root instanceof Branch && root.children.length === 1) root = root.children[0]!;
    this.root = root;
    return true;
  }

  /** `node` if this tree may change it in place, else a copy of it (of this generation). */
  private own<T extends TreeNode>(node: T): T {
    if (node.gen === this.gen) return node;
    if (node instanceof Leaf) return new Leaf(this.gen, node.keys.slice(), node.values.slice()) as T;
    const b = node as Branch;
    return new Branch(this.gen, b.seps.slice(), b.children.slice(), b.size) as T;
  }

  /** The child `i` of the owned branch `b`, made changeable in place. */
  private ownChild(b: Branch, i: number): TreeNode {
    const child = this.own(b.children[i]!);
    b.children[i] = child;
    return child;
  }

  /** Inserts or replaces under the owned `node`; true when a key was added. Sets `splitRight` when `node` split. */
  private insert(node: TreeNode, key: string, value: StoredObject): boolean {
    if (node instanceof Leaf) {
      const i = lowerBound(node.keys, key);
      if (node.keys[i] === key) {
        node.values[i] = value;
        return false;
      }
      node.keys.splice(i, 0, key);
      node.values.splice(i, 0, value);
      if (node.keys.length > this.maxNode) {
        const mid = node.keys.length >> 1;
        const right = new Leaf(this.gen, node.keys.splice(mid), node.values.splice(mid));
        this.splitRight = right;
        this.splitSep = right.keys[0]!;
      }
      return true;
    }
    const i = childIndex(node, key);
    const added = this.insert(this.ownChild(node, i), key, value);
    if (added) node.size++;
    const right = this.splitRight;
    if (right) {
      node.children.splice(i + 1, 0, right);
      node.seps.splice(i, 0, this.splitSep);
      this.splitRight = undefined;
      if (node.children.length > this.maxNode) this.splitBranch(node);
    }
    return added;
  }

  private splitBranch(node: Branch): void {
    const mid = node.children.length >> 1;
    const children = node.children.splice(mid);
    const seps = node.seps.splice(mid - 1);
    const sep = seps.shift()!;
    const size = children.reduce((n, c) => n + c.size, 0);
    node.size -= size;
    this.splitRight = new Branch(this.gen, seps, children, size);
    this.splitSep = sep;
  }

  /** Removes `key` under the owned `node`, rebalancing children that fall below half; false when absent. */
  private remove(node: TreeNode, key: string): boolean {
    if (node instanceof Leaf) {
      const i = lowerBound(node.keys, key);
      if (node.keys[i] !== key) return false;
      node.keys.splice(i, 1);
      node.values.splice(i, 1);
      return true;
    }
    const i = childIndex(node, key);
    const child = this.ownChild(node, i);
    if (!this.remove(child, key)) return false;
    node.size--;
    if (entries(child) < this.minNode) this.rebalance(node, i);
    return true;
  }

  /** Refills the owned child `i` of `parent` from a sibling with entries to spare, or merges it with one. */
  private rebalance(parent: Branch, i: number): void {
    const child = parent.children[i]!;
    const left = i > 0 ? parent.children[i - 1]! : undefined;
    const right = i + 1 < parent.children.length ? parent.children[i + 1]! : undefined;
    if (left && entries(left) > this.minNode) this.borrowLeft(parent, i, child, this.ownChild(parent, i - 1));
    else if (right && entries(right) > this.minNode) this.borrowRight(parent, i, child, this.ownChild(parent, i + 1));
    else if (left) this.merge(parent, i - 1, this.ownChild(parent, i - 1), child);
    else if (right) this.merge(parent, i, child, right);
  }

  /** Moves the last entry of `left` (child i - 1) to the front of `child` (child i). */
  private borrowLeft(parent: Branch, i: number, child: TreeNode, left: TreeNode): void {
    if (child instanceof Leaf) {
      const l = left as Leaf;
      child.keys.unshift(l.keys.pop()!);
      child.values.unshift(l.values.pop()!);
      parent.seps[i - 1] = child.keys[0]!;
      return;
    }
    const l = left as Branch;
    const moved = l.children.pop()!;
    child.children.unshift(moved);
    child.seps.unshift(parent.seps[i - 1]!);
    parent.seps[i - 1] = l.seps.pop()!;
    l.size -= moved.size;
    child.size += moved.size;
  }

  /** Moves the first entry of `right` (child i + 1) to the end of `child` (child i). */
  private borrowRight(parent: Branch, i: number, child: TreeNode, right: TreeNode): void {
    if (child instanceof Leaf) {
      const r = right as Leaf;
      child.keys.push(r.keys.shift()!);
      child.values.push(r.values.shift()!);
      parent.seps[i] = r.keys[0]!;
      return;
    }
    const r = right as Branch;
    const moved = r.children.shift()!;
    child.children.push(moved);
    child.seps.push(parent.seps[i]!);
    parent.seps[i] = r.seps.shift()!;
    r.size -= moved.size;
    child.size += moved.size;
  }

  /** Appends child i + 1 (`right`, only read) to the owned child i (`left`) and drops it from `parent`. */
  private merge(parent: Branch, i: number, left: TreeNode, right: TreeNode): void {
    if (left instanceof Leaf) {
      const r = right as Leaf;
      left.keys.push(...r.keys);
      left.values.push(...r.values);
    } else {
      const r = right as Branch;
      left.seps.push(parent.seps[i]!, ...r.seps);
      left.children.push(...r.children);
      left.size += r.size;
    }
    parent.children.splice(i + 1, 1);
    parent.seps.splice(i, 1);
  }
}

/** Number of entries of a node: keys of a leaf, children of a branch. */
function entries(node: TreeNode): number {
  return node instanceof Leaf ? node.keys.length : node.children.length;
}

/** `[start, end)` spans cutting `n` items into the fewest runs of at most `max`, as even as possible. */
function spans(n: number, max: number): [number, number][] {
  const runs = Math.ceil(n / max);
  const out: [number, number][] = [];
  for (let r = 0; r < runs; r++) out.push([Math.floor((r * n) / runs), Math.floor(((r + 1) * n) / runs)]);
  return out;
}
