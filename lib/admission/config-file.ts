/**
 * `--admission-control-config-file`: an AdmissionConfiguration (apiVersion
 * `apiserver.config.<vendor>/v1`, also `v1alpha1`, the upstream spelling accepted) whose
 * `plugins[]` give each plugin's configuration inline (`configuration`) or in a file of its own
 * (`path`, relative to the configuration file's directory), JSON or YAML — upstream v1.30's
 * format (spec 001 § Admission control).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigDecodeError, decodeConfigDocument } from '../apimachinery/serializers/config-document.js';
import type { Obj } from '../apis/define.js';
import { APISERVER_CONFIG_GROUP, canonicalGroup } from '../apis/vendor.js';
import { YAMLSyntaxError, decodeYAML } from '../apimachinery/serializers/yaml.js';

/** A configuration file the server refuses to start with; the message names the file and the problem. */
export class AdmissionConfigError extends Error {
  override readonly name = 'AdmissionConfigError';
}

/**
 * Reads the AdmissionConfiguration at `file` and each plugin's configuration.
 * @returns plugin name → configuration object (the parsed `path` file, or `configuration`).
 * @throws AdmissionConfigError for an unreadable or undecodable file, a wrong apiVersion/kind, a
 *   plugin entry without a name, or with both or neither of `path` and `configuration`.
 */
export async function readAdmissionConfigFile(file: string): Promise<Map<string, Obj>> {
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new AdmissionConfigError(`unable to read admission control configuration from "${file}" [${err.message}]`);
  });
  let raw: Record<string, unknown>;
  try {
    raw = decodeConfigDocument(text, { kind: 'AdmissionConfiguration', group: APISERVER_CONFIG_GROUP, versions: ['v1', 'v1alpha1'], canonicalGroup }).raw;
  } catch (err) {
    if (err instanceof ConfigDecodeError) throw new AdmissionConfigError(`unable to read admission control configuration from "${file}" [${err.message}]`);
    throw err;
  }
  const out = new Map<string, Obj>();
  const plugins = raw.plugins ?? [];
  if (!Array.isArray(plugins)) throw new AdmissionConfigError(`${file}: plugins must be a list`);
  for (const [i, entry] of plugins.entries()) {
    const p = entry as { name?: unknown; path?: unknown; configuration?: unknown } | null;
    if (p === null || typeof p !== 'object' || typeof p.name !== 'string' || p.name === '') throw new AdmissionConfigError(`${file}: plugins[${i}].name is required`);
    if (p.path !== undefined && p.configuration !== undefined) throw new AdmissionConfigError(`${file}: plugin ${p.name} gives both path and configuration`);
    if (typeof p.path === 'string' && p.path !== '') {
      const where = path.resolve(path.dirname(file), p.path);
      const body = await readFile(where, 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new AdmissionConfigError(`couldn't open admission plugin configuration ${where}: ${err.message}`);
      });
      out.set(p.name, decodePluginConfig(body, where));
    } else if (p.configuration !== null && typeof p.configuration === 'object' && !Array.isArray(p.configuration)) {
      out.set(p.name, p.configuration as Obj);
    } else {
      throw new AdmissionConfigError(`${file}: plugin ${p.name} needs a path or a configuration object`);
    }
  }
  return out;
}

/** A plugin's own configuration file: one JSON or YAML object. */
function decodePluginConfig(body: string, where: string): Obj {
  let v: unknown;
  try {
    v = decodeYAML(body);
  } catch (err) {
    if (err instanceof YAMLSyntaxError) throw new AdmissionConfigError(`${where}: error converting YAML to JSON: ${err.yamlError}`);
    throw err;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new AdmissionConfigError(`${where}: the configuration is not an object`);
  return v as Obj;
}
