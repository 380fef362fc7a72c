/**
 * The command line of the server, in the upstream (pflag) style: `--flag=value` and
 * `--flag value`, booleans as `--flag` or `--flag=false`, repeatable list and map flags, the
 * last occurrence of a scalar flag winning, and one-line errors worded as upstream
 * (`unknown flag: --foo`, `invalid argument "x" for "--secure-port" flag: …`).
 */

import path from 'node:path';
import yargsParser from 'yargs-parser';
import { SERVER_NAME } from '../../apis/vendor.js';
import { validateAuthenticationOptions } from './authentication-options.js';
import { validateAdmissionFlags } from './admission-flags.js';
import { validateAuditOptions } from './audit-flags.js';
import { validateFlowControlFlags } from './flowcontrol-flags.js';
import { validateAuthorizationOptions } from './authorization-options.js';
import { validateControllers } from './controllers.js';
import { FLAGS, defaultDraft, type FlagSpec, type OptionsDraft } from './flag-table.js';
import type { ServerOptions } from './server-options.js';
import { validateServiceNetworkingOptions } from './service-networking.js';
import { validateLeaderElectionOptions } from './leader-election-flags.js';
import { validateTimeoutFlags } from './timeout-flags.js';
import { validateWorkers } from './workers-flags.js';
import { validateEtcdTLSFlags } from './etcd-flags.js';
import { validateAggregatorFlags } from './aggregator-flags.js';
import { validateShowHiddenMetricsVersion } from '../../metrics/registry.js';
import { validateWatchCacheFlags } from './watch-cache-flags.js';
import { validateLoggingFlags } from './logging-flags.js';
import { deprecationMark, deprecationWarning } from './deprecated-flags.js';

/** A command line the server refuses; `message` is the one-line reason to print. */
export class FlagError extends Error {
  override readonly name = 'FlagError';
}

/** `--help` or `-h` was given: print {@link formatHelp} and exit successfully (pflag's ErrHelp). */
export class HelpRequested extends Error {
  override readonly name = 'HelpRequested';
  constructor() {
    super('flag: help requested');
  }
}

const BY_NAME: ReadonlyMap<string, FlagSpec> = new Map(FLAGS.map((f) => [f.name, f]));
const BY_SHORTHAND: ReadonlyMap<string, FlagSpec> = new Map(
  FLAGS.filter((f) => f.shorthand !== undefined).map((f) => [f.shorthand!, f]),
);

/**
 * Parses the server's arguments (without the node and script names) into validated options.
 * `warn` receives pflag's line for each use of a deprecated flag (deprecated-flags.ts), in order.
 * @throws HelpRequested for `--help`/`-h`.
 * @throws FlagError for an unknown flag, a flag without its argument, a bad value, a positional
 *   argument, or options that fail validation (e.g. only one of the TLS file flags).
 */
export function parseServerFlags(argv: string[], warn: (line: string) => void = () => undefined): ServerOptions {
  const { flagArgs, positional } = normalize(argv);
  const parsed = yargsParser(flagArgs, {
    configuration: {
      'camel-case-expansion': false,
      'dot-notation': false,
      'duplicate-arguments-array': true,
      'flatten-duplicate-arrays': true,
      'boolean-negation': false,
      'parse-numbers': false,
      'parse-positional-numbers': false,
      'short-option-groups': false,
    },
    string: FLAGS.map((f) => f.name),
  });

  const draft = defaultDraft();
  for (const spec of FLAGS) {
    const raw: unknown = parsed[spec.name];
    if (raw === undefined) continue;
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      const warning = deprecationWarning(spec);
      if (warning !== undefined) warn(warning);
      applyOne(draft, spec, String(value));
    }
  }
  if (draft.help) throw new HelpRequested();
  const extra = [...positional, ...parsed._.map(String)];
  if (extra.length > 0) {
    throw new FlagError(`"${SERVER_NAME}" does not take any arguments, got ${JSON.stringify(extra)}`);
  }
  const { help: _help, certDir, ...rest } = draft;
  const options: ServerOptions = { ...rest, certDir: certDir ?? path.join(draft.dataDir, 'pki') };
  const problems = validate(options);
  if (problems.length === 1) throw new FlagError(problems[0]);
  if (problems.length > 1) throw new FlagError(`[${problems.join(', ')}]`);
  return options;
}

/** Applies one occurrence, turning the parser's reason into pflag's `invalid argument` line. */
function applyOne(draft: OptionsDraft, spec: FlagSpec, value: string): void {
  try {
    spec.apply(draft, value);
  } catch (err) {
    const name = spec.shorthand === undefined ? `--${spec.name}` : `-${spec.shorthand}, --${spec.name}`;
    throw new FlagError(`invalid argument ${JSON.stringify(value)} for "${name}" flag: ${(err as Error).message}`);
  }
}

/**
 * Rewrites argv into `--name=value` tokens with pflag's rules, which yargs-parser alone does not
 * follow: a boolean never takes the next argument (`--anonymous-auth` is `=true`); any other
 * known flag without `=` takes the next argument whatever it looks like (`--data-dir -x`);
 * single-dash tokens are shorthands; everything after `--` is positional.
 * @throws FlagError for bad syntax, an unknown flag or shorthand, or a missing argument.
 */
