/**
 * The writer: the part of go-yaml v2's emitter (emitterc.go) that block-style JSON values go
 * through, from yaml_emitter_emit_block_sequence_item and _mapping_key down to the scalar writers
 * (yaml_emitter_write_plain_scalar, _single_quoted, _double_quoted, _literal) and write_indent.
 * It walks the value itself rather than a stream of events, and builds the output as strings
 * turned into Buffers every CHUNK characters.
 */
import { characters, codePointAt, codeWidth, isBreak, isPrintable } from './chars.js';
import { type SimpleKey, compareKeys, simpleKey } from './key-order.js';
import { DOUBLE_QUOTED, PLAIN, SINGLE_QUOTED, analyzeScalar, foldNextLines, goNumber, scalarStyle, scan } from './scalar-style.js';

/** The emitter's `best_width`: plain and quoted scalars fold at a space once past this column. */
const BEST_WIDTH = 80;

/** Characters of output kept as a string before they are encoded into a Buffer. */
const CHUNK = 1 << 16;

/** The value JSON.stringify would write for `v` (its toJSON result), undefined when it would skip it. */
export function jsonValue(v: unknown, key: string | number): unknown {
  if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    v = (v as { toJSON(key: string): unknown }).toJSON(String(key));
  }
  return typeof v === 'function' || typeof v === 'symbol' ? undefined : v;
}

/** The double-quoted style's escape for code point `c` (yaml_emitter_write_double_quoted_scalar). */
function escapeOf(c: number): string {
  switch (c) {
    case 0x00: return '\\0';
    case 0x07: return '\\a';
    case 0x08: return '\\b';
    case 0x09: return '\\t';
    case 0x0a: return '\\n';
    case 0x0b: return '\\v';
    case 0x0c: return '\\f';
    case 0x0d: return '\\r';
    case 0x1b: return '\\e';
    case 0x22: return '\\"';
    case 0x5c: return '\\\\';
    case 0x85: return '\\N';
    case 0xa0: return '\\_';
    case 0x2028: return '\\L';
    case 0x2029: return '\\P';
  }
  const hex = c.toString(16).toUpperCase();
  if (c <= 0xff) return `\\x${hex.padStart(2, '0')}`;
  if (c <= 0xffff) return `\\u${hex.padStart(4, '0')}`;
  return `\\U${hex.padStart(8, '0')}`;
}

/** The part of go-yaml's emitter (emitterc.go) that block-style JSON values go through. */
export class YAMLEmitter {
  /** Finished output, in pieces of about CHUNK characters turned into bytes as they fill. */
  private readonly chunks: Buffer[] = [];
  private out = '';
  private column = 0;
  private whitespace = true;
  private indention = true;
  private indent = -1;

  /** Ends the document and returns its bytes. */
  end(): Buffer {
    this.writeIndent();
    this.chunks.push(Buffer.from(this.out));
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
  }

  /** What was written so far, for a short piece (a key). */
  text(): string {
    return this.out;
  }

  /** The column the output has reached. */
  columnNow(): number {
    return this.column;
  }

  /** A node; `mapping`: it is a mapping's value (a block sequence there is not indented). */
  node(v: unknown, mapping: boolean): void {
    if (v === null || v === undefined) return this.plain('null');
    switch (typeof v) {
      case 'string':
        return this.string(v, false, true);
      case 'number':
        return this.plain(Number.isFinite(v) ? goNumber(v) : 'null');
      case 'boolean':
        return this.plain(v ? 'true' : 'false');
      case 'bigint':
        throw new TypeError('Do not know how to serialize a BigInt');
    }
    if (Array.isArray(v)) this.sequence(v, mapping);
    else this.mapping(v as Record<string, unknown>);
  }

  private sequence(items: unknown[], mapping: boolean): void {
    if (items.length === 0) {
      this.writeIndicator('[', true, true, false);
      this.writeIndicator(']', false, false, false);
      return;
    }
    const outer = this.indent;
    // yaml_emitter_emit_block_sequence_item: indentless right after a mapping key's `:`.
    if (outer < 0) this.indent = 0;
    else if (!mapping || this.indention) this.indent = outer + 2;
    for (let i = 0; i < items.length; i++) {
      const v = jsonValue(items[i], i);
      this.writeIndent();
      this.writeIndicator('-', true, false, true);
      this.node(v, false);
    }
    this.indent = outer;
  }

