/**
 * Executes parsed templates (parse.ts) against a data value, as Go's `text/template` does for
 * the subset: `.` and `$`, variables scoped to their control structure, fields of maps (a field
 * of nil is an error, as in Go: `nil pointer evaluating interface {}.<name>`), pipelines where
 * each command's result is the last argument of the next, and `include`/`template` of the
 * `define`d templates of every file of the chart.
 */
import { type Arg, type Node, type ParsedTemplate, type Pipeline, TemplateError } from './parse.js';
import { FUNCTIONS, formatValue, truthy, type TemplateFunction, type Value } from './functions.js';

/** Longest include/template nesting, as Helm's recursion guard. */
const MAX_DEPTH = 1000;

interface Scope {
  dot: Value;
  vars: { name: string; value: Value }[];
  depth: number;
}

/** Renders the templates of one chart, sharing their `define`s. */
export class TemplateSet {
  private readonly defines = new Map<string, Node[]>();
  private readonly functions: Readonly<Record<string, TemplateFunction>> = FUNCTIONS;

  constructor(private readonly files: ReadonlyMap<string, ParsedTemplate>) {
    for (const t of files.values()) for (const [name, body] of t.defines) this.defines.set(name, body);
  }

  /**
   * Renders the file `name` with `data` as `.` and `$`.
   * @throws TemplateError naming the file on a missing template, a nil field, a failed
   * `required`/`fail` or an unknown function.
   */
  render(name: string, data: Value): string {
    const file = this.files.get(name);
    if (!file) throw new TemplateError(`template: no file ${name}`);
    try {
      return this.list(file.root, { dot: data, vars: [{ name: '', value: data }], depth: 0 });
    } catch (err) {
      if (err instanceof TemplateError && !err.message.startsWith('template:')) throw new TemplateError(`template: ${name}: ${err.message}`);
      throw err;
    }
  }

  private include(name: string, data: Value, depth: number): string {
    const body = this.defines.get(name);
    if (!body) throw new TemplateError(`no template "${name}" associated with template`);
    if (depth > MAX_DEPTH) throw new TemplateError(`rendering template has a nested reference name: ${name}`);
    return this.list(body, { dot: data, vars: [{ name: '', value: data }], depth: depth + 1 });
  }

  private list(nodes: Node[], s: Scope): string {
    const mark = s.vars.length;
    let out = '';
    for (const n of nodes) out += this.node(n, s);
    s.vars.length = mark;
    return out;
  }

  private node(n: Node, s: Scope): string {
    switch (n.type) {
      case 'text':
        return n.text;
      case 'action': {
        const v = this.pipeline(n.pipe, s);
        return n.pipe.decl.length > 0 ? '' : formatValue(v);
      }
      case 'template':
        return this.include(n.name, n.pipe ? this.pipeline(n.pipe, s) : undefined, s.depth);
      case 'if': {
        const mark = s.vars.length;
        const v = this.pipeline(n.pipe, s);
        const out = this.list(truthy(v) ? n.list : n.elseList, s);
        s.vars.length = mark;
        return out;
      }
      case 'with': {
        const mark = s.vars.length;
        const v = this.pipeline(n.pipe, s);
        const out = truthy(v) ? this.list(n.list, { ...s, dot: v }) : this.list(n.elseList, s);
        s.vars.length = mark;
        return out;
      }
      case 'range':
        return this.range(n, s);
    }
  }

  private range(n: Extract<Node, { type: 'range' }>, s: Scope): string {
    const mark = s.vars.length;
    const decl = n.pipe.decl;
    const v = this.pipeline({ ...n.pipe, decl: [] }, s);
    let entries: [Value, Value][];
    if (Array.isArray(v)) entries = v.map((e, i) => [i, e]);
    else if (v !== null && typeof v === 'object') entries = Object.keys(v).sort().map((k) => [k, (v as Record<string, Value>)[k]]);
    else if (v === null || v === undefined) entries = [];
    else throw new TemplateError(`range can't iterate over ${formatValue(v)}`);
    let out = '';
    for (const [k, e] of entries) {
      if (decl.length === 1) s.vars.push({ name: decl[0]!, value: e });
      if (decl.length === 2) s.vars.push({ name: decl[0]!, value: k }, { name: decl[1]!, value: e });
      out += this.list(n.list, { ...s, dot: e });
      s.vars.length = mark;
    }
    if (entries.length === 0) out = this.list(n.elseList, s);
    s.vars.length = mark;
    return out;
  }

  private pipeline(p: Pipeline, s: Scope): Value {
    let v: Value;
    let piped = false;
    for (const cmd of p.cmds) {
      v = this.command(cmd, s, piped ? [v] : []);
      piped = true;
    }
    if (p.assign) {
      const existing = [...s.vars].reverse().find((x) => x.name === p.decl[0]);
      if (!existing) throw new TemplateError(`undefined variable: $${p.decl[0]}`);
      existing.value = v;
    } else {
      for (const name of p.decl) s.vars.push({ name, value: v });
    }
    return v;
  }

  private command(cmd: Arg[], s: Scope, piped: Value[]): Value {
    const [head, ...rest] = cmd;
    if (head!.type === 'ident') {
      const args = [...rest.map((a) => this.arg(a, s)), ...piped];
      if (head!.name === 'include') return this.include(formatValue(args[0]), args[1], s.depth);
      const fn = Object.hasOwn(this.functions, head!.name) ? this.functions[head!.name] : undefined;
      if (!fn) throw new TemplateError(`function "${head!.name}" not defined`);
      try {
        return fn(...args);
      } catch (err) {
        if (err instanceof TemplateError) throw err;
        throw new TemplateError(`error calling ${head!.name}: ${(err as Error).message}`);
      }
    }
    if (rest.length > 0 || piped.length > 0) throw new TemplateError(`can't give argument to non-function ${describe(head!)}`);
    return this.arg(head!, s);
  }

  private arg(a: Arg, s: Scope): Value {
    switch (a.type) {
      case 'string':
      case 'number':
      case 'bool':
        return a.value;
      case 'nil':
        return null;
      case 'field':
        return fields(s.dot, a.path);
      case 'var': {
        const found = [...s.vars].reverse().find((x) => x.name === a.name);
        if (!found) throw new TemplateError(`undefined variable: $${a.name}`);
        return fields(found.value, a.path);
      }
      case 'pipe':
        return fields(this.pipeline(a.pipe, s), a.path);
      case 'ident': {
        if (a.name === 'include') throw new TemplateError('wrong number of args for include: want 2 got 0');
        const fn = Object.hasOwn(this.functions, a.name) ? this.functions[a.name] : undefined;
        if (!fn) throw new TemplateError(`function "${a.name}" not defined`);
        return fn();
      }
    }
  }
}

/** Follows `path` through maps; a field of nil or of a non-map is an error, as in Go. */
function fields(v: Value, path: string[]): Value {
  let cur = v;
  for (const key of path) {
    if (cur === null || cur === undefined) throw new TemplateError(`nil pointer evaluating interface {}.${key}`);
    if (typeof cur !== 'object' || Array.isArray(cur)) throw new TemplateError(`can't evaluate field ${key} in type ${Array.isArray(cur) ? '[]interface {}' : typeof cur}`);
    cur = Object.hasOwn(cur, key) ? (cur as Record<string, Value>)[key] : undefined;
  }
  return cur;
}

function describe(a: Arg): string {
  if (a.type === 'field') return `.${a.path.join('.')}`;
  if (a.type === 'var') return `$${a.name}`;
  return a.type;
}
