/**
 * The project's Helm chart (manifests/orch-apiserver) rendered for tests with the project's
 * renderer (hack/helm-render), its documents parsed as kubectl parses them (YAML 1.1), and the
 * value sets the chart tests render.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { APISERVER_CONFIG_GROUP, SERVER_NAME } from '../../lib/apis/vendor.js';
import { loadChart, renderChart, type Rendered, type Values } from '../../hack/helm-render/chart.js';

/** The chart directory. */
export const CHART_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../manifests', SERVER_NAME);

/** A rendered object (the fields the tests read are typed loosely, as parsed YAML). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ChartObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; [k: string]: any };

/** The chart rendered for `release` in `namespace` with `values`: the stream and its objects. */
export function renderTestChart(values: Values, namespace: string, release = 'demo'): { rendered: Rendered; objects: ChartObject[] } {
  const rendered = renderChart(loadChart(CHART_DIR), { name: release, namespace, values });
  const objects = rendered.manifests.map((m) => parseYaml(m.text, { version: '1.1' }) as ChartObject);
  return { rendered, objects };
}

/** The object of `kind` named `name` (or the only one of that kind). @throws when absent or ambiguous. */
export function findObject(objects: ChartObject[], kind: string, name?: string): ChartObject {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  if (found.length !== 1) throw new Error(`expected one ${kind}${name ? ` ${name}` : ''}, found ${found.length}`);
  return found[0]!;
}

/** A PEM-shaped placeholder for values that embed a CA (the chart only copies it). */
const OIDC_CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n';

/** The override set of the tests: 3 replicas, audit on, OIDC on, a LoadBalancer, an admission configuration. */
export const OVERRIDES: Values = {
  apiserver: { replicas: 3, podAntiAffinity: 'required', extraArgs: { 'livez-grace-period': '30s' } },
  audit: { enabled: true, log: { maxAge: 7, maxBackup: 3, maxSize: 100 } },
  authentication: {
    oidc: { enabled: true, issuerURL: 'https://issuer.example.com', clientID: 'cluster-clients', groupsClaim: 'groups', groupsPrefix: 'oidc:', usernamePrefix: 'oidc:', requiredClaims: { hd: 'example.com' }, caPem: OIDC_CA_PEM },
  },
  admission: {
    enablePlugins: ['AlwaysPullImages'],
    disablePlugins: ['DefaultStorageClass'],
    configuration: { apiVersion: `${APISERVER_CONFIG_GROUP}/v1`, kind: 'AdmissionConfiguration', plugins: [] },
  },
  service: { type: 'LoadBalancer', loadBalancerSourceRanges: ['192.0.2.0/24'], externalTrafficPolicy: 'Local' },
};
