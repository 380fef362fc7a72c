/**
 * `--controllers`: which of the in-process controllers run, in upstream kube-controller-manager's
 * syntax — a list where `*` stands for every on-by-default controller, `foo` enables `foo` and
 * `-foo` disables it; the first entry naming a controller decides. Controllers have upstream's
 * names (`token-cleaner-controller`) and accept upstream's short aliases (`tokencleaner`).
 */

/** One controller the flag can name. */
export interface ControllerName {
  /** Upstream's canonical name. */
  name: string;
  /** Upstream's alias (the pre-1.28 name). */
  alias: string;
  /** Whether `*` includes it. */
  defaultOn: boolean;
}

/**
 * The controllers `--controllers` selects among: every in-process controller that upstream runs in
 * kube-controller-manager (the loops upstream's kube-apiserver itself runs are not selectable).
 */
export const KNOWN_CONTROLLERS: readonly ControllerName[] = [
  { name: 'bootstrap-signer-controller', alias: 'bootstrapsigner', defaultOn: false },
  { name: 'clusterrole-aggregation-controller', alias: 'clusterrole-aggregation', defaultOn: true },
  { name: 'garbage-collector-controller', alias: 'garbagecollector', defaultOn: true },
  { name: 'namespace-controller', alias: 'namespace', defaultOn: true },
  { name: 'persistentvolume-protection-controller', alias: 'pv-protection', defaultOn: true },
  { name: 'persistentvolumeclaim-protection-controller', alias: 'pvc-protection', defaultOn: true },
  { name: 'resourcequota-controller', alias: 'resourcequota', defaultOn: true },
  { name: 'root-ca-certificate-publisher-controller', alias: 'root-ca-cert-publisher', defaultOn: true },
  { name: 'serviceaccount-controller', alias: 'serviceaccount', defaultOn: true },
  { name: 'serviceaccount-token-controller', alias: 'serviceaccount-token', defaultOn: true },
  { name: 'token-cleaner-controller', alias: 'tokencleaner', defaultOn: false },
  { name: 'validatingadmissionpolicy-status-controller', alias: 'validatingadmissionpolicy-status', defaultOn: true },
];

/** The flag's default: every on-by-default controller. The same array until the flag is given. */
export const DEFAULT_CONTROLLERS: readonly string[] = Object.freeze(['*']);

/** The canonical name of a controller named by either spelling, or undefined when unknown. */
function canonical(name: string): string | undefined {
  return KNOWN_CONTROLLERS.find((c) => c.name === name || c.alias === name)?.name;
}

/** `--help` text of the flag. */
export function describeControllers(): string {
  const names = (list: readonly ControllerName[]) => list.map((c) => c.name).join(', ');
  return (
    "A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'. " +
    `All controllers: ${names(KNOWN_CONTROLLERS)}. Disabled-by-default controllers: ${names(KNOWN_CONTROLLERS.filter((c) => !c.defaultOn))}. ` +
    `Aliases: ${KNOWN_CONTROLLERS.map((c) => `${c.alias}=${c.name}`).join(', ')}.`
  );
}

/** Upstream's validation: one reason per entry naming no known controller (`"foo" is not in the list of known controllers`). */
export function validateControllers(list: readonly string[]): string[] {
  return list
    .filter((entry) => entry !== '*')
    .map((entry) => (entry.startsWith('-') ? entry.slice(1) : entry))
    .filter((name) => canonical(name) === undefined)
    .map((name) => `${JSON.stringify(name)} is not in the list of known controllers`);
}

/**
 * Whether the controller `name` (canonical or alias) runs under `list` (upstream
 * `IsControllerEnabled`): the first entry that names it, enabled or disabled, decides; without
 * one, `*` enables it if it is on by default; otherwise it does not run.
 */
export function isControllerEnabled(name: string, list: readonly string[]): boolean {
  const want = canonical(name);
  if (want === undefined) return false;
  let star = false;
  for (const entry of list) {
    if (entry === '*') star = true;
    else if (entry.startsWith('-') ? canonical(entry.slice(1)) === want : canonical(entry) === want) return !entry.startsWith('-');
  }
  return star && (KNOWN_CONTROLLERS.find((c) => c.name === want)?.defaultOn ?? false);
}
