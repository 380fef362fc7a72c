/**
 * The `fieldPath` of a validation rule (upstream apiextensions-apiserver
 * pkg/apiserver/schema/cel `ValidFieldPath`): a relative JSON path of field and map accessors,
 * `.spec.x`, `.labels.app`, `['a.b']`, resolved against the schema node the rule sits on.
 * Numeric list indexes are not allowed.
 */
import { SIMPLE_ESCAPES } from '../../apimachinery/jsonpath/unquote.js';
import type { JSONSchemaProps } from '../types.js';

/** A resolved path: the field-path text upstream prints (`spec.x`, `labels[app]`) and its schema. */
export interface ResolvedFieldPath {
  readonly path: string;
  readonly schema: JSONSchemaProps | undefined;
}

/**
 * Unescapes the inside of a single-quoted literal (upstream `UnescapeSingleQuote`): Go's one-letter
 * escapes, `\\` and `\'` only (no `\x`, `\u` or octal, unlike JSONPath literals); a trailing
 * backslash stays. Throws Error on another escape.
 */
function unescapeSingleQuote(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const next = s[i + 1]!;
    const replacement = next === "'" ? next : SIMPLE_ESCAPES[next];
    if (replacement === undefined) throw new Error(`invalid escape char \\${next}`);
    out += replacement;
    i++;
  }
  return out;
}

/** Splits into tokens: the delimiters `.`, `[`, `]` alone, quoted strings whole, text between. */
function tokenize(path: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i]!;
    if (c === '\'') {
      let j = i + 1;
      while (j < path.length && !(path[j] === '\'' && path[j - 1] !== '\\')) j++;
      tokens.push(path.slice(i, Math.min(j + 1, path.length)));
      i = j + 1;
      continue;
    }
    if (c === '.' || c === '[' || c === ']') {
      tokens.push(c);
      i++;
      continue;
    }
    let j = i;
    while (j < path.length && path[j] !== '.' && path[j] !== '[' && path[j] !== ']') j++;
    tokens.push(path.slice(i, j));
    i = j;
  }
  return tokens;
}

/**
 * Resolves `jsonPath` against `schema`. Returns the resolved path, or throws Error with
 * upstream's reason (`does not refer to a valid field`, `unexpected end of JSON path`,
 * `expected single quoted string but got 0`, `expected [ or . but got: x`).
 */
export function resolveFieldPath(jsonPath: string, schema: JSONSchemaProps): ResolvedFieldPath {
  let text = '';
  let current: JSONSchemaProps | undefined = schema;
  const step = (name: string): void => {
    if (current?.properties) {
      text = text === '' ? name : `${text}.${name}`;
      const next: JSONSchemaProps | undefined = Object.prototype.hasOwnProperty.call(current.properties, name) ? current.properties[name] : undefined;
      if (!next) throw new Error('does not refer to a valid field');
      current = next;
    } else if (current?.additionalProperties !== undefined && current.additionalProperties !== false) {
      text = `${text}[${name}]`;
      current = typeof current.additionalProperties === 'object' ? current.additionalProperties : undefined;
    } else {
      throw new Error('does not refer to a valid field');
    }
  };
  const tokens = tokenize(jsonPath);
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (tok === '[') {
      const quoted = tokens[++i];
      if (quoted === undefined) throw new Error('unexpected end of JSON path');
      if (quoted.length < 2 || !quoted.startsWith('\'') || !quoted.endsWith('\'')) {
        throw new Error(`expected single quoted string but got ${quoted}`);
      }
      let name: string;
      try {
        name = unescapeSingleQuote(quoted.slice(1, -1));
      } catch (err) {
        throw new Error(`invalid string literal: ${(err as Error).message}`, { cause: err });
      }
      step(name);
      const close = tokens[++i];
      if (close === undefined) throw new Error('unexpected end of JSON path');
      if (close !== ']') throw new Error(`expected ] but got ${close}`);
    } else if (tok === '.') {
      const name = tokens[++i];
      if (name === undefined) throw new Error('unexpected end of JSON path');
      step(name);
    } else {
      throw new Error(`expected [ or . but got: ${tok}`);
    }
  }
  return { path: text, schema: current };
}

/** Whether `jsonPath` resolves against `schema` (the CRD-write check). */
export function isValidFieldPath(jsonPath: string, schema: JSONSchemaProps): boolean {
  try {
    resolveFieldPath(jsonPath, schema);
    return true;
  } catch {
    return false;
  }
}
