/**
 * The server's words the console needs (issue #22): served by the server as
 * `/console/config.json` from its vendor module, so the console spells no vendor word itself.
 */

/** The body of `/console/config.json`. */
export interface ConsoleConfig {
  /** The API group domain, e.g. `<vendor>.io`: `rbac.authorization.<groupDomain>` and so on. */
  groupDomain: string;
  /**
   * The upstream domain whose group spellings the server also serves (`--upstream-aliases`):
   * `rbac.authorization.<aliasGroupDomain>` is the same API as `rbac.authorization.<groupDomain>`.
   */
  aliasGroupDomain: string;
  /** The group of Table, PartialObjectMetadata and the other meta types (`meta.<groupDomain>`). */
  metaGroup: string;
  /** The field manager of the console's server-side applies. */
  fieldManager: string;
}

let loaded: Promise<ConsoleConfig> | undefined;

/** The config (fetched once; public, no credentials needed). Throws when it cannot be read. */
export function loadConfig(): Promise<ConsoleConfig> {
  loaded ??= fetch('/console/config.json').then(async (r) => {
    if (!r.ok) throw new Error(`/console/config.json: ${r.status}`);
    return (await r.json()) as ConsoleConfig;
  });
  return loaded;
}

/** A group of the server's domain: `group('rbac.authorization')` → `rbac.authorization.<groupDomain>`. */
export function vendorGroup(config: ConsoleConfig, prefix: string): string {
  return `${prefix}.${config.groupDomain}`;
}

/** The Accept header asking for a Table (`kubectl get` columns), JSON objects as fallback. */
export function tableAccept(config: ConsoleConfig): string {
  return `application/json;as=Table;v=v1;g=${config.metaGroup}, application/json`;
}
