/**
 * Tokenizer of the label selector string syntax (spec 000 § Collections; issue #4 item 6).
 * Whitespace is space, tab, CR and LF; the symbols are `= == != ! ( ) , > <`; every other run of
 * characters is an identifier, except the keywords `in` and `notin`.
 */

/** Token kinds; `end` is the end of the input (its literal is the empty string). */
export type TokenKind = 'end' | 'ident' | 'in' | 'notin' | '(' | ')' | ',' | '!' | '=' | '==' | '!=' | '>' | '<';

/** One token and the text it was read from. */
export interface Token {
  readonly kind: TokenKind;
  readonly literal: string;
}

const END: Token = { kind: 'end', literal: '' };
const SYMBOLS: Readonly<Record<string, Token>> = {
  '(': { kind: '(', literal: '(' },
  ')': { kind: ')', literal: ')' },
  ',': { kind: ',', literal: ',' },
  '!': { kind: '!', literal: '!' },
  '=': { kind: '=', literal: '=' },
  '>': { kind: '>', literal: '>' },
  '<': { kind: '<', literal: '<' },
  '==': { kind: '==', literal: '==' },
  '!=': { kind: '!=', literal: '!=' },
};

function isWhitespace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

function isSymbol(c: string): boolean {
  return c === '=' || c === '!' || c === '(' || c === ')' || c === ',' || c === '>' || c === '<';
}

/**
 * Splits `text` into tokens, always ending with an `end` token. Symbols are read greedily
 * (`!=` and `==` are single tokens; `>=` is `>` then `=`). Never throws.
 */
export function lex(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  for (;;) {
    while (i < n && isWhitespace(text[i]!)) i++;
    if (i >= n) break;
    const c = text[i]!;
    if (isSymbol(c)) {
      const pair = (c === '=' || c === '!') && text[i + 1] === '=';
      tokens.push(SYMBOLS[pair ? `${c}=` : c]!);
      i += pair ? 2 : 1;
      continue;
    }
    const start = i;
    while (i < n && !isSymbol(text[i]!) && !isWhitespace(text[i]!)) i++;
    const literal = text.slice(start, i);
    const kind = literal === 'in' || literal === 'notin' ? literal : 'ident';
    tokens.push({ kind, literal });
  }
  tokens.push(END);
  return tokens;
}
