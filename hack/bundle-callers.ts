/**
 * Finishes a bundle that hack/bundle.sh has had esbuild write with an external source map:
 * usage `node --import tsx hack/bundle-callers.ts BUNDLE.cjs` (the map is `BUNDLE.cjs.map`).
 *
 * 1. The bundle is made ASCII: esbuild leaves a non-ASCII character in a regular expression
 *    literal as it is (cel-js's `µs`). One would make the 5 MB source a two-byte string and its
 *    UTF-8 decoding at every start ~4x slower (~15 ms): each such character is written as its
 *    \u escape, which means the same in a string, a regular expression or an identifier (not in
 *    String.raw, which the bundle does not use on such text).
 * 2. The caller table (lib/server/bundle-callers.ts) is written beside it from the map, its
 *    columns moved by what step 1 inserted, and the map is removed: a log line's caller then
 *    names the source file and line, not the bundle's line.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SourceMapConsumer, type RawSourceMap } from 'source-map';
import { type CallerEntry, callerTablePath, encodeCallerTable } from '../lib/server/bundle-callers.js';

/** The logger's own modules: their frames are never the caller (lib/server/logging.ts SKIPPED_FRAME). */
const LOGGER = /(^|\/)lib\/server\/logging\.[jt]s$/;
/** Characters written as `\uXXXX` (6 characters for 1). */
const NON_ASCII = /[\u0080-\uffff]/g;

const bundle = process.argv[2];
if (!bundle) throw new Error('usage: hack/bundle-callers.ts BUNDLE.cjs');
const text = readFileSync(bundle, 'utf8');
const mapFile = `${bundle}.map`;
const map = JSON.parse(readFileSync(mapFile, 'utf8')) as RawSourceMap;

// Per generated line (0-based), the columns of the characters step 1 replaces, ascending.
const replaced = text.split('\n').map((line) => [...line.matchAll(NON_ASCII)].map((m) => m.index));
writeFileSync(bundle, text.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));

/** A generated column after step 1: 5 more for each character replaced before it on its line. */
function shifted(line: number, column: number): number {
  let before = 0;
  for (const at of replaced[line - 1] ?? []) if (at < column) before++;
  return column + 5 * before;
}

const names: string[] = [];
const nameIndex = new Map<string, number>();
const indexOf = (source: string): number => {
  const name = source.includes('node_modules/') || LOGGER.test(source) ? '' : path.basename(source);
  let i = nameIndex.get(name);
  if (i === undefined) {
    i = names.length;
    names.push(name);
    nameIndex.set(name, i);
  }
  return i;
};
const entries: CallerEntry[] = [];
const consumer = new SourceMapConsumer(map);
consumer.eachMapping(
  (m) => {
    if (m.source === null || m.originalLine === null) return;
    const name = indexOf(m.source);
    const last = entries.at(-1);
    // Only where the source or its line changes: an entry holds until the next one.
    if (last && last.line === m.generatedLine && last.name === name && last.sourceLine === m.originalLine) return;
    entries.push({ line: m.generatedLine, column: shifted(m.generatedLine, m.generatedColumn), name, sourceLine: m.originalLine });
  },
  undefined,
  SourceMapConsumer.GENERATED_ORDER,
);
writeFileSync(callerTablePath(bundle), encodeCallerTable(names, entries));
rmSync(mapFile);