  private mapping(obj: Record<string, unknown>): void {
    let keys = Object.keys(obj);
    if (keys.some((k) => jsonValue(obj[k], k) === undefined)) keys = keys.filter((k) => jsonValue(obj[k], k) !== undefined);
    if (keys.length === 0) {
      this.writeIndicator('{', true, true, false);
      this.writeIndicator('}', false, false, false);
      return;
    }
    if (keys.length > 1) keys.sort(compareKeys);
    const outer = this.indent;
    this.indent = outer < 0 ? 0 : outer + 2;
    for (const key of keys) {
      const v = jsonValue(obj[key], key);
      this.writeIndent();
      const simple = simpleKey(key, renderSimpleKey);
      if (simple) {
        this.out += simple.text;
        this.column += simple.width;
        this.whitespace = false;
        this.indention = false;
        this.writeIndicator(':', false, false, false);
      } else {
        this.writeIndicator('?', true, false, true);
        this.string(key, false, false);
        this.writeIndent();
        this.writeIndicator(':', true, false, true);
      }
      this.node(v, true);
    }
    this.indent = outer;
  }

  private plain(text: string): void {
    if (!this.whitespace) text = ` ${text}`;
    this.out += text;
    this.column += text.length;
    this.whitespace = false;
    this.indention = false;
  }

  /**
   * yaml_emitter_emit_scalar for a string; `simpleKey`: it is a simple key (it then never folds);
   * `value`: it is a value, not a key (a NEL in a key makes upstream fail, so those are left be).
   */
  string(s: string, simpleKey: boolean, value: boolean): void {
    analyzeScalar(s);
    if (value && scan.nel) {
      s = foldNextLines(s);
      analyzeScalar(s);
    }
    const style = scalarStyle(s, simpleKey);
    const outer = this.indent;
    this.indent = outer < 0 ? 2 : outer + 2;
    const breaks = !simpleKey;
    if (style === PLAIN) this.writePlain(s, breaks);
    else if (style === SINGLE_QUOTED) this.writeSingleQuoted(s, breaks);
    else if (style === DOUBLE_QUOTED) this.writeDoubleQuoted(s, breaks);
    else this.writeLiteral(s);
    this.indent = outer;
  }

  /** Whether writing `width` more characters can pass the fold column (it then folds at a space). */
  private mayFold(allowBreaks: boolean): boolean {
    return allowBreaks && scan.spaces && this.column + scan.width > BEST_WIDTH + 1;
  }

  private putBreak(): void {
    this.out += '\n';
    this.column = 0;
    this.indention = true;
    if (this.out.length > CHUNK) {
      this.chunks.push(Buffer.from(this.out));
      this.out = '';
    }
  }

