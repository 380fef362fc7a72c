/**
 * go-yaml v2's wording (the parser under upstream's sigs.k8s.io/yaml) for a YAML body our parser
 * (the `yaml` package) refused: `yaml: line N: <problem>`. The two parsers find the same faults
 * differently, so this maps each of our parser's error codes to the libyaml problem that fault
 * raises and computes the line as go-yaml prints it: a scanner error names the 1-based line of
 * the fault, a parser error the 0-based one (go-yaml's `parser.fail`), and a fault on the first
 * line names none. Exact for the common faults (tabs, reserved characters, unterminated quotes
 * and flow collections, bad escapes, `mapping values are not allowed`, misindented keys, unknown
 * aliases); other faults get the nearest libyaml problem. Pure.
 */
import type { YAMLError } from 'yaml';

/** The message of a fault that go-yaml reports without a position: `yaml: <problem>`. */
export function goYAMLMessage(problem: string): string {
  return `yaml: ${problem}`;
}

/** libyaml's line breaks: LF, CR, CR LF, NEL, LS, PS. */
function isBreakAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x0d) return text.charCodeAt(i + 1) === 0x0a ? 2 : 1;
  if (c === 0x0a || c === 0x85 || c === 0x2028 || c === 0x2029) return 1;
  return 0;
}

/** The 0-based line of offset `pos`, counted as libyaml counts. */
export function lineOf(text: string, pos: number): number {
  let line = 0;
  const end = Math.min(pos, text.length);
  for (let i = 0; i < end; ) {
    const n = isBreakAt(text, i);
    if (n > 0) {
      line++;
      i += n;
    } else i++;
  }
  return line;
}

/** Offset where the line holding `pos` starts. */
function lineStart(text: string, pos: number): number {
  let i = Math.min(pos, text.length);
  while (i > 0 && !isBreakAt(text, i - 1)) i--;
  return i;
}

/** `yaml: line N: problem` for a scanner error at `pos` (1-based line; none on the first line). */
function scannerError(text: string, pos: number, problem: string): string {
  const line = lineOf(text, pos);
  return goYAMLMessage(line === 0 ? problem : `line ${line + 1}: ${problem}`);
}

/** `yaml: line N: problem` for a parser error at `pos` (0-based line; none on the first line). */
function parserError(text: string, pos: number, problem: string): string {
  const line = lineOf(text, pos);
  return goYAMLMessage(line === 0 ? problem : `line ${line}: ${problem}`);
}

