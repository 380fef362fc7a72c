/**
 * The authentication options of one server process (spec 001 § Authentication): what the
 * Authentication flags say after parsing, one member per flag, with its unit. The control plane
 * builds the authenticator union from them (lib/controlplane/authentication.ts).
 */

/** Validated authentication options; each member names its flag. */
export interface AuthenticationOptions {
  /** `--anonymous-auth`: requests without credentials run as `system:anonymous` (default true); false → 401. */
  anonymousAuth: boolean;
  /** `--token-auth-file`: CSV of static bearer tokens (`token,user,uid,"group1,group2"`). */
  tokenAuthFile?: string;
}

/** The options every flag starts from. */
export function defaultAuthenticationOptions(): AuthenticationOptions {
  return { anonymousAuth: true };
}

/** Cross-flag checks of the authentication flags (upstream `BuiltInAuthenticationOptions.Validate`); one reason each. */
export function validateAuthenticationOptions(_o: AuthenticationOptions): string[] {
  return [];
}
