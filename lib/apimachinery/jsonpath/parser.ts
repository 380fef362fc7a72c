/**
 * The parser of the upstream JSONPath template dialect (client-go `util/jsonpath/parser.go`):
 * text with `{…}` actions; inside an action `.field` (backslash escapes a terminator), `..`
 * recursive descent, `[i]`, `[a:b:c]`, `[*]`, unions `[a,b]`, `['key']`, filters
 * `[?(@.x == "v")]` and `[?(@.x)]`, quoted strings, numbers, `true` / `false`, and the
 * identifiers `range` / `end`. Errors carry upstream's message text. Pure.
 */
import { JSONPathSyntaxError, type JSONPathNode, type JSONPathTemplate, type ListNode, type SliceParam } from './nodes.js';
import { unquoteExtend } from './unquote.js';

const EOF = '';
const DICT_KEY = /^'([^']*)'$/;
const SLICE = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const COMPARISON = /^([^!<>=]+)([!<>=]+)([^\n]+?)$/;
const INT = /^[+-]?[0-9]+$/;
const FLOAT = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;
const LETTER_OR_DIGIT = /^[\p{L}\p{Nd}_]$/u;
const DIGIT = /^\p{Nd}$/u;
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const isDigit = (r: string): boolean => r !== EOF && DIGIT.test(r);
const isAlphaNumeric = (r: string): boolean => r !== EOF && LETTER_OR_DIGIT.test(r);
const isEndOfLine = (r: string): boolean => r === '\r' || r === '\n';

/** Go's `isTerminator`: what ends a field or identifier. */
function isTerminator(r: string): boolean {
  switch (r) {
    case EOF:
    case ' ':
    case '\t':
    case '\r':
    case '\n':
    case '.':
    case ',':
    case '[':
    case ']':
    case '$':
    case '@':
    case '{':
    case '}':
      return true;
    default:
      return false;
  }
}

/** Go's `%#U` of a rune: `U+0023 '#'`, or `U+0009` when not printable. */
function goRune(r: string): string {
  const hex = r.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return PRINTABLE.test(r) ? `U+${hex} '${r}'` : `U+${hex}`;
}

/** Go's `strconv.Atoi` (64-bit): the integer, or undefined when malformed or out of range. */
export function goAtoi(text: string): number | undefined {
  if (!INT.test(text)) return undefined;
  const big = BigInt(text);
  return big < INT64_MIN || big > INT64_MAX ? undefined : Number(big);
}

/** Go's `strconv.ParseFloat` restricted to what the number scanner can produce (sign, digits, dots). */
function goParseFloat(text: string): number | undefined {
  if (!FLOAT.test(text)) return undefined;
  const v = Number(text);
  return Number.isFinite(v) ? v : undefined;
}

const list = (nodes: JSONPathNode[]): ListNode => ({ type: 'list', nodes });

/** One parse of one input: Go's `Parser` (byte positions become UTF-16 positions). */
class Parser {
  private pos = 0;
  private start = 0;
  private width = 0;

  constructor(private readonly input: string) {}

  /** The whole input: text pieces and actions. */
  parse(): ListNode {
    const root: JSONPathNode[] = [];
    for (;;) {
      const open = this.input.indexOf('{', this.pos);
      if (open < 0) {
        this.pos = this.input.length;
        if (this.pos > this.start) root.push({ type: 'text', text: this.consume() });
        return list(root);
      }
      this.pos = open;
      if (this.pos > this.start) root.push({ type: 'text', text: this.consume() });
      this.pos += 1;
      this.consume();
      const action: JSONPathNode[] = [];
      root.push(list(action));
      this.parseInsideAction(action);
    }
  }

  private consume(): string {
    const value = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return value;
  }

