/**
 * A small reader for protobuf text format, enough for the CEL conformance data: messages as
 * `name { … }` / `name: { … }` / `name < … >`, scalars as `name: value`, repeated fields by
 * repetition or `[a, b]`, quoted strings with C escapes (adjacent strings concatenate), numbers,
 * identifiers and `#` comments. Strings are kept as bytes.
 */

/** A scalar: a quoted string (its bytes), a number token or an identifier. */
export type Scalar = { readonly kind: 'string'; readonly bytes: Uint8Array } | { readonly kind: 'number' | 'ident'; readonly text: string };

/** A field value. */
export type FieldValue = Scalar | Message;

/** A message: each field name maps to its values in order. */
export class Message {
  readonly fields = new Map<string, FieldValue[]>();

  add(name: string, value: FieldValue): void {
    const list = this.fields.get(name);
    if (list) list.push(value);
    else this.fields.set(name, [value]);
  }

  /** All values of a field. */
  all(name: string): FieldValue[] {
    return this.fields.get(name) ?? [];
  }

  /** The last value of a field (proto3 semantics for a repeated singular field). */
  one(name: string): FieldValue | undefined {
    const list = this.fields.get(name);
    return list?.[list.length - 1];
  }

  /** A sub-message field. */
  msg(name: string): Message | undefined {
    const v = this.one(name);
    return v instanceof Message ? v : undefined;
  }

  /** A string field decoded as UTF-8. */
  str(name: string): string | undefined {
    const v = this.one(name);
    return v && !(v instanceof Message) && v.kind === 'string' ? Buffer.from(v.bytes).toString('utf8') : undefined;
  }

  /** A number or identifier field's text. */
  token(name: string): string | undefined {
    const v = this.one(name);
    return v && !(v instanceof Message) && v.kind !== 'string' ? v.text : undefined;
  }

  has(name: string): boolean {
    return this.fields.has(name);
  }
}

const SIMPLE_ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '\\': 92, "'": 39, '"': 34, '?': 63 };

class Reader {
  private pos = 0;
  constructor(private readonly text: string) {}

  private skip(): void {
    for (;;) {
      while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
      if (this.text[this.pos] !== '#') return;
      while (this.pos < this.text.length && this.text[this.pos] !== '\n') this.pos++;
    }
  }

  private fail(what: string): never {
    const line = this.text.slice(0, this.pos).split('\n').length;
    throw new Error(`textproto: ${what} at line ${line}`);
  }

  peek(): string | undefined {
    this.skip();
    return this.text[this.pos];
  }

  private eat(ch: string): boolean {
    if (this.peek() !== ch) return false;
    this.pos++;
    return true;
  }

  message(end: string | undefined): Message {
    const m = new Message();
    for (;;) {
      const c = this.peek();
      if (c === undefined) {
        if (end !== undefined) this.fail(`missing '${end}'`);
        return m;
      }
      if (c === end) {
        this.pos++;
        return m;
      }
      const name = this.identifier();
      const colon = this.eat(':');
      const next = this.peek();
      if (next === '{' || next === '<') {
        this.pos++;
        m.add(name, this.message(next === '{' ? '}' : '>'));
      } else if (!colon) {
        this.fail(`expected ':' after ${name}`);
      } else if (next === '[') {
        this.pos++;
        while (!this.eat(']')) {
          m.add(name, this.value());
          this.eat(',');
        }
      } else {
        m.add(name, this.value());
      }
      if (!this.eat(',')) this.eat(';');
    }
  }

  private value(): FieldValue {
    const c = this.peek();
    if (c === '{' || c === '<') {
      this.pos++;
      return this.message(c === '{' ? '}' : '>');
    }
    if (c === '"' || c === "'") {
      const parts: number[] = [];
      while (this.peek() === '"' || this.peek() === "'") parts.push(...this.quoted());
      return { kind: 'string', bytes: Uint8Array.from(parts) };
    }
    const m = /^[-+]?(?:[0-9][0-9a-zA-Z_.+-]*|(?:inf(?:inity)?|nan)(?![A-Za-z0-9_]))|^[A-Za-z_][A-Za-z0-9_.]*/i.exec(this.text.slice(this.pos));
    if (!m) this.fail('expected a value');
    this.pos += m[0].length;
    return { kind: /^[-+]?[0-9]/.test(m[0]) || /^[-+]?(inf|nan)/i.test(m[0]) ? 'number' : 'ident', text: m[0] };
  }

  private identifier(): string {
    const m = /^\[?[A-Za-z_][A-Za-z0-9_./]*\]?/.exec(this.text.slice(this.pos));
    if (!m) this.fail('expected a field name');
    this.pos += m[0].length;
    return m[0];
  }

  private quoted(): number[] {
    const quote = this.text[this.pos++]!;
    const out: number[] = [];
    for (;;) {
      const c = this.text[this.pos++];
      if (c === undefined || c === '\n') this.fail('unterminated string');
      if (c === quote) return out;
      if (c !== '\\') {
        const cp = c.codePointAt(0)!;
        const ch = String.fromCodePoint(cp);
        if (ch.length === 2) this.pos++;
        out.push(...Buffer.from(ch, 'utf8'));
        continue;
      }
      const e = this.text[this.pos++]!;
      if (e in SIMPLE_ESCAPES) {
        out.push(SIMPLE_ESCAPES[e]!);
      } else if (e === 'x' || e === 'X') {
        const hex = /^[0-9a-fA-F]{1,2}/.exec(this.text.slice(this.pos))![0];
        this.pos += hex.length;
        out.push(parseInt(hex, 16));
      } else if (e === 'u' || e === 'U') {
        const n = e === 'u' ? 4 : 8;
        const cp = parseInt(this.text.slice(this.pos, this.pos + n), 16);
        this.pos += n;
        out.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
      } else if (/[0-7]/.test(e)) {
        const oct = /^[0-7]{0,2}/.exec(this.text.slice(this.pos))![0];
        this.pos += oct.length;
        out.push(parseInt(e + oct, 8) & 0xff);
      } else {
        this.fail(`unknown escape \\${e}`);
      }
    }
  }
}

/** Parses a text-format message (a whole file). Throws Error with the line on malformed input. */
export function parseTextproto(text: string): Message {
  return new Reader(text).message(undefined);
}
