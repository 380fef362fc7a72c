/**
 * Loads a Helm v3 chart directory and renders it as `helm template` does, within the template
 * subset of parse.ts: values.yaml deep-merged with overrides (a `null` override deletes the
 * key), the built-in objects `.Values`, `.Release`, `.Chart`, `.Capabilities`, `.Template`,
 * every non-partial file of `templates/` rendered (files starting with `_` only define), split
 * into YAML documents, and ordered as Helm orders them (kind, then template); `NOTES.txt` apart.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { TemplateSet } from './exec.js';
import { parseTemplate, TemplateError, type ParsedTemplate } from './parse.js';

/** A map of values. */
export type Values = Record<string, unknown>;

/** A chart read from disk. */
export interface Chart {
  /** Chart.yaml as parsed. */
  metadata: Values;
  /** values.yaml as parsed (empty map when absent or empty). */
  values: Values;
  /** Template files by path relative to the chart's parent (`<chart>/templates/x.yaml`). */
  templates: Map<string, string>;
}

/** One rendered document with the template it came from. */
export interface Manifest {
  /** `<chart>/templates/<file>`, as Helm's `# Source:` comment. */
  source: string;
  /** The document's YAML text. */
  text: string;
  /** Its `kind` (empty when it has none). */
  kind: string;
}

/** What `helm template` prints, split: the manifests in install order and the notes. */
export interface Rendered {
  manifests: Manifest[];
  notes: string;
}

/** The release a chart is rendered for. */
export interface ReleaseOptions {
  name: string;
  namespace: string;
  /** Values over values.yaml (as `-f`/`--set`). */
  values?: Values;
  /** `.Capabilities.KubeVersion.Version` (default v1.30.0). */
  kubeVersion?: string;
}

/** Helm v3's install order of kinds (pkg/releaseutil/kind_sorter.go); others come last. */
const INSTALL_ORDER = [
  'PriorityClass', 'Namespace', 'NetworkPolicy', 'ResourceQuota', 'LimitRange', 'PodSecurityPolicy', 'PodDisruptionBudget',
  'ServiceAccount', 'Secret', 'SecretList', 'ConfigMap', 'StorageClass', 'PersistentVolume', 'PersistentVolumeClaim',
  'CustomResourceDefinition', 'ClusterRole', 'ClusterRoleList', 'ClusterRoleBinding', 'ClusterRoleBindingList', 'Role',
  'RoleList', 'RoleBinding', 'RoleBindingList', 'Service', 'DaemonSet', 'Pod', 'ReplicationController', 'ReplicaSet',
  'Deployment', 'HorizontalPodAutoscaler', 'StatefulSet', 'Job', 'CronJob', 'IngressClass', 'Ingress', 'APIService',
];

/**
 * Reads `dir` (Chart.yaml, values.yaml, templates/).
 * @throws Error when Chart.yaml is missing or is not apiVersion v2 with a name and version.
 */
export function loadChart(dir: string): Chart {
  const metadata = (parseYaml(readFileSync(path.join(dir, 'Chart.yaml'), 'utf8')) ?? {}) as Values;
  if (metadata.apiVersion !== 'v2' || !metadata.name || !metadata.version) throw new Error(`${dir}/Chart.yaml: apiVersion v2, name and version are required`);
  let values: Values = {};
  try {
    values = (parseYaml(readFileSync(path.join(dir, 'values.yaml'), 'utf8')) ?? {}) as Values;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const templates = new Map<string, string>();
  for (const f of readdirSync(path.join(dir, 'templates')).sort()) {
    templates.set(`${String(metadata.name)}/templates/${f}`, readFileSync(path.join(dir, 'templates', f), 'utf8'));
  }
  return { metadata, values, templates };
}

/** Deep-merges `over` into `base` (maps merge, everything else replaces, `null` deletes). */
export function mergeValues(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    if (v === null) delete out[k];
    else if (isMap(v) && isMap(b)) out[k] = mergeValues(b, v);
    else out[k] = v;
  }
  return out;
}

function isMap(v: unknown): v is Values {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Parses one `--set` expression list, `a.b=c,d=e`, into values: `true`/`false`, `null` and
 * integers are typed, everything else is a string (Helm's strvals without list indexes).
 * @throws Error on an item without `=`.
 */
export function parseSet(expr: string): Values {
  const out: Values = {};
  for (const item of expr.split(',')) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new Error(`--set ${item}: key=value expected`);
    const raw = item.slice(eq + 1);
    const value = raw === 'true' ? true : raw === 'false' ? false : raw === 'null' ? null : /^-?\d+$/.test(raw) ? Number(raw) : raw;
    const keys = item.slice(0, eq).split('.');
    let at = out;
    for (const key of keys.slice(0, -1)) {
      if (!isMap(at[key])) at[key] = {};
      at = at[key] as Values;
    }
    at[keys[keys.length - 1]!] = value;
  }
  return out;
}

/**
 * Renders `chart` for a release.
 * @throws TemplateError (parse or execution, naming the template) as `helm template` fails.
 */
export function renderChart(chart: Chart, release: ReleaseOptions): Rendered {
  const parsed = new Map<string, ParsedTemplate>();
  for (const [name, src] of chart.templates) parsed.set(name, parseTemplate(src, name));
  const set = new TemplateSet(parsed);
  const kubeVersion = release.kubeVersion ?? 'v1.30.0';
  const [major, minor] = kubeVersion.replace(/^v/, '').split('.');
  const m = chart.metadata;
  const top = {
    Values: mergeValues(chart.values, release.values ?? {}),
    Release: { Name: release.name, Namespace: release.namespace, Service: 'Helm', IsInstall: true, IsUpgrade: false, Revision: 1 },
    Chart: { Name: m.name, Version: m.version, AppVersion: m.appVersion, Description: m.description, Type: m.type ?? 'application', APIVersion: m.apiVersion },
    Capabilities: { KubeVersion: { Version: kubeVersion, Major: major, Minor: minor } },
  };
  const manifests: Manifest[] = [];
  let notes = '';
  const basePath = `${String(m.name)}/templates`;
  for (const name of parsed.keys()) {
    const base = path.posix.basename(name);
    if (base.startsWith('_')) continue;
    const out = set.render(name, { ...top, Template: { Name: name, BasePath: basePath } });
    if (base === 'NOTES.txt') {
      notes = out;
      continue;
    }
    for (const doc of out.split(/^---[ \t]*$/m)) {
      if (doc.trim() === '') continue;
      const text = doc.replace(/^\n+/, '').replace(/\s+$/, '') + '\n';
      let parsedDoc: Values | null;
      try {
        parsedDoc = parseYaml(text, { version: '1.1' }) as Values | null;
      } catch (err) {
        throw new TemplateError(`YAML parse error on ${name}: ${(err as Error).message}`);
      }
      manifests.push({ source: name, text, kind: String(parsedDoc?.kind ?? '') });
    }
  }
  // Helm's kindSorter: by install order, unknown kinds last (alphabetically), then by template.
  const rank = (k: string): number => {
    const i = INSTALL_ORDER.indexOf(k);
    return i < 0 ? INSTALL_ORDER.length : i;
  };
  const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  manifests.sort((a, b) => rank(a.kind) - rank(b.kind) || (rank(a.kind) === INSTALL_ORDER.length ? byText(a.kind, b.kind) : 0) || byText(a.source, b.source));
  return { manifests, notes };
}

/** The manifests as one stream, each preceded by `---` and `# Source:`, as `helm template`. */
export function formatStream(rendered: Rendered): string {
  return rendered.manifests.map((d) => `---\n# Source: ${d.source}\n${d.text}`).join('');
}