  private next(): string {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return EOF;
    }
    const cp = this.input.codePointAt(this.pos)!;
    this.width = cp > 0xffff ? 2 : 1;
    const r = this.input.slice(this.pos, this.pos + this.width);
    this.pos += this.width;
    return r;
  }

  private peek(): string {
    const r = this.next();
    this.backup();
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  /** Steps of one action until its `}` (consumed). */
  private parseInsideAction(cur: JSONPathNode[]): void {
    for (;;) {
      if (this.input.startsWith('}', this.pos)) {
        this.pos += 1;
        this.consume();
        return;
      }
      if (this.input.startsWith('[?(', this.pos)) {
        this.parseFilter(cur);
        continue;
      }
      if (this.input.startsWith('..', this.pos)) {
        this.parseRecursive(cur);
        continue;
      }
      const r = this.next();
      if (r === EOF || isEndOfLine(r)) throw new JSONPathSyntaxError('unclosed action');
      if (r === ' ' || r === '@' || r === '$') this.consume();
      else if (r === '[') this.parseArray(cur);
      else if (r === '"' || r === "'") this.parseQuote(cur, r);
      else if (r === '.') this.parseField(cur);
      else if (r === '+' || r === '-' || isDigit(r)) {
        this.backup();
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        this.parseIdentifier(cur);
      } else throw new JSONPathSyntaxError(`unrecognized character in action: ${goRune(r)}`);
    }
  }

  private parseIdentifier(cur: JSONPathNode[]): void {
    for (;;) {
      const r = this.next();
      if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consume();
    if (value === 'true' || value === 'false') cur.push({ type: 'bool', value: value === 'true' });
    else cur.push({ type: 'identifier', name: value });
  }

  private parseRecursive(cur: JSONPathNode[]): void {
    if (cur.length > 0 && cur[cur.length - 1]!.type === 'recursive') throw new JSONPathSyntaxError('invalid multiple recursive descent');
    this.pos += 2;
    this.consume();
    cur.push({ type: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: JSONPathNode[]): void {
    const first = this.peek();
    if (first === '+' || first === '-') this.next();
    for (;;) {
      const r = this.next();
      if (r !== '.' && !isDigit(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consume();
    const i = goAtoi(value);
    if (i !== undefined) {
      cur.push({ type: 'int', value: i });
      return;
    }
    const f = goParseFloat(value);
    if (f === undefined) throw new JSONPathSyntaxError(`cannot parse number ${value}`);
    cur.push({ type: 'float', value: f });
  }

  private parseArray(cur: JSONPathNode[]): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JSONPathSyntaxError('unterminated array');
      if (r === ']') break;
    }
    let text = this.consume().slice(1, -1);
    if (text === '*') text = ':';
    const members = text.split(',');
    if (members.length > 1) {
      cur.push({ type: 'union', nodes: members.map((m) => parseAction(`[${m.replace(/^ +| +$/g, '')}]`)) });
      return;
    }
    const key = DICT_KEY.exec(text);
    if (key) {
      cur.push(...parseAction(`.${key[1]}`).nodes);
      return;
    }
    const slice = SLICE.exec(text);
    if (!slice) throw new JSONPathSyntaxError(`invalid array index ${text}`);
    cur.push({ type: 'array', params: sliceParams([slice[1] ?? '', slice[2] ?? '', slice[3] ?? '']) });
  }

  private parseFilter(cur: JSONPathNode[]): void {
    this.pos += 3;
    this.consume();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JSONPathSyntaxError('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')' && begin === end) break;
    }
    if (this.next() !== ']') throw new JSONPathSyntaxError('unclosed array expect ]');
    const text = this.consume().slice(0, -2);
    const m = COMPARISON.exec(text);
    if (!m) {
      cur.push({ type: 'filter', left: parseAction(text), right: list([]), operator: 'exists' });
      return;
    }
    cur.push({ type: 'filter', left: parseAction(m[1]!), right: parseAction(m[3]!), operator: m[2]! });
  }

  private parseQuote(cur: JSONPathNode[], end: string): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JSONPathSyntaxError('unterminated quoted string');
      if (r === end && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consume();
    const s = unquoteExtend(value);
    if (s === undefined) throw new JSONPathSyntaxError(`unquote string ${value} error invalid syntax`);
    cur.push({ type: 'text', text: s });
  }

  private parseField(cur: JSONPathNode[]): void {
    this.consume();
    while (this.advance());
    const value = this.consume();
    if (value === '*') cur.push({ type: 'wildcard' });
    else cur.push({ type: 'field', name: value.replaceAll('\\', '') });
  }

  /** Scans one rune of a field; false (and backs up) at an unescaped terminator. */
  private advance(): boolean {
    const r = this.next();
    if (r === '\\') this.next();
    else if (isTerminator(r)) {
      this.backup();
      return false;
    }
    return true;
  }
}

/** The three slice bounds from the regexp groups (`['1', ':3', '']`). */
function sliceParams(groups: [string, string, string]): [SliceParam, SliceParam, SliceParam] {
  const params: SliceParam[] = [];
  for (let i = 0; i < 3; i++) {
    let text = groups[i]!;
    if (text === '') {
      params.push(i === 1 ? { known: true, value: params[0]!.value + 1, derived: true } : { known: false, value: 0, derived: false });
      continue;
    }
    if (i > 0) text = text.slice(1);
    if (i > 0 && text === '') {
      params.push({ known: false, value: 0, derived: false });
      continue;
    }
    const value = goAtoi(text);
    if (value === undefined) throw new JSONPathSyntaxError(`array index ${text} is not a number`);
    params.push({ known: true, value, derived: false });
  }
  return params as [SliceParam, SliceParam, SliceParam];
}

/** Upstream `parseAction`: parses `{text}` and returns its (first) action. */
function parseAction(text: string): ListNode {
  return new Parser(`{${text}}`).parse().nodes[0] as ListNode;
}

/**
 * Parses a JSONPath template (`{.status.phase}`, `name: {.metadata.name}`). Throws
 * JSONPathSyntaxError with upstream's message (`unclosed action`, `unterminated array`,
 * `invalid array index x`, `unrecognized character in action: U+0023 '#'`, …).
 */
export function parseJSONPath(text: string): JSONPathTemplate {
  return { source: text, root: new Parser(text).parse() };
}
