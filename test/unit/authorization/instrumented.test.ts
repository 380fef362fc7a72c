import { expect } from 'chai';
import type { AuthorizationAttributes, AuthorizationResult, Decision } from '../../../lib/authorization/interface.js';
import { instrumentedAuthorizer } from '../../../lib/authorization/instrumented.js';

describe('authorization/instrumented', () => {
  const attrs = {} as AuthorizationAttributes;
  const answering = (decision: Decision) => ({ authorize: async (): Promise<AuthorizationResult> => ({ decision, reason: `said ${decision}` }) });

  it('records Allow as allowed and Deny as denied under the type and name, NoOpinion not at all, and passes the result through', async () => {
    const recorded: string[] = [];
    const record = (type: string, name: string, decision: string) => recorded.push(`${type}/${name}/${decision}`);
    for (const decision of ['Allow', 'Deny', 'NoOpinion'] as const) {
      const result = await instrumentedAuthorizer('Webhook', 'default', answering(decision), record).authorize(attrs);
      expect(result).to.deep.equal({ decision, reason: `said ${decision}` });
    }
    expect(recorded).to.deep.equal(['Webhook/default/allowed', 'Webhook/default/denied']);
  });
});
