/**
 * Checks that bytes hold a JSON object the way decoding into a Go `map[string]interface{}` does,
 * returning Go's error text (`invalid character 'x' looking for beginning of value`,
 * `unexpected end of JSON input`, `json: cannot unmarshal array into Go value of type …`).
 * Used where upstream validation reports the decoder's error verbatim (docker config secrets).
 */

class SyntaxProblem extends Error {}

const END = 'unexpected end of JSON input';

function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return `'"'`;
  return `'${JSON.stringify(c).slice(1, -1)}'`;
}

class Scanner {
  private i = 0;
  constructor(private readonly s: string) {}

  private fail(what: string): never {
    if (this.i >= this.s.length) throw new SyntaxProblem(END);
    throw new SyntaxProblem(`invalid character ${quoteChar(this.s[this.i]!)} ${what}`);
  }

  private ws(): void {
    while (this.i < this.s.length && ' \t\r\n'.includes(this.s[this.i]!)) this.i++;
  }

  private peek(): string | undefined {
    return this.s[this.i];
  }

  /** Scans one value and returns its kind in Go's words (`object`, `array`, `string`, `number`, `bool`, `null`). */
  value(): string {
    this.ws();
    const c = this.peek();
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const lit of ['true', 'false', 'null']) {
      if (c === lit[0]) {
        this.i++;
        for (let k = 1; k < lit.length; k++, this.i++) {
          if (this.peek() !== lit[k]) this.fail(`in literal ${lit} (expecting '${lit[k]}')`);
        }
        return lit === 'null' ? 'null' : 'bool';
      }
    }
    return this.fail('looking for beginning of value');
  }

  private object(): string {
    this.i++;
    this.ws();
    if (this.peek() === '}') {
      this.i++;
      return 'object';
    }
    for (;;) {
      this.ws();
      if (this.peek() !== '"') this.fail('looking for beginning of object key string');
      this.string();
      this.ws();
      if (this.peek() !== ':') this.fail('after object key');
      this.i++;
      this.value();
      this.ws();
      if (this.peek() === ',') {
        this.i++;
        continue;
      }
      if (this.peek() === '}') {
        this.i++;
        return 'object';
      }
      this.fail('after object key:value pair');
    }
  }

  private array(): string {
    this.i++;
    this.ws();
    if (this.peek() === ']') {
      this.i++;
      return 'array';
    }
    for (;;) {
      this.value();
      this.ws();
      if (this.peek() === ',') {
        this.i++;
        continue;
      }
      if (this.peek() === ']') {
        this.i++;
        return 'array';
      }
      this.fail('after array element');
    }
  }

  private string(): string {
    this.i++;
    for (;;) {
      const c = this.peek();
      if (c === undefined) this.fail('in string literal');
      if (c === '"') {
        this.i++;
        return 'string';
      }
      if (c < ' ') this.fail('in string literal');
      if (c === '\\') {
        this.i++;
        const e = this.peek();
        if (e === 'u') {
          this.i++;
          for (let k = 0; k < 4; k++, this.i++) if (!/[0-9a-fA-F]/.test(this.peek() ?? '')) this.fail('in \\u hexadecimal character escape');
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) this.fail('in string escape code');
      }
      this.i++;
    }
  }

  private digits(what: string): void {
    if (!/[0-9]/.test(this.peek() ?? '')) this.fail(what);
    while (/[0-9]/.test(this.peek() ?? '')) this.i++;
  }

  private number(): string {
    if (this.peek() === '-') this.i++;
    if (this.peek() === '0') this.i++;
    else this.digits('in numeric literal');
    if (this.peek() === '.') {
      this.i++;
      this.digits('after decimal point in numeric literal');
    }
    if (this.peek() === 'e' || this.peek() === 'E') {
      this.i++;
      if (this.peek() === '+' || this.peek() === '-') this.i++;
      this.digits('in exponent of numeric literal');
    }
    return 'number';
  }

  /** Scans the whole input as one value followed only by white space. */
  document(): string {
    const kind = this.value();
    this.ws();
    if (this.i < this.s.length) this.fail('after top-level value');
    return kind;
  }
}

/** Go's error for decoding `data` into a map, or undefined when it decodes (an object or `null`). */
export function jsonObjectError(data: Uint8Array): string | undefined {
  let kind: string;
  try {
    kind = new Scanner(Buffer.from(data).toString('utf8')).document();
  } catch (e) {
    if (e instanceof SyntaxProblem) return e.message;
    throw e;
  }
  if (kind === 'object' || kind === 'null') return undefined;
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}
