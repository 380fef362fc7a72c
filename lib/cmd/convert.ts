/**
 * `<server> convert` (issue #15 item 7; spec 001 § Removed API versions: "conversion of
 * stored manifests is available through a client convert command with `--output-version`"):
 * reads manifests — files, directories (`-R` to descend), `-` for standard input; YAML with
 * several documents, or JSON; `List` objects are flattened — converts every object with
 * lib/apis/migration/convert.ts, offline, and prints the result as upstream's `kubectl convert`
 * does: the object itself for a single file holding one object, else a `v1` `List`; YAML by
 * default, `-o json` for JSON (four-space indentation, as kubectl's printer).
 *
 * Errors are written to stderr as `error: <message>` (one line each), exit code 1, nothing on
 * stdout; the messages are upstream's (`must specify one of -f and -k`, `the path "x" does not
 * exist`, `unable to decode "x": …`, `no objects passed to convert`, pflag's flag errors).
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { encodeYAML, decodeYAML } from '../apimachinery/serializers/yaml.js';
import { ConversionError, DecodeError, type GroupVersion, convertObject, parseGroupVersion } from '../apis/migration/convert.js';
import { BUILTIN_SCHEME } from './convert-scheme.js';
import type { Obj } from '../apis/define.js';
import { SERVER_NAME, vendorGroup } from '../apis/vendor.js';

/** Where the command reads and writes (process streams in the binary, buffers in tests). */
export interface ConvertIO {
  /** The whole of standard input (read only for `-f -`). */
  readStdin(): Promise<string>;
  out(text: string): void;
  err(text: string): void;
}

/** The parsed command line. */
interface ConvertFlags {
  filenames: string[];
  recursive: boolean;
  output: string;
  outputVersion: string;
  help: boolean;
}

/** A command-line or input error, printed as `error: <message>`. */
class CommandError extends Error {}

const OUTPUT_FORMATS = ['json', 'yaml'];
/** Extensions of the files read from a directory (upstream FileExtensions). */
const FILE_EXTENSIONS = ['.json', '.yaml', '.yml'];
/** The source name of standard input in messages (upstream's). */
const STDIN_SOURCE = 'STDIN';

const HELP = `Convert config files between different API versions. Both YAML and JSON formats are accepted.

The command takes filename or directory as input, and converts it into the format of the version
specified by --output-version, offline, with the server's own conversions; objects of removed API
versions are first rewritten into their replacement (the migration map). If no version is given,
objects keep their version, or move to the replacement of a removed one.

The default output is printed to stdout in YAML format; -o json prints JSON.

Examples:
  # Convert 'ingress.yaml' to networking v1 and print to stdout.
  ${SERVER_NAME} convert -f ingress.yaml --output-version ${vendorGroup('networking')}/v1

  # Convert every manifest under ./manifests, in JSON.
  ${SERVER_NAME} convert -f ./manifests -R -o json

Options:
  -f, --filename=[]: Filename, directory, or '-' (standard input) of the files to convert.
  -o, --output='yaml': Output format, one of: json, yaml.
      --output-version='': Output the objects in the given group version (for ex: '${vendorGroup('networking')}/v1').
  -R, --recursive=false: Process the directory used in -f, --filename recursively.
      --local=true: Convert locally (the only mode: this command never contacts a server).

Usage:
  ${SERVER_NAME} convert -f FILENAME [options]
`;

/** Parses a boolean flag value as pflag does. */
function boolValue(name: string, v: string): boolean {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  throw new CommandError(`invalid argument "${v}" for "${name}" flag: strconv.ParseBool: parsing "${v}": invalid syntax`);
}

/** Parses the arguments after `convert` (pflag's syntax and messages). */
function parseFlags(argv: string[]): ConvertFlags {
  const f: ConvertFlags = { filenames: [], recursive: false, output: 'yaml', outputVersion: '', help: false };
  const long: Record<string, 'filename' | 'output' | 'output-version' | 'recursive' | 'local' | 'help'> = {
    filename: 'filename',
    output: 'output',
    'output-version': 'output-version',
    recursive: 'recursive',
    local: 'local',
    help: 'help',
  };
  const short: Record<string, string> = { f: 'filename', o: 'output', R: 'recursive', h: 'help' };
  const takesValue = (n: string) => n === 'filename' || n === 'output' || n === 'output-version';
  const set = (n: string, v: string, flagText: string) => {
    if (n === 'filename') f.filenames.push(v);
    else if (n === 'output') f.output = v;
    else if (n === 'output-version') f.outputVersion = v;
    else if (n === 'recursive') f.recursive = boolValue(flagText, v);
    else if (n === 'help') f.help = boolValue(flagText, v);
    else if (n === 'local' && !boolValue(flagText, v)) throw new CommandError('--local=false is not supported: convert never contacts a server');
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const n = long[name];
      if (!n) throw new CommandError(`unknown flag: --${name}`);
      if (eq >= 0) set(n, a.slice(eq + 1), name);
      else if (!takesValue(n)) set(n, 'true', name);
      else if (i + 1 < argv.length) set(n, argv[++i]!, name);
      else throw new CommandError(`flag needs an argument: --${name}`);
    } else if (a.startsWith('-') && a.length > 1) {
      const c = a[1]!;
      const n = short[c];
      if (!n) throw new CommandError(`unknown shorthand flag: '${c}' in ${a}`);
      let rest = a.slice(2);
      if (rest.startsWith('=')) rest = rest.slice(1);
      if (!takesValue(n)) set(n, rest === '' ? 'true' : rest, n);
      else if (rest !== '') set(n, rest, n);
      else if (i + 1 < argv.length) set(n, argv[++i]!, n);
      else throw new CommandError(`flag needs an argument: '${c}' in -${c}`);
    }
  }
  return f;
}

