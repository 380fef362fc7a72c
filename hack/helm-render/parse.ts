/**
 * Parser of the Go `text/template` subset our Helm chart uses (manifests/orch-apiserver):
 * text, `{{ pipeline }}` actions with `{{-`/`-}}` trim markers, comments `{{/* … *\/}}`,
 * variables (`$x := …`, `$x = …`, `$`, `$x.field`), fields (`.a.b`), string, raw-string,
 * number, bool and nil literals, parenthesized pipelines, `|` chains, and the control actions
 * `if`/`else if`/`else`, `range` (with `$i, $e :=`), `with`, `define`, `template` and `end`.
 * Anything else (`block`, `break`, `continue`, method calls) is a parse error, so a chart that
 * leaves the subset fails loudly here instead of rendering differently from `helm template`.
 */

/** An operand of a command. */
export type Arg =
  | { type: 'field'; path: string[] } // .a.b (path [] is `.`)
  | { type: 'var'; name: string; path: string[] } // $x.a ($ is name '')
  | { type: 'ident'; name: string } // function name
  | { type: 'string'; value: string }
  | { type: 'number'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'nil' }
  | { type: 'pipe'; pipe: Pipeline; path: string[] }; // (pipeline).a

/** `$a, $b :=` or `$a =`, then commands joined by `|`. */
export interface Pipeline {
  decl: string[];
  assign: boolean;
  cmds: Arg[][];
}

/** A node of the parsed tree. */
export type Node =
  | { type: 'text'; text: string }
  | { type: 'action'; pipe: Pipeline }
  | { type: 'if' | 'with'; pipe: Pipeline; list: Node[]; elseList: Node[] }
  | { type: 'range'; pipe: Pipeline; list: Node[]; elseList: Node[] }
  | { type: 'template'; name: string; pipe: Pipeline | undefined };

/** A parsed file: its top-level nodes and the `define`d templates. */
export interface ParsedTemplate {
  root: Node[];
  defines: Map<string, Node[]>;
}

/** A template parse error naming the file and line, as Go's `template: <name>:<line>: …`. */
export class TemplateError extends Error {}

interface RawAction {
  body: string;
  line: number;
}

type Piece = { text: string } | { action: RawAction };

/** Splits a template into text and trimmed action bodies. */
function split(src: string, name: string): Piece[] {
  const pieces: Piece[] = [];
  let pos = 0;
  let line = 1;
  let trimNext = false;
  while (pos < src.length) {
    const open = src.indexOf('{{', pos);
    let text = src.slice(pos, open < 0 ? src.length : open);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (open < 0) {
      pieces.push({ text });
      break;
    }
    let start = open + 2;
    if (src.startsWith('- ', start) || src.startsWith('-\n', start)) {
      text = text.replace(/\s+$/, '');
      start += 1;
    }
    pieces.push({ text });
    line += src.slice(pos, open).split('\n').length - 1;
    const close = findClose(src, start, name, line);
    let end = close;
    trimNext = false;
    if (src[close - 1] === '-' && /\s/.test(src[close - 2] ?? '')) {
      trimNext = true;
      end = close - 1;
    }
    pieces.push({ action: { body: src.slice(start, end).trim(), line } });
    line += src.slice(open, close + 2).split('\n').length - 1;
    pos = close + 2;
  }
  return pieces;
}

/** Index of the `}}` closing the action that starts at `start` (skipping quoted strings). */
function findClose(src: string, start: number, name: string, line: number): number {
  let i = start;
  while (i < src.length) {
    const c = src[i];
    if (src.startsWith('/*', i)) {
      const endComment = src.indexOf('*/', i + 2);
      if (endComment < 0) break;
      i = endComment + 2;
    } else if (c === '"' || c === '`') {
      i += 1;
      while (i < src.length && src[i] !== c) i += c === '"' && src[i] === '\\' ? 2 : 1;
      i += 1;
    } else if (src.startsWith('}}', i)) {
      return i;
    } else {
      i += 1;
    }
  }
  throw new TemplateError(`template: ${name}:${line}: unclosed action`);
}

