/** Test doubles of the certificate admission plugins' dependencies. */
import type { AdmissionLog } from '../../../../lib/admission/plugin-deps.js';
import type { AuthorizationAttributes, Authorizer, Decision } from '../../../../lib/request/authorization.js';

/** An authorizer answering from `decisions` keyed `<user> <verb> <name>` (NoOpinion otherwise), recording what it was asked. */
export function fakeAuthorizer(decisions: Record<string, Decision>): Authorizer & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async authorize(a: AuthorizationAttributes) {
      const key = `${a.user.name} ${a.verb} ${a.name}`;
      asked.push(key);
      return { decision: decisions[key] ?? 'NoOpinion', reason: '' };
    },
  };
}

/** A log that keeps the messages of its warnings. */
export function quietLog(): AdmissionLog & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (_o, msg) => void warnings.push(msg), error: () => undefined, info: () => undefined };
}
