/**
 * Recursive-descent parser of the label selector string syntax, with upstream error messages
 * (spec 000 § Collections; issue #4 item 6):
 *
 *   selector    ::= requirement ( "," requirement )*  |  ""
 *   requirement ::= "!" KEY | KEY [ ("in" | "notin") "(" values ")" | ("=" | "==" | "!=" | ">" | "<") VALUE ]
 *
 * `in` and `notin` are keywords only in operator position; elsewhere they are identifiers.
 */
import { fieldErrorString, invalid } from '../field-errors.js';
import { isQualifiedName } from '../validation/names.js';
import { SelectorParseError } from './errors.js';
import { lex, type Token, type TokenKind } from './lexer.js';
import { type Operator, Requirement } from './requirement.js';

const OPERATORS: Partial<Record<TokenKind, Operator>> = {
  in: 'in',
  notin: 'notin',
  '=': '=',
  '==': '==',
  '!=': '!=',
  '>': 'gt',
  '<': 'lt',
};
const OPERATOR_LIST = 'in, notin, =, ==, !=, gt, lt';

class Parser {
  private pos = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  /** The current token's kind outside operator position (`in`/`notin` read as identifiers). */
  private peekKind(): TokenKind {
    return valueKind(this.tokens[this.pos]!);
  }

  private peek(): Token {
    return this.tokens[this.pos]!;
  }

  private next(): Token {
    const t = this.tokens[this.pos]!;
    if (t.kind !== 'end') this.pos++;
    return t;
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const kind = this.peekKind();
      if (kind === 'end') return requirements;
      if (kind !== 'ident' && kind !== '!')
        throw new SelectorParseError(`found '${this.peek().literal}', expected: !, identifier, or 'end of string'`);
      requirements.push(this.requirement());
      const sep = this.next();
      if (sep.kind === 'end') return requirements;
      if (sep.kind !== ',') throw new SelectorParseError(`found '${sep.literal}', expected: ',' or 'end of string'`);
      const after = this.peekKind();
      if (after !== 'ident' && after !== '!')
        throw new SelectorParseError(`found '${this.peek().literal}', expected: identifier after ','`);
    }
  }

  private requirement(): Requirement {
    try {
      return this.requirementBody();
    } catch (e) {
      if (e instanceof SelectorParseError) throw new SelectorParseError(`unable to parse requirement: ${e.message}`);
      throw e;
    }
  }

  private requirementBody(): Requirement {
    let t = this.next();
    const negated = t.kind === '!';
    if (negated) t = this.next();
    if (valueKind(t) !== 'ident') throw new SelectorParseError(`found '${t.literal}', expected: identifier`);
    const key = t.literal;
    const keyErrs = isQualifiedName(key);
    // Upstream validates the key here against an unset field path, which it prints as `<nil>`.
    if (keyErrs.length > 0) throw new SelectorParseError(fieldErrorString(invalid('<nil>', key, keyErrs.join('; '))));
    if (negated) return new Requirement(key, '!', []);
    const la = this.peekKind();
    if (la === 'end' || la === ',') return new Requirement(key, 'exists', []);
    const opToken = this.next();
    const op = OPERATORS[opToken.kind];
    if (op === undefined) throw new SelectorParseError(`found '${opToken.literal}', expected: ${OPERATOR_LIST}`);
    const values = op === 'in' || op === 'notin' ? this.valueSet() : [this.exactValue()];
    return new Requirement(key, op, values);
  }

  /** `( a, b, … )`; empty entries stand for the empty value; returns sorted distinct values. */
  private valueSet(): string[] {
    const open = this.next();
    if (open.kind !== '(') throw new SelectorParseError(`found '${open.literal}' expected: '('`);
    const kind = this.peekKind();
    if (kind === ')') {
      this.next();
      return [''];
    }
    if (kind !== 'ident' && kind !== ',')
      throw new SelectorParseError(`found '${this.peek().literal}', expected: ',', ')' or identifier`);
    const values = this.valueList();
    this.next(); // the ')' valueList stopped at
    return [...values].sort();
  }

  private valueList(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const t = this.next();
      const kind = valueKind(t);
      if (kind === 'ident') {
        values.add(t.literal);
        const la = this.peekKind();
        if (la === ')') return values;
        if (la !== ',') throw new SelectorParseError(`found '${this.peek().literal}', expected: ',' or ')'`);
      } else if (kind === ',') {
        if (values.size === 0) values.add('');
        const la = this.peekKind();
        if (la === ')') {
          values.add('');
          return values;
        }
        if (la === ',') {
          this.next();
          values.add('');
        }
      } else {
        throw new SelectorParseError(`found '${t.literal}', expected: ',', or identifier`);
      }
    }
  }

  /** The value after `=`, `==`, `!=`, `>` or `<`; nothing before `,` or the end is the empty value. */
  private exactValue(): string {
    const la = this.peekKind();
    if (la === 'end' || la === ',') return '';
    const t = this.next();
    if (valueKind(t) !== 'ident') throw new SelectorParseError(`found '${t.literal}', expected: identifier`);
    return t.literal;
  }
}

function valueKind(t: Token): TokenKind {
  return t.kind === 'in' || t.kind === 'notin' ? 'ident' : t.kind;
}

/**
 * Parses a label selector string into its requirements, in input order. Throws
 * SelectorParseError with the upstream message, e.g.
 * `unable to parse requirement: found '', expected: in, notin, =, ==, !=, gt, lt`.
 */
export function parseRequirements(text: string): Requirement[] {
  return new Parser(lex(text)).parse();
}
