/**
 * The rows of every table in the spec documents (`../shared/spec/000_*.txt`, `001_*.txt`), each
 * with a stable, readable id that a test names to say it covers the row (issue #16 item 8,
 * `make conformance`). Pure parsing; `loadSpecRows` reads the files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One data row of a spec table. */
export interface SpecRow {
  /** `000 § Verb mapping › POST`: the document number, the nearest heading, the row's key. */
  id: string;
  /** `000` or `001`. */
  doc: string;
  /**
   * The nearest heading above the table, without `#`s; followed by ` (<label>)` when the line
   * before the table is a label ending with `:` (`Resource versions (List semantics)`).
   */
  section: string;
  /** The row's key: its first cell as plain text, extended by the second cell where the first repeats in the section. */
  key: string;
  /** 1-based line of the row in its document. */
  line: number;
}

/** Plain text of a Markdown table cell: backticks and surrounding spaces dropped. */
function plain(cell: string): string {
  return cell.replace(/`/g, '').replace(/\s+/g, ' ').trim();
}

/** The cells of a table line `| a | b |`. */
function cells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map(plain);
}

const SEPARATOR = /^\|(\s*:?-{3,}:?\s*\|)+\s*$/;
/** Longest part kept from a second cell that disambiguates a repeated first cell (cut at a word boundary). */
const SECOND_CELL_CHARS = 40;

/** The distinguishing head of a second cell: up to its first `;` or ` (`, at most 40 characters, whole words. */
function secondKey(cell: string): string {
  const head = cell.split(/;| \(/)[0]!.trim();
  if (head.length <= SECOND_CELL_CHARS) return head;
  const cut = head.slice(0, SECOND_CELL_CHARS + 1);
  return cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : SECOND_CELL_CHARS).trim();
}

/** Longest line above a table read as its label; longer lines are prose. */
const LABEL_CHARS = 40;

/**
 * The label line just above a table (`List semantics:` → `List semantics`), skipping blank
 * lines: a short line ending with `:`.
 */
function tableLabel(lines: readonly string[], header: number): string | undefined {
  let i = header - 1;
  while (i >= 0 && lines[i]!.trim() === '') i--;
  const text = i >= 0 ? lines[i]!.trim() : '';
  return text.endsWith(':') && text.length <= LABEL_CHARS && !text.startsWith('#') && !text.startsWith('|') ? text.slice(0, -1).trim() : undefined;
}

/**
 * The data rows of every table in one document's text, in order. A row's key is its first cell;
 * when that repeats within the section, the key is `<first> / <head of the second cell>`.
 * @param doc the document number (`000`).
 */
export function parseSpecRows(doc: string, text: string): SpecRow[] {
  const lines = text.split('\n');
  const raw: Array<{ section: string; first: string; second: string; line: number }> = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      section = heading[1]!.trim();
      continue;
    }
    // A table: a header line followed by its separator; data rows follow until a non-table line.
    if (!line.startsWith('|') || !SEPARATOR.test(lines[i + 1] ?? '')) continue;
    const label = tableLabel(lines, i);
    const table = label === undefined ? section : `${section} (${label})`;
    let j = i + 2;
    for (; j < lines.length && lines[j]!.startsWith('|'); j++) {
      const [first = '', second = ''] = cells(lines[j]!);
      raw.push({ section: table, first, second, line: j + 1 });
    }
    i = j - 1;
  }
  const counts = new Map<string, number>();
  for (const r of raw) counts.set(`${r.section}\u0000${r.first}`, (counts.get(`${r.section}\u0000${r.first}`) ?? 0) + 1);
  return raw.map((r) => {
    const repeated = (counts.get(`${r.section}\u0000${r.first}`) ?? 0) > 1;
    const key = repeated ? `${r.first} / ${secondKey(r.second)}` : r.first;
    return { id: `${doc} § ${r.section} › ${key}`, doc, section: r.section, key, line: r.line };
  });
}

/** The default spec directory: `../shared/spec` beside the repository, or `$SPEC_DIR`. */
export function specDir(repoRoot: string): string {
  return process.env.SPEC_DIR ?? path.resolve(repoRoot, '..', 'shared', 'spec');
}

/**
 * The rows of both spec documents in `dir` (files named `000_*` and `001_*`).
 * @throws Error when the directory or a document is missing, or two rows get the same id.
 */
export function loadSpecRows(dir: string): SpecRow[] {
  const files = readdirSync(dir).filter((f) => /^\d{3}_/.test(f)).sort();
  if (files.length === 0) throw new Error(`no spec documents (000_*, 001_*) in ${dir}`);
  const rows = files.flatMap((f) => parseSpecRows(f.slice(0, 3), readFileSync(path.join(dir, f), 'utf8')));
  const seen = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.id)) throw new Error(`two spec rows have the id ${JSON.stringify(r.id)}`);
    seen.add(r.id);
  }
  return rows;
}