function normalize(argv: string[]): { flagArgs: string[]; positional: string[] } {
  const flagArgs: string[] = [];
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (token.startsWith('--')) {
      const body = token.slice(2);
      const eq = body.indexOf('=');
      const name = eq < 0 ? body : body.slice(0, eq);
      if (name === '' || name.startsWith('-')) throw new FlagError(`bad flag syntax: ${token}`);
      const spec = BY_NAME.get(name);
      if (spec === undefined) throw new FlagError(`unknown flag: --${name}`);
      let value: string;
      if (eq >= 0) value = body.slice(eq + 1);
      else if (spec.valueType === '') value = 'true';
      else if (i + 1 < argv.length) value = argv[++i];
      else throw new FlagError(`flag needs an argument: --${name}`);
      flagArgs.push(`--${name}=${value}`);
    } else if (token.startsWith('-') && token.length > 1) {
      const spec = BY_SHORTHAND.get(token[1]);
      if (spec === undefined) throw new FlagError(`unknown shorthand flag: '${token[1]}' in ${token}`);
      // pflag: `-v=3`, `-v3` and `-v 3` for a flag with a value; a boolean shorthand takes none.
      let value: string;
      if (token.length > 2 && token[2] === '=') value = token.slice(3);
      else if (spec.valueType === '') {
        if (token.length > 2) throw new FlagError(`unknown shorthand flag: '${token[2]}' in ${token}`);
        value = 'true';
      } else if (token.length > 2) value = token.slice(2);
      else if (i + 1 < argv.length) value = argv[++i];
      else throw new FlagError(`flag needs an argument: '${token[1]}' in ${token}`);
      flagArgs.push(`--${spec.name}=${value}`);
    } else {
      positional.push(token);
    }
  }
  return { flagArgs, positional };
}

/** Cross-flag and range checks after parsing (upstream `Options.Validate`); one reason each. */
function validate(o: ServerOptions): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(o.securePort) || o.securePort < 0 || o.securePort > 65535) {
    problems.push(`--secure-port ${o.securePort} must be between 0 and 65535, inclusive. 0 picks a free port`);
  }
  if ((o.tlsCertFile === undefined) !== (o.tlsPrivateKeyFile === undefined)) {
    problems.push('--tls-cert-file and --tls-private-key-file must be specified together');
  }
  for (const server of o.etcdServers) {
    if (!isHttpUrl(server)) problems.push(`--etcd-servers: ${JSON.stringify(server)} is not an http:// or https:// URL`);
  }
  if (o.etcdCompactionIntervalMs < 0) problems.push('--etcd-compaction-interval can not be a negative value');
  if (o.etcdHealthcheckTimeoutMs < 0) problems.push('--etcd-healthcheck-timeout can not be a negative value');
  if (o.etcdReadycheckTimeoutMs < 0) problems.push('--etcd-readycheck-timeout can not be a negative value');
  if (o.shutdownDelayMs < 0) problems.push('--shutdown-delay-duration can not be negative value');
  if (o.livezGracePeriodMs < 0) problems.push('--livez-grace-period can not be a negative value');
  if (o.dataDir === '') problems.push('--data-dir must not be empty');
  if (o.etcdBinary === '') problems.push('--etcd-binary must not be empty');
  problems.push(...validateEtcdTLSFlags(o.etcdTLS, o.etcdServers));
  if (o.verbosity < 0) problems.push(`--v ${o.verbosity} must not be negative`);
  problems.push(...validateAuthenticationOptions(o.authentication));
  problems.push(...validateAuthorizationOptions(o.authorization));
  problems.push(...validateAdmissionFlags(o.admission));
  problems.push(...validateAuditOptions(o.audit));
  problems.push(...validateFlowControlFlags(o.flowControl));
  problems.push(...validateControllers(o.controllers));
  problems.push(...validateServiceNetworkingOptions(o.serviceNetworking));
  problems.push(...validateLeaderElectionOptions(o.leaderElection));
  problems.push(...validateTimeoutFlags(o.timeouts));
  problems.push(...validateWorkers(o.workers));
  problems.push(...validateWatchCacheFlags(o.watchCache));
  problems.push(...validateLoggingFlags(o.logging));
  problems.push(...validateAggregatorFlags(o.aggregator));
  const hiddenMetrics = validateShowHiddenMetricsVersion(o.showHiddenMetricsForVersion);
  if (hiddenMetrics !== undefined) problems.push(hiddenMetrics);
  return problems;
}

/** Whether `text` is an absolute http or https URL with a host. */
function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/**
 * The `--help` text: usage line, then each section's flags in pflag's layout
 * (`      --secure-port int   The port … (default 6443)`), every flag with its default unless
 * the table gives none and a deprecated one with its mark after it; a multi-line description
 * continues indented to the description column.
 */
export function formatHelp(): string {
  const lead = (f: FlagSpec): string =>
    `${f.shorthand === undefined ? '      ' : `  -${f.shorthand}, `}--${f.name}${f.valueType === '' ? '' : ` ${f.valueType}`}`;
  const width = Math.max(...FLAGS.map((f) => lead(f).length));
  const lines = [
    `${SERVER_NAME} validates and configures data for the API objects and serves them over HTTPS from etcd.`,
    '',
    'Usage:',
    `  ${SERVER_NAME} [flags]`,
    `  ${SERVER_NAME} convert -f FILENAME [--output-version GROUP/VERSION] [-o json|yaml]   (offline manifest conversion; convert --help)`,
  ];
  for (const section of [...new Set(FLAGS.map((f) => f.section))]) {
    lines.push('', `${section} flags:`, '');
    for (const f of FLAGS.filter((g) => g.section === section)) {
      const usage = f.usage.replaceAll('\n', `\n${' '.repeat(width + 3)}`);
      lines.push(`${lead(f).padEnd(width)}   ${usage}${f.defaultText === '' ? '' : ` (default ${f.defaultText})`}${deprecationMark(f)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
