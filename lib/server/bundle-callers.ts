/**
 * klog's caller (`file.ts:12`) for the frames of the bundle (hack/bundle.sh). The bundle is a few
 * very long lines, so a stack frame there names `orch-apiserver.cjs:24:123456`, the same line for
 * every log. This table, written beside the bundle from esbuild's source map when the bundle is
 * made (hack/bundle-callers.ts), maps such a position back to the source file's base name and
 * line, as the frame of the sources would read (issue #16 item 7: upstream's klog header).
 *
 * File layout, little-endian: u32 entry count N; u32 byte length L of the names' JSON; the JSON, an
 * array of source base names, '' for a source whose frames are never a caller (a package's or
 * the logger's own); zero padding to a multiple of 8 bytes; N float64 positions, ascending
 * (`line × 2^32 + column`, the generated line 1-based and column 0-based, as in a source map);
 * N u32 sources (`name index × 2^16 + source line`, the line 1-based). An entry holds from its
 * position to the next entry's.
 */
import { readFileSync } from 'node:fs';

/** One entry: from generated `line` (1-based) and `column` (0-based) on, source `name` (an index into the names) at `sourceLine` (1-based). */
export interface CallerEntry {
  line: number;
  column: number;
  name: number;
  sourceLine: number;
}

/** The table's file name beside a bundle file. */
export const callerTablePath = (bundleFile: string): string => `${bundleFile}.callers`;

const LINE_FACTOR = 2 ** 32;
const SOURCE_FACTOR = 2 ** 16;

/**
 * Encodes the table (layout in the module comment). `entries` must be in generated order.
 * Throws when a name index or a source line does not fit 16 bits, or the entries are out of order.
 */
export function encodeCallerTable(names: readonly string[], entries: readonly CallerEntry[]): Buffer {
  const json = Buffer.from(JSON.stringify(names), 'utf8');
  const head = 8 + json.length;
  const padded = Math.ceil(head / 8) * 8;
  const out = Buffer.alloc(padded + entries.length * 12);
  out.writeUInt32LE(entries.length, 0);
  out.writeUInt32LE(json.length, 4);
  json.copy(out, 8);
  let last = -1;
  entries.forEach((e, i) => {
    const position = e.line * LINE_FACTOR + e.column;
    if (position < last) throw new Error(`caller table: entry ${i} (line ${e.line}, column ${e.column}) is out of order`);
    if (e.name >= SOURCE_FACTOR || e.sourceLine >= SOURCE_FACTOR) throw new Error(`caller table: entry ${i} does not fit 16 bits (name ${e.name}, line ${e.sourceLine})`);
    last = position;
    out.writeDoubleLE(position, padded + i * 8);
    out.writeUInt32LE(e.name * SOURCE_FACTOR + e.sourceLine, padded + entries.length * 8 + i * 4);
  });
  return out;
}

/** The caller a frame position maps to: `name` '' for a frame that is never a caller. */
export interface MappedCaller {
  name: string;
  line: number;
}

/** A decoded table (see the module comment). */
export class CallerTable {
  private constructor(
    private readonly names: readonly string[],
    private readonly positions: Float64Array,
    private readonly sources: Uint32Array,
  ) {}

  /** Decodes a table from its bytes. Throws when they are not one. */
  static decode(bytes: Buffer): CallerTable {
    const n = bytes.readUInt32LE(0);
    const jsonLength = bytes.readUInt32LE(4);
    const names = JSON.parse(bytes.toString('utf8', 8, 8 + jsonLength)) as string[];
    const padded = Math.ceil((8 + jsonLength) / 8) * 8;
    if (bytes.length !== padded + n * 12) throw new Error(`caller table: ${bytes.length} bytes, want ${padded + n * 12}`);
    // Copied out of the file's buffer: a typed array view needs an aligned offset.
    const body = new Uint8Array(bytes.subarray(padded));
    return new CallerTable(names, new Float64Array(body.buffer, 0, n), new Uint32Array(body.buffer, n * 8, n));
  }

  /** Reads the table at `file`; undefined when there is none (the sources run, not a bundle) or it does not decode. */
  static read(file: string): CallerTable | undefined {
    try {
      return CallerTable.decode(readFileSync(file));
    } catch {
      return undefined;
    }
  }

  /** The caller at a stack frame's `line` and `column` (both 1-based, as V8 prints them); undefined when no entry covers it. */
  at(line: number, column: number): MappedCaller | undefined {
    const key = line * LINE_FACTOR + (column - 1);
    let lo = 0;
    let hi = this.positions.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.positions[mid]! <= key) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0 || Math.floor(this.positions[found]! / LINE_FACTOR) !== line) return undefined;
    const source = this.sources[found]!;
    return { name: this.names[Math.floor(source / SOURCE_FACTOR)] ?? '', line: source % SOURCE_FACTOR };
  }
}
