/**
 * Field selectors: the `fieldSelector` query parameter (`a=b`, `a==b`, `a!=b`, comma = AND, with
 * `\,` `\=` `\\` escapes in values), parsed into an immutable FieldSelector.
 * spec 000 § Collections (list and watch parameters); issue #4 item 6, issue #2 item 6.
 */
import { escapeValue, unescapeValue } from './escape.js';
import { FieldSelectorError } from './errors.js';

export { escapeValue, unescapeValue } from './escape.js';
export { FieldSelectorError } from './errors.js';

/** One term: `field=value` or `field!=value` (`==` is read as `=`). */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** A resource's selectable fields of one object, e.g. `{'metadata.name': 'x', 'status.phase': 'Running'}`. */
export type Fields = Readonly<Record<string, string>>;

/** Renames or rewrites one term; may throw (e.g. FieldSelectorError for an unsupported field). */
export type FieldTransform = (field: string, value: string) => { field: string; value: string };

/** An immutable conjunction of field terms (upstream `fields.Selector`). */
export class FieldSelector {
  private static readonly EVERYTHING = new FieldSelector([]);

  private constructor(
    /** The terms, ANDed, in the order of their sorted source text. */
    readonly requirements: readonly FieldRequirement[],
  ) {}

  /** The selector matching every object (also what the empty string parses to). */
  static everything(): FieldSelector {
    return FieldSelector.EVERYTHING;
  }

  /** A selector ANDing `requirements`, kept in the given order. */
  static of(requirements: readonly FieldRequirement[]): FieldSelector {
    return requirements.length === 0 ? FieldSelector.EVERYTHING : new FieldSelector(Object.freeze([...requirements]));
  }

  /** True when every term holds; a field missing from `fields` reads as the empty string. */
  matches(fields: Fields): boolean {
    const reqs = this.requirements;
    for (let i = 0; i < reqs.length; i++) {
      const r = reqs[i]!;
      const v = fields[r.field];
      const actual = typeof v === 'string' ? v : '';
      if ((actual === r.value) !== (r.operator === '=')) return false;
    }
    return true;
  }

  /** True when the selector has no terms. */
  empty(): boolean {
    return this.requirements.length === 0;
  }

  /** The value of the first `=` term on `field`, else undefined. Useful to index lookups. */
  requiresExactMatch(field: string): string | undefined {
    for (const r of this.requirements) if (r.field === field && r.operator === '=') return r.value;
    return undefined;
  }

  /**
   * Applies `fn` to every term, in order, and returns the new selector; a term transformed to an
   * empty field and an empty value is dropped (upstream `Transform`). Errors thrown by `fn`
   * propagate.
   */
  transform(fn: FieldTransform): FieldSelector {
    const next: FieldRequirement[] = [];
    for (const r of this.requirements) {
      const { field, value } = fn(r.field, r.value);
      if (field !== '' || value !== '') next.push({ field, operator: r.operator, value });
    }
    return FieldSelector.of(next);
  }

  /** Canonical text: `field=value` / `field!=value` terms joined by `,`, values escaped. */
  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeValue(r.value)}`).join(',');
  }
}

/** Splits at commas not preceded by an escaping backslash; escapes stay in the parts. */
function splitTerms(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x2c) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** Orders strings by code point (= UTF-8 byte order, as upstream sorts). */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Maps a UTF-16 code unit so that surrogates sort above U+E000–U+FFFF, as their code points do. */
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

/**
 * Parses the `fieldSelector` syntax. Terms are split at unescaped commas and sorted; each splits
 * at its first `!=`, `==` or `=` (so the field part cannot contain them). Throws
 * FieldSelectorError with the upstream message: `invalid selector: '<text>'; can't understand
 * '<term>'` for a term without an operator, `invalid field selector: invalid escape sequence: \x`
 * or `invalid field selector: unescaped character in value: 61` for a bad value.
 */
export function parseFieldSelector(text: string): FieldSelector {
  if (text === '') return FieldSelector.everything();
  const parts = splitTerms(text).sort(compareCodePoints);
  const requirements: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const m = splitTerm(part);
    if (m === undefined) throw new FieldSelectorError(`invalid selector: '${text}'; can't understand '${part}'`);
    requirements.push({ field: part.slice(0, m.start), operator: m.operator, value: unescapeValue(part.slice(m.end)) });
  }
  return FieldSelector.of(requirements);
}

function splitTerm(part: string): { start: number; end: number; operator: '=' | '!=' } | undefined {
  for (let i = 0; i < part.length; i++) {
    const c = part[i];
    if (c === '!' && part[i + 1] === '=') return { start: i, end: i + 2, operator: '!=' };
    if (c === '=') return { start: i, end: part[i + 1] === '=' ? i + 2 : i + 1, operator: '=' };
  }
  return undefined;
}

/**
 * Throws FieldSelectorError for the first term whose field is not in `supported` (upstream field
 * label conversion; 400 for list and watch): `field label not supported: <field>`, or with
 * `defaultConversion` (kinds without a conversion function of their own: custom resources) the
 * words of upstream's default one, `"<field>" is not a known field selector: only
 * "metadata.name", "metadata.namespace"`.
 */
export function checkSupportedFields(selector: FieldSelector, supported: ReadonlySet<string>, defaultConversion = false): void {
  for (const r of selector.requirements) {
    if (supported.has(r.field)) continue;
    if (defaultConversion) throw new FieldSelectorError(`"${r.field}" is not a known field selector: only "metadata.name", "metadata.namespace"`);
    throw new FieldSelectorError(`field label not supported: ${r.field}`);
  }
}
