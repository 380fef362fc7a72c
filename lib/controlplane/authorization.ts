/**
 * The authorizer chain of our server, built from the Authorization flags: the privileged group
 * (`system:masters`, always allowed, as upstream's privileged-group rule), then each mode of
 * `--authorization-mode` in order (spec 001 § Authorization).
 */
import type { Authorizer, RuleResolver } from '../authorization/interface.js';
import { BasicUserAuthorizer } from '../authorization/basic-user/authorizer.js';
import { PrivilegedGroupAuthorizer } from '../authorization/privileged-group/authorizer.js';
import { PublicPathsAuthorizer } from '../authorization/public-paths/authorizer.js';
import { UnionAuthorizer } from '../authorization/union.js';
import type { AuthorizationMode, AuthorizationOptions } from '../server/options/authorization-options.js';

/** The built authorization: the chain the handler chain runs and the rule resolver of SelfSubjectRulesReview. */
export interface Authorization {
  authorizer: Authorizer;
  /** The rules a user holds in a namespace, from the modes that can list them. */
  ruleResolver: RuleResolver;
  /** Stops background work (informers, file reloads, webhook connections). */
  stop(): void;
}

/** One mode, built. */
interface BuiltMode {
  authorizer: Authorizer;
  ruleResolver?: RuleResolver;
}

/**
 * Builds the mode `mode`. RBAC and Node are, until their authorizers exist (issue #11), the
 * fixed grants this server had before: public health, version and discovery paths and
 * SelfSubjectReview for authenticated users.
 */
function buildMode(mode: AuthorizationMode): BuiltMode | undefined {
  switch (mode) {
    case 'RBAC':
      return { authorizer: new UnionAuthorizer([new PublicPathsAuthorizer(), new BasicUserAuthorizer()]) };
    default:
      return undefined;
  }
}

/**
 * Builds the authorizer chain from `opts`.
 * @throws Error when a configured file cannot be read or parsed (a start-up error).
 */
export async function buildAuthorization(opts: AuthorizationOptions): Promise<Authorization> {
  const modes = opts.modes.map(buildMode).filter((m): m is BuiltMode => m !== undefined);
  const resolvers = modes.map((m) => m.ruleResolver);
  return {
    authorizer: new UnionAuthorizer([new PrivilegedGroupAuthorizer(), ...modes.map((m) => m.authorizer)]),
    ruleResolver: {
      async rulesFor(user, namespace) {
        const out = { resourceRules: [], nonResourceRules: [], incomplete: false } as Awaited<ReturnType<RuleResolver['rulesFor']>>;
        for (const r of resolvers) {
          if (!r) {
            out.incomplete = true;
            continue;
          }
          const got = await r.rulesFor(user, namespace);
          out.resourceRules.push(...got.resourceRules);
          out.nonResourceRules.push(...got.nonResourceRules);
          if (got.incomplete) out.incomplete = true;
          if (got.evaluationError) out.evaluationError = [out.evaluationError, got.evaluationError].filter(Boolean).join(', ');
        }
        return out;
      },
    },
    stop() {},
  };
}