const TOKEN = /\s*(?:("(?:[^"\\]|\\.)*")|(`[^`]*`)|(:=|=|\||,|\(|\))|(-?\d+(?:\.\d+)?)|(\$[A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)|(\.(?:[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)?)|([A-Za-z_][A-Za-z0-9_]*))/y;

/** A token of an action; `spaced`: whitespace came before it. */
type Tok = { kind: 'str' | 'raw' | 'punct' | 'num' | 'var' | 'field' | 'ident'; text: string; spaced: boolean };

/** Tokenizes an action body. */
function tokenize(body: string, where: string): Tok[] {
  const toks: Tok[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < body.length) {
    if (/^\s*$/.test(body.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(body);
    if (!m) throw new TemplateError(`${where}: unexpected "${body.slice(at).trim().slice(0, 20)}" in action`);
    const kinds = ['str', 'raw', 'punct', 'num', 'var', 'field', 'ident'] as const;
    const k = kinds.findIndex((_, i) => m[i + 1] !== undefined);
    const text = m[k + 1]!;
    toks.push({ kind: kinds[k]!, text, spaced: /^\s/.test(m[0]) });
  }
  return toks;
}

/** Parses the tokens of one pipeline (optionally with a declaration). */
function parsePipeline(toks: Tok[], where: string): Pipeline {
  let i = 0;
  const decl: string[] = [];
  let assign = false;
  const declEnd = toks.findIndex((t) => t.kind === 'punct' && (t.text === ':=' || t.text === '='));
  if (declEnd > 0 && toks.slice(0, declEnd).every((t, j) => (j % 2 === 0 ? t.kind === 'var' : t.text === ','))) {
    for (let j = 0; j < declEnd; j += 2) decl.push(toks[j]!.text.slice(1));
    assign = toks[declEnd]!.text === '=';
    i = declEnd + 1;
  }
  const parseCmds = (stopAtParen: boolean): Arg[][] => {
    const cmds: Arg[][] = [[]];
    while (i < toks.length) {
      const t = toks[i]!;
      if (t.kind === 'punct' && t.text === ')') {
        if (!stopAtParen) throw new TemplateError(`${where}: unexpected ")"`);
        break;
      }
      i += 1;
      if (t.kind === 'punct' && t.text === '|') {
        cmds.push([]);
        continue;
      }
      cmds[cmds.length - 1]!.push(toArg(t));
    }
    if (cmds.some((c) => c.length === 0)) throw new TemplateError(`${where}: missing command in pipeline`);
    return cmds;
  };
  const toArg = (t: Tok): Arg => {
    switch (t.kind) {
      case 'str':
        return { type: 'string', value: JSON.parse(t.text) as string };
      case 'raw':
        return { type: 'string', value: t.text.slice(1, -1) };
      case 'num':
        return { type: 'number', value: Number(t.text) };
      case 'var': {
        const [name, ...path] = t.text.slice(1).split('.');
        return { type: 'var', name: name!, path };
      }
      case 'field':
        return { type: 'field', path: t.text === '.' ? [] : t.text.slice(1).split('.') };
      case 'ident':
        if (t.text === 'true' || t.text === 'false') return { type: 'bool', value: t.text === 'true' };
        if (t.text === 'nil') return { type: 'nil' };
        return { type: 'ident', name: t.text };
      case 'punct':
        if (t.text === '(') {
          const inner = parseCmds(true);
          if (toks[i]?.text !== ')') throw new TemplateError(`${where}: unclosed left paren`);
          i += 1;
          let path: string[] = [];
          const next = toks[i];
          if (next?.kind === 'field' && next.text !== '.' && !next.spaced) {
            path = next.text.slice(1).split('.');
            i += 1;
          }
          return { type: 'pipe', pipe: { decl: [], assign: false, cmds: inner }, path };
        }
        throw new TemplateError(`${where}: unexpected "${t.text}" in operand`);
    }
  };
  const cmds = parseCmds(false);
  return { decl, assign, cmds };
}

/**
 * Parses `src` (the file `name`, for messages) into its root nodes and defined templates.
 * @throws TemplateError on syntax outside the subset, unbalanced `end`/`else` or unclosed actions.
 */
export function parseTemplate(src: string, name: string): ParsedTemplate {
  const pieces = split(src, name);
  const defines = new Map<string, Node[]>();
  let i = 0;
  type Stop = 'end' | 'else' | 'eof';
  // Parses nodes until `end`/`else` (returned with the else action's remaining words).
  const parseList = (): { nodes: Node[]; stop: Stop; elseRest: string } => {
    const nodes: Node[] = [];
    while (i < pieces.length) {
      const p = pieces[i++]!;
      if ('text' in p) {
        if (p.text) nodes.push({ type: 'text', text: p.text });
        continue;
      }
      const { body, line } = p.action;
      const where = `template: ${name}:${line}`;
      if (body.startsWith('/*')) {
        if (!body.endsWith('*/')) throw new TemplateError(`${where}: unclosed comment`);
        continue;
      }
      const word = /^[a-z]+\b/.exec(body)?.[0] ?? '';
      const rest = body.slice(word.length).trim();
      switch (word) {
        case 'end':
          return { nodes, stop: 'end', elseRest: '' };
        case 'else':
          return { nodes, stop: 'else', elseRest: rest };
        case 'if':
        case 'with':
        case 'range':
          nodes.push(parseControl(word, rest, where));
          break;
        case 'define': {
          const nameTok = tokenize(rest, where);
          if (nameTok.length !== 1 || (nameTok[0]!.kind !== 'str' && nameTok[0]!.kind !== 'raw')) throw new TemplateError(`${where}: define needs a quoted name`);
          const body = parseList();
          if (body.stop !== 'end') throw new TemplateError(`${where}: define without end`);
          defines.set(JSON.parse(nameTok[0]!.kind === 'str' ? nameTok[0]!.text : JSON.stringify(nameTok[0]!.text.slice(1, -1))) as string, body.nodes);
          break;
        }
        case 'template': {
          const toks = tokenize(rest, where);
          if (toks[0]?.kind !== 'str') throw new TemplateError(`${where}: template needs a quoted name`);
          nodes.push({ type: 'template', name: JSON.parse(toks[0].text) as string, pipe: toks.length > 1 ? parsePipeline(toks.slice(1), where) : undefined });
          break;
        }
        case 'block':
        case 'break':
        case 'continue':
          throw new TemplateError(`${where}: "${word}" is outside the supported template subset`);
        default:
          nodes.push({ type: 'action', pipe: parsePipeline(tokenize(body, where), where) });
      }
    }
    return { nodes, stop: 'eof', elseRest: '' };
  };
  const parseControl = (word: 'if' | 'with' | 'range', rest: string, where: string): Node => {
    const pipe = parsePipeline(tokenize(rest, where), where);
    const body = parseList();
    let elseList: Node[] = [];
    if (body.stop === 'eof') throw new TemplateError(`${where}: unexpected EOF: ${word} without end`);
    if (body.stop === 'else') {
      if (body.elseRest.startsWith('if ') && word === 'if') {
        elseList = [parseControl('if', body.elseRest.slice(3), where)];
      } else {
        if (body.elseRest) throw new TemplateError(`${where}: unsupported "else ${body.elseRest}"`);
        const tail = parseList();
        if (tail.stop !== 'end') throw new TemplateError(`${where}: expected end after else`);
        elseList = tail.nodes;
      }
    }
    return { type: word, pipe, list: body.nodes, elseList };
  };
  const top = parseList();
  if (top.stop !== 'eof') throw new TemplateError(`template: ${name}: unexpected {{${top.stop}}}`);
  return { root: top.nodes, defines };
}