function isBlank(c: string | undefined): boolean {
  return c === undefined || c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

/** Offset of the first `:` followed by a blank (a mapping value indicator) at or after `from`, or -1. */
function nextValueIndicator(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (text[i] === ':' && isBlank(text[i + 1])) return i;
  return -1;
}

/** Indentation of the line starting at `start` and the offset of its first non-space character. */
function indentation(text: string, start: number): { col: number; first: number } {
  let i = start;
  while (text[i] === ' ') i++;
  return { col: i - start, first: i };
}

/** The earlier non-blank, non-comment lines before the line starting at `start`, nearest first. */
function* earlierLines(text: string, start: number): Generator<{ col: number; first: number }> {
  for (let s = start; s > 0; ) {
    s = lineStart(text, s - 1);
    const line = indentation(text, s);
    const ch = text[line.first];
    if (ch === undefined || isBreakAt(text, line.first) || ch === '#') continue;
    yield line;
  }
}

function isEntry(text: string, first: number): boolean {
  return text[first] === '-' && isBlank(text[first + 1]);
}

/**
 * Whether the block collection a misplaced line at column `col` falls in is a sequence: the
 * nearest earlier line indented at most `col` is a `- ` entry, of a sequence indented past its
 * key (an indentless one, `- ` at its key's column, ends where a key is expected). libyaml then
 * asks for the `-` indicator; in a mapping it asks for a key.
 */
function inBlockSequence(text: string, pos: number, col: number): boolean {
  let entryCol = -1;
  for (const { col: c, first } of earlierLines(text, lineStart(text, pos))) {
    if (entryCol < 0) {
      if (c > col) continue;
      if (!isEntry(text, first)) return false;
      entryCol = c;
    } else if (c < entryCol || (c === entryCol && !isEntry(text, first))) return c < entryCol;
  }
  return entryCol >= 0;
}

/** `did not find expected key` or `… '-' indicator` for a line libyaml finds misplaced in a block collection. */
function misplacedInBlock(text: string, pos: number): string {
  // Our parser may point at the line break before the misplaced token; libyaml at the token.
  const start = lineStart(text, nextNonBlank(text, pos));
  const { col, first } = indentation(text, start);
  return parserError(text, first, inBlockSequence(text, first, col) ? "did not find expected '-' indicator" : 'did not find expected key');
}

/**
 * An unterminated flow collection: libyaml reads on (a plain scalar in a flow collection spans
 * lines) until a `:` whose entry began on an earlier line, or the end of the input; there it
 * misses the `,` or the closing bracket.
 */
function unterminatedFlow(text: string, pos: number, close: ']' | '}'): string {
  for (let colon = nextValueIndicator(text, pos); colon >= 0; colon = nextValueIndicator(text, colon + 1)) {
    let sep = colon - 1;
    while (sep >= 0 && !',[{'.includes(text[sep]!)) sep--;
    let entry = sep + 1;
    while (entry < colon && isBlank(text[entry])) entry++;
    if (lineOf(text, entry) !== lineOf(text, colon)) return parserError(text, colon, `did not find expected ',' or '${close}'`);
  }
  return parserError(text, text.length, `did not find expected ',' or '${close}'`);
}

/** A tab where an indentation is read: after a plain scalar it breaks the scalar's indentation. */
function tabError(text: string, pos: number): string {
  let i = lineStart(text, pos) - 1;
  while (i >= 0 && (isBlank(text[i]) || isBreakAt(text, i))) i--;
  const prev = text[i];
  const afterScalar = prev !== undefined && !':-[{,|>'.includes(prev);
  return scannerError(text, pos, afterScalar ? 'found a tab character that violates indentation' : 'found character that cannot start any token');
}

/**
 * A key that spans lines: where the key is one of several at its column libyaml requires it to be
 * a key (`could not find expected ':'`), else it reads on and finds a `:` where none may be.
 */
function multilineKey(text: string, err: YAMLError): string {
  const [from, to] = err.pos;
  const start = lineStart(text, from);
  const { col, first } = indentation(text, start);
  if (first === from && text[from] === '-' && isBlank(text[from + 1])) return misplacedInBlock(text, from);
  let required = false;
  for (const { col: c } of earlierLines(text, start)) {
    if (c < col) break;
    if (c === col) {
      required = true;
      break;
    }
  }
  const colon = Math.max(to, from);
  return scannerError(text, colon, required ? "could not find expected ':'" : 'mapping values are not allowed in this context');
}

/** An unexpected token: a value missing before it, or something after a complete value. */
function unexpectedToken(text: string, err: YAMLError): string {
  const pos = err.pos[0];
  const ch = text[pos];
  if (ch === ']' || ch === '}') {
    let i = pos - 1;
    while (i >= 0 && isBlank(text[i])) i--;
    if (i < 0 || text[i] === ':' || text[i] === '-' || text[i] === ',' || text[i] === '[' || text[i] === '{') return parserError(text, pos, 'did not find expected node content');
    return parserError(text, pos, 'did not find expected key');
  }
  return misplacedInBlock(text, pos);
}

/** go-yaml's message for the first error (`err`) of those (`all`) our parser found in `text`. */
export function goYAMLError(text: string, err: YAMLError, all: readonly YAMLError[] = [err]): string {
  const pos = err.pos[0];
  // A quoted scalar left open runs to the end of the input in libyaml, whatever our parser
  // reported first about the lines it swallowed.
  if (all.some((e) => e.code === 'MISSING_CHAR' && /closing .?quote/.test(e.message))) return scannerError(text, text.length, 'found unexpected end of stream');
  switch (err.code) {
    case 'TAB_AS_INDENT':
      return tabError(text, pos);
    case 'BAD_SCALAR_START':
      return scannerError(text, pos, 'found character that cannot start any token');
    case 'BLOCK_AS_IMPLICIT_KEY': {
      // A `- ` entry where a mapping key belongs.
      if (/block sequence/.test(err.message)) return misplacedInBlock(text, pos);
      const colon = nextValueIndicator(text, pos);
      return scannerError(text, colon < 0 ? pos : colon, 'mapping values are not allowed in this context');
    }
    case 'MULTILINE_IMPLICIT_KEY':
    case 'KEY_OVER_1024_CHARS':
      return multilineKey(text, err);
    case 'BAD_DQ_ESCAPE':
      return scannerError(text, pos, /\\[xuU]/.test(err.message) ? 'did not find expected hexdecimal number' : 'found unknown escape character');
    case 'BAD_INDENT':
    case 'MISSING_CHAR':
      if (/quote/.test(err.message)) return scannerError(text, text.length, 'found unexpected end of stream');
      if (/Flow sequence/.test(err.message)) return unterminatedFlow(text, pos, ']');
      if (/Flow map/.test(err.message)) return unterminatedFlow(text, pos, '}');
      // A key without a value: libyaml notices once the next token starts on a later line.
      if (/followed by map values/.test(err.message)) return scannerError(text, nextNonBlank(text, lineEnd(text, pos)), "could not find expected ':'");
      return misplacedInBlock(text, pos);
    case 'UNEXPECTED_TOKEN':
      return unexpectedToken(text, err);
    default:
      return misplacedInBlock(text, pos);
  }
}

/** Offset of the line break ending the line that holds `pos` (the end of the text on the last line). */
function lineEnd(text: string, pos: number): number {
  let i = pos;
  while (i < text.length && !isBreakAt(text, i)) i++;
  return i;
}

/** Offset of the first non-blank character at or after `pos` (the end when there is none). */
function nextNonBlank(text: string, pos: number): number {
  let i = pos;
  while (i < text.length && (isBlank(text[i]) || isBreakAt(text, i))) i++;
  return i;
}

/** go-yaml's message for an error our parser raised while building values (aliases). */
export function goYAMLValueError(err: Error): string | undefined {
  const unresolved = /^Unresolved alias \(the anchor must be set before the alias\): (.*)$/.exec(err.message);
  if (unresolved) return goYAMLMessage(`unknown anchor '${unresolved[1]}' referenced`);
  if (/Excessive alias count/.test(err.message)) return goYAMLMessage('document contains excessive aliasing');
  return undefined;
}