/** One input: the text of a file (or of standard input) and its name in messages. */
interface Source {
  name: string;
  text: string;
}

/** The manifest files of a directory, in lexical order, descending when `recursive`. */
async function directoryFiles(dir: string, recursive: boolean): Promise<string[]> {
  const out: string[] = [];
  for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (recursive) out.push(...(await directoryFiles(p, recursive)));
    } else if (FILE_EXTENSIONS.includes(path.extname(e.name))) out.push(p);
  }
  return out;
}

/** Reads every source named by `-f`; `single` tells whether one file (not a directory nor stdin) was named. */
async function readSources(flags: ConvertFlags, io: ConvertIO): Promise<{ sources: Source[]; single: boolean }> {
  const sources: Source[] = [];
  let single = flags.filenames.length === 1;
  for (const name of flags.filenames) {
    if (name === '-') {
      single = false;
      sources.push({ name: STDIN_SOURCE, text: await io.readStdin() });
      continue;
    }
    const st = await stat(name).catch(() => undefined);
    if (!st) throw new CommandError(`the path "${name}" does not exist`);
    if (st.isDirectory()) {
      single = false;
      for (const file of await directoryFiles(name, flags.recursive)) sources.push({ name: file, text: await readFile(file, 'utf8') });
    } else sources.push({ name, text: await readFile(name, 'utf8') });
  }
  return { sources, single };
}

/**
 * The documents of a YAML stream, split as upstream's YAMLReader splits them: at a line that
 * starts with `---` followed by nothing but spaces or a comment.
 */
export function splitDocuments(text: string): string[] {
  const docs: string[] = [];
  let cur: string[] = [];
  for (const line of text.split('\n')) {
    const after = line.startsWith('---') ? line.slice(3).trim() : undefined;
    if (after !== undefined && (after === '' || after.startsWith('#'))) {
      docs.push(cur.join('\n'));
      cur = [];
    } else cur.push(line);
  }
  docs.push(cur.join('\n'));
  return docs;
}

/** The objects of one source: every non-empty document, lists flattened (upstream's Flatten). */
function objectsOf(source: Source, errors: string[]): unknown[] {
  const out: unknown[] = [];
  const flatten = (v: unknown) => {
    const o = v as Obj;
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && typeof o.kind === 'string' && o.kind.endsWith('List') && Array.isArray(o.items)) {
      for (const item of o.items) flatten(item);
    } else out.push(v);
  };
  for (const doc of splitDocuments(source.text)) {
    let value: unknown;
    try {
      value = decodeYAML(doc);
    } catch (e) {
      errors.push(`error parsing ${source.name}: ${(e as Error).message}`);
      continue;
    }
    if (value !== null && value !== undefined) flatten(value);
  }
  return out;
}

/** Serializes the result in the output format. */
function print(value: Obj, format: string): string {
  return format === 'json' ? `${JSON.stringify(value, null, 4)}\n` : encodeYAML(value).toString('utf8');
}

/** The command's work; throws CommandError (or an error of convert.ts) on failure. */
async function run(argv: string[], io: ConvertIO): Promise<void> {
  const flags = parseFlags(argv);
  if (flags.help) {
    io.out(HELP);
    return;
  }
  if (flags.filenames.length === 0) throw new CommandError('must specify one of -f and -k');
  if (!OUTPUT_FORMATS.includes(flags.output)) {
    throw new CommandError(`unable to match a printer suitable for the output format "${flags.output}", allowed formats are: ${OUTPUT_FORMATS.join(',')}`);
  }
  const { sources, single } = await readSources(flags, io);
  const errors: string[] = [];
  const decoded: { source: string; obj: unknown }[] = [];
  for (const s of sources) for (const obj of objectsOf(s, errors)) decoded.push({ source: s.name, obj });
  let output: GroupVersion | undefined;
  try {
    output = parseGroupVersion(flags.outputVersion);
  } catch (e) {
    errors.push((e as Error).message);
  }
  const converted: Obj[] = [];
  for (const { source, obj } of decoded) {
    try {
      converted.push(convertObject(BUILTIN_SCHEME, obj, output));
    } catch (e) {
      if (e instanceof DecodeError) errors.push(`unable to decode "${source}": ${e.message}`);
      else if (e instanceof ConversionError) errors.push(e.message);
      else throw e;
    }
  }
  if (errors.length > 0) throw new CommandError(errors.join('\nerror: '));
  if (converted.length === 0) throw new CommandError('no objects passed to convert');
  const result = converted.length === 1 && single ? converted[0]! : { kind: 'List', apiVersion: 'v1', metadata: {}, items: converted };
  io.out(print(result, flags.output));
}

/**
 * Runs `convert` with the arguments after the word `convert`; returns the exit code (0, or 1
 * after writing `error: …` lines to `io.err`). Never throws for bad input.
 */
export async function runConvert(argv: string[], io: ConvertIO): Promise<number> {
  try {
    await run(argv, io);
    return 0;
  } catch (e) {
    io.err(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

/** Standard input read to its end. */
export async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
