/**
 * The authorization options of one server process (spec 001 § Authorization): what the
 * Authorization flags say after parsing, one member per flag, with its unit. The control plane
 * builds the authorizer chain from them (lib/controlplane/authorization.ts).
 */

/** The authorization modes of `--authorization-mode` (spec 001 § Authorization). */
export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
/** One authorization mode. */
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

/** SubjectAccessReview versions `--authorization-webhook-version` accepts. */
export const AUTHORIZATION_WEBHOOK_VERSIONS: readonly string[] = ['v1', 'v1beta1'];

/** Validated authorization options; each member names its flag. */
export interface AuthorizationOptions {
  /**
   * `--authorization-mode`: the modes consulted in order (first Allow or Deny decides, all
   * NoOpinion → 403). Members of `system:masters` are always allowed before any mode. Ignored
   * when `config` is set (the file's authorizers are the chain).
   */
  modes: AuthorizationMode[];
  /** `--authorization-policy-file`: the ABAC policy file ('' = none; required by mode ABAC). */
  policyFile: string;
  /** `--authorization-webhook-config-file`: kubeconfig of the Webhook mode's service ('' = none; required by mode Webhook). */
  webhookConfigFile: string;
  /** `--authorization-webhook-version`: SubjectAccessReview version spoken to the webhook (`v1beta1` default, or `v1`). */
  webhookVersion: string;
  /** `--authorization-webhook-cache-authorized-ttl`, in milliseconds (default 300 000 = `5m0s`; 0 = not cached). */
  webhookCacheAuthorizedTTLMs: number;
  /** `--authorization-webhook-cache-unauthorized-ttl`, in milliseconds (default 30 000 = `30s`; 0 = not cached). */
  webhookCacheUnauthorizedTTLMs: number;
  /** `--authorization-config`: the AuthorizationConfiguration file ('' = none: the chain comes from `modes`). */
  config: string;
  /**
   * Whether `--authorization-mode` or any `--authorization-webhook-*` flag was given on the
   * command line (they may not be mixed with `--authorization-config`).
   */
  legacyFlagsGiven?: boolean;
}

/** The options every flag starts from. */
export function defaultAuthorizationOptions(): AuthorizationOptions {
  return {
    modes: ['Node', 'RBAC'],
    policyFile: '',
    webhookConfigFile: '',
    webhookVersion: 'v1beta1',
    webhookCacheAuthorizedTTLMs: 5 * 60_000,
    webhookCacheUnauthorizedTTLMs: 30_000,
    config: '',
  };
}

/** Cross-flag checks of the authorization flags (upstream `BuiltInAuthorizationOptions.Validate`, its messages); one reason each. */
export function validateAuthorizationOptions(o: AuthorizationOptions): string[] {
  if (o.config) {
    // The file itself is loaded and validated when the chain is built (a start-up error too).
    return o.legacyFlagsGiven ? ['--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined'] : [];
  }
  const problems: string[] = [];
  if (o.modes.length === 0) problems.push('at least one authorization-mode must be passed');
  const seen = new Set<string>();
  for (const mode of o.modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode)) problems.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    if (mode === 'ABAC' && !o.policyFile) problems.push("authorization-mode ABAC's authorization policy file not passed");
    if (mode === 'Webhook' && !o.webhookConfigFile) problems.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (o.policyFile && !o.modes.includes('ABAC')) problems.push('cannot specify --authorization-policy-file without mode ABAC');
  if (o.webhookConfigFile && !o.modes.includes('Webhook')) problems.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  for (const mode of o.modes) {
    if (seen.has(mode)) {
      problems.push(`authorization-mode ${goStringSliceQuote(o.modes)} has mode specified more than once`);
      break;
    }
    seen.add(mode);
  }
  if (o.modes.includes('Webhook') && !AUTHORIZATION_WEBHOOK_VERSIONS.includes(o.webhookVersion)) {
    problems.push(`unsupported webhook authorizer version ${JSON.stringify(o.webhookVersion)}, supported versions are "v1", "v1beta1"`);
  }
  return problems;
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
function goStringSliceQuote(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}
