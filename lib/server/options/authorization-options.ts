/**
 * The authorization options of one server process (spec 001 § Authorization): what the
 * Authorization flags say after parsing, one member per flag, with its unit. The control plane
 * builds the authorizer chain from them (lib/controlplane/authorization.ts).
 */

/** The authorization modes of `--authorization-mode` (spec 001 § Authorization). */
export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
/** One authorization mode. */
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

/** Validated authorization options; each member names its flag. */
export interface AuthorizationOptions {
  /**
   * `--authorization-mode`: the modes consulted in order (first Allow or Deny decides, all
   * NoOpinion → 403). Members of `system:masters` are always allowed before any mode.
   */
  modes: AuthorizationMode[];
}

/** The options every flag starts from. */
export function defaultAuthorizationOptions(): AuthorizationOptions {
  return { modes: ['Node', 'RBAC'] };
}

/** Cross-flag checks of the authorization flags (upstream `BuiltInAuthorizationOptions.Validate`, its messages); one reason each. */
export function validateAuthorizationOptions(o: AuthorizationOptions): string[] {
  const problems: string[] = [];
  if (o.modes.length === 0) problems.push('at least one authorization-mode must be passed');
  const seen = new Set<string>();
  for (const mode of o.modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode)) problems.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    if (seen.has(mode)) problems.push(`authorization-mode ${JSON.stringify(mode)} has mode specified more than once`);
    seen.add(mode);
  }
  return problems;
}