  private writeIndent(): void {
    const indent = this.indent < 0 ? 0 : this.indent;
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    if (this.column < indent) {
      this.out += ' '.repeat(indent - this.column);
      this.column = indent;
    }
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndicator(indicator: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) {
      this.out += ' ';
      this.column++;
    }
    this.out += indicator;
    this.column += indicator.length;
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  private writePlain(s: string, allowBreaks: boolean): void {
    if (!this.whitespace) {
      this.out += ' ';
      this.column++;
    }
    if (!this.mayFold(allowBreaks)) {
      this.out += s;
      this.column += scan.width;
    } else {
      let spaces = false;
      for (let i = 0; i < s.length; ) {
        const c = codePointAt(s, i);
        const w = codeWidth;
        if (c === 0x20) {
          if (!spaces && this.column > BEST_WIDTH && s.charCodeAt(i + 1) !== 0x20) this.writeIndent();
          else this.writeChar(' ');
          spaces = true;
        } else {
          this.writeChar(s.slice(i, i + w));
          this.indention = false;
          spaces = false;
        }
        i += w;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private writeSingleQuoted(s: string, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    if (!scan.quotes && !scan.multiline && !this.mayFold(allowBreaks)) {
      this.out += s;
      this.column += scan.width;
    } else {
      let spaces = false;
      let breaks = false;
      const n = s.length;
      for (let i = 0; i < n; ) {
        const c = codePointAt(s, i);
        const w = codeWidth;
        if (c === 0x20) {
          if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < n - 1 && s.charCodeAt(i + 1) !== 0x20) this.writeIndent();
          else this.writeChar(' ');
          spaces = true;
        } else if (isBreak(c)) {
          if (!breaks && c === 0x0a) this.putBreak();
          this.writeBreak(s.slice(i, i + w));
          this.indention = true;
          breaks = true;
        } else {
          if (breaks) this.writeIndent();
          if (c === 0x27) this.writeChar("'");
          this.writeChar(s.slice(i, i + w));
          this.indention = false;
          spaces = false;
          breaks = false;
        }
        i += w;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeDoubleQuoted(s: string, allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    if (!scan.escapes && !this.mayFold(allowBreaks)) {
      this.out += s;
      this.column += scan.width;
    } else {
      // go-yaml's is_bom looks at the string's first character, not the current one: after a
      // leading BOM every character is escaped.
      const bom = s.charCodeAt(0) === 0xfeff;
      let spaces = false;
      const n = s.length;
      for (let i = 0; i < n; ) {
        const c = codePointAt(s, i);
        const w = codeWidth;
        if (bom || !isPrintable(c) || isBreak(c) || c === 0x22 || c === 0x5c) {
          const escape = escapeOf(c);
          this.out += escape;
          this.column += escape.length;
          spaces = false;
        } else if (c === 0x20) {
          if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < n - 1) {
            this.writeIndent();
            if (s.charCodeAt(i + 1) === 0x20) this.writeChar('\\');
          } else {
            this.writeChar(' ');
          }
          spaces = true;
        } else {
          this.writeChar(s.slice(i, i + w));
          spaces = false;
        }
        i += w;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeLiteral(s: string): void {
    this.writeIndicator('|', true, false, false);
    // yaml_emitter_write_block_scalar_hints
    const first = s.charCodeAt(0);
    if (first === 0x20 || isBreak(first)) this.writeIndicator('2', false, false, false);
    const lastAt = s.length - 1 - (s.length > 1 && s.charCodeAt(s.length - 1) >= 0xdc00 && s.charCodeAt(s.length - 1) <= 0xdfff ? 1 : 0);
    if (!isBreak(s.charCodeAt(lastAt))) this.writeIndicator('-', false, false, false);
    else if (lastAt === 0 || isBreak(s.charCodeAt(lastAt - 1))) this.writeIndicator('+', false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    if (!scan.otherBreaks) {
      const lines = s.split('\n');
      for (let k = 0; k < lines.length; k++) {
        if (k > 0) this.putBreak();
        const line = lines[k];
        if (line.length === 0) continue;
        this.writeIndent();
        this.out += line;
        this.column += characters(line);
        this.indention = false;
      }
      return;
    }
    let breaks = true;
    for (let i = 0; i < s.length; ) {
      const c = codePointAt(s, i);
      const w = codeWidth;
      if (isBreak(c)) {
        this.writeBreak(s.slice(i, i + w));
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.writeChar(s.slice(i, i + w));
        this.indention = false;
        breaks = false;
      }
      i += w;
    }
  }

  private writeChar(ch: string): void {
    this.out += ch;
    this.column++;
  }

  /** write_break: a line feed is the emitter's line break, any other break is copied. */
  private writeBreak(ch: string): void {
    if (ch === '\n') {
      this.putBreak();
    } else {
      this.out += ch;
      this.column = 0;
      this.indention = true;
    }
  }
}

/** `key` written as a simple key by a fresh emitter: its text and the columns it takes. */
function renderSimpleKey(key: string): SimpleKey {
  const e = new YAMLEmitter();
  e.string(key, true, false);
  return { text: e.text(), width: e.columnNow() };
}
