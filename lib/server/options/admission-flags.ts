/**
 * The Admission flags (spec 001 § Admission control): `--enable-admission-plugins`,
 * `--disable-admission-plugins`, `--admission-control-config-file` and the
 * DefaultTolerationSeconds durations, with upstream's help texts and validation messages.
 */
import { type AdmissionOptions, defaultAdmissionOptions } from '../../admission/plugin-deps.js';
import { DEFAULT_ON_PLUGINS, ORDERED_PLUGINS } from '../../admission/plugins/index.js';
import type { FlagSpec } from './flag-table.js';
import { parseGoInt, parseStringSlice } from './flag-values.js';

/** The Admission options of the command line. */
export interface AdmissionFlags {
  enablePlugins: string[];
  disablePlugins: string[];
  /** `--admission-control-config-file` ('' when absent). */
  configFile: string;
  options: AdmissionOptions;
}

/** The defaults: no plugins named, no configuration file, 300-second tolerations. */
export function defaultAdmissionFlags(): AdmissionFlags {
  return { enablePlugins: [], disablePlugins: [], configFile: '', options: defaultAdmissionOptions() };
}

const ALL_PLUGINS = [...ORDERED_PLUGINS].sort();

/**
 * Upstream's validation: one reason per unknown plugin name (`enable-admission-plugins plugin
 * "Foo" is unknown`) and one for names in both lists (`[A B] in enable-admission-plugins and
 * disable-admission-plugins overlapped`).
 */
export function validateAdmissionFlags(a: AdmissionFlags): string[] {
  const known = new Set(ORDERED_PLUGINS);
  const problems: string[] = [];
  for (const name of a.enablePlugins) if (!known.has(name)) problems.push(`enable-admission-plugins plugin ${JSON.stringify(name)} is unknown`);
  for (const name of a.disablePlugins) if (!known.has(name)) problems.push(`disable-admission-plugins plugin ${JSON.stringify(name)} is unknown`);
  const both = [...new Set(a.enablePlugins.filter((n) => a.disablePlugins.includes(n)))].sort();
  if (both.length > 0) problems.push(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  return problems;
}

/** A non-negative toleration in seconds (int64 in upstream; we bound it to safe integers). */
function tolerationSeconds(v: string): number {
  return parseGoInt(v, 53);
}

/** Every Admission flag, in help order. */
export const ADMISSION_FLAGS: readonly FlagSpec[] = [
  {
    name: 'admission-control-config-file',
    section: 'Admission',
    valueType: 'string',
    defaultText: '""',
    usage: 'File with admission control configuration.',
    apply: (d, v) => (d.admission.configFile = v),
  },
  {
    name: 'default-not-ready-toleration-seconds',
    section: 'Admission',
    valueType: 'int',
    defaultText: '300',
    usage: 'Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every pod that does not already have such a toleration.',
    apply: (d, v) => (d.admission.options.defaultNotReadyTolerationSeconds = tolerationSeconds(v)),
  },
  {
    name: 'default-unreachable-toleration-seconds',
    section: 'Admission',
    valueType: 'int',
    defaultText: '300',
    usage: 'Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to every pod that does not already have such a toleration.',
    apply: (d, v) => (d.admission.options.defaultUnreachableTolerationSeconds = tolerationSeconds(v)),
  },
  {
    name: 'disable-admission-plugins',
    section: 'Admission',
    valueType: 'strings',
    defaultText: '[]',
    usage: `admission plugins that should be disabled although they are in the default enabled plugins list (${DEFAULT_ON_PLUGINS.join(', ')}). Comma-delimited list of admission plugins: ${ALL_PLUGINS.join(', ')}. The order of plugins in this flag does not matter.`,
    apply: (d, v) => d.admission.disablePlugins.push(...parseStringSlice(v)),
  },
  {
    name: 'enable-admission-plugins',
    section: 'Admission',
    valueType: 'strings',
    defaultText: '[]',
    usage: `admission plugins that should be enabled in addition to default enabled ones (${DEFAULT_ON_PLUGINS.join(', ')}). Comma-delimited list of admission plugins: ${ALL_PLUGINS.join(', ')}. The order of plugins in this flag does not matter.`,
    apply: (d, v) => d.admission.enablePlugins.push(...parseStringSlice(v)),
  },
];
