/**
 * A set of field paths (upstream fieldpath.Set): a tree whose nodes hold `members` (paths that are
 * in the set) and `children` (sub-trees of paths below an element). A path can be both a member
 * and have children: in `fieldsV1` that node carries `".": {}`. Sets are values: the operations
 * never change their inputs; only `insert` mutates, while a set is built. An operation that
 * leaves a set as it is (a difference that removes nothing) returns that very set, so that an
 * unchanged manager's entry keeps its encoded form (fieldsv1.ts).
 */
import { comparePathElements, type Path, type PathElement, pathString } from './path.js';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

export class FieldSet {
  /** Elements that are members at this level, by element id. */
  readonly members = new Map<string, PathElement>();
  /** Sub-sets below an element, by element id; never empty once an operation returns. */
  readonly children = new Map<string, Child>();

  /** A set holding `paths`. */
  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds `path` (its parents are not added). The empty path is ignored, as upstream. */
  insert(path: Path): void {
    if (path.length === 0) return;
    const last = path[path.length - 1]!;
    path.slice(0, -1).reduce<FieldSet>((node, pe) => node.descend(pe), this).members.set(last.id, last);
  }

  /** The child set under `pe`, created when missing (used while building). */
  descend(pe: PathElement): FieldSet {
    let c = this.children.get(pe.id);
    if (!c) {
      c = { pe, set: new FieldSet() };
      this.children.set(pe.id, c);
    }
    return c.set;
  }

  /** Sets the sub-set below `pe` (used while building; `set` must not be empty). */
  attach(pe: PathElement, set: FieldSet): void {
    this.children.set(pe.id, { pe, set });
  }

  /** The sub-set below `pe` (paths without the prefix), or undefined. */
  child(pe: PathElement): FieldSet | undefined {
    return this.children.get(pe.id)?.set;
  }

  /** True when `path` is a member. */
  has(path: Path): boolean {
    if (path.length === 0) return false;
    const node = path.slice(0, -1).reduce<FieldSet | undefined>((n, pe) => n?.child(pe), this);
    return node !== undefined && node.members.has(path[path.length - 1]!.id);
  }

  /** True when no path is a member. */
  isEmpty(): boolean {
    if (this.members.size > 0) return false;
    for (const c of this.children.values()) if (!c.set.isEmpty()) return false;
    return true;
  }

  /** Number of member paths. */
  size(): number {
    let n = this.members.size;
    for (const c of this.children.values()) n += c.set.size();
    return n;
  }

  /** Paths in either set. */
  union(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    const out = new FieldSet();
    for (const [id, pe] of this.members) out.members.set(id, pe);
    for (const [id, pe] of other.members) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const o = other.children.get(id);
      out.children.set(id, o ? { pe: c.pe, set: c.set.union(o.set) } : c);
    }
    for (const [id, o] of other.children) if (!this.children.has(id)) out.children.set(id, o);
    return out;
  }

  /** Paths in both sets. */
  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (other.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const o = other.children.get(id);
      if (!o) continue;
      const sub = c.set.intersection(o.set);
      if (!sub.isEmpty()) out.children.set(id, { pe: c.pe, set: sub });
    }
    return out;
  }

  /**
   * Paths of this set that are not members of `other`. As upstream, a member of `other` does not
   * remove this set's paths below it (parent − child = parent, child − parent = child).
   */
  difference(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    const out = new FieldSet();
    let changed = false;
    for (const [id, pe] of this.members) {
      if (other.members.has(id)) changed = true;
      else out.members.set(id, pe);
    }
    for (const [id, c] of this.children) {
      const o = other.children.get(id);
      if (!o) {
        out.children.set(id, c);
        continue;
      }
      const sub = c.set.difference(o.set);
      if (sub !== c.set) changed = true;
      if (!sub.isEmpty()) out.children.set(id, sub === c.set ? c : { pe: c.pe, set: sub });
    }
    return changed ? out : this;
  }

  /** Like difference, but a member of `other` also removes every path below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    const out = new FieldSet();
    let changed = false;
    for (const [id, pe] of this.members) {
      if (other.members.has(id)) changed = true;
      else out.members.set(id, pe);
    }
    for (const [id, c] of this.children) {
      if (other.members.has(id)) {
        changed = true;
        continue;
      }
      const o = other.children.get(id);
      if (!o) {
        out.children.set(id, c);
        continue;
      }
      const sub = c.set.recursiveDifference(o.set);
      if (sub !== c.set) changed = true;
      if (!sub.isEmpty()) out.children.set(id, sub === c.set ? c : { pe: c.pe, set: sub });
    }
    return changed ? out : this;
  }

  /** True when both sets have the same member paths. */
  equals(other: FieldSet): boolean {
    if (this.members.size !== other.members.size) return false;
    for (const id of this.members.keys()) if (!other.members.has(id)) return false;
    const mine = [...this.children.values()].filter((c) => !c.set.isEmpty());
    const theirs = [...other.children.values()].filter((c) => !c.set.isEmpty());
    if (mine.length !== theirs.length) return false;
    return mine.every((c) => {
      const o = other.children.get(c.pe.id);
      return o !== undefined && c.set.equals(o.set);
    });
  }

  /** Members at this level, in upstream order. */
  sortedMembers(): PathElement[] {
    return [...this.members.values()].sort(comparePathElements);
  }

  /** Children at this level, in upstream order. */
  sortedChildren(): Child[] {
    return [...this.children.values()].sort((a, b) => comparePathElements(a.pe, b.pe));
  }

  /** Every member path, in upstream order (members of a level, then its children depth-first). */
  paths(): Path[] {
    const out: Path[] = [];
    const walk = (s: FieldSet, prefix: PathElement[]): void => {
      for (const pe of s.sortedMembers()) out.push([...prefix, pe]);
      for (const c of s.sortedChildren()) walk(c.set, [...prefix, c.pe]);
    };
    walk(this, []);
    return out;
  }

  /** One path per line, as upstream Set.String (for test diagnostics). */
  toString(): string {
    return this.paths().map(pathString).join('\n');
  }
}
