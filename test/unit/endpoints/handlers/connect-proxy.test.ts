/** Which requests the connect handler forwards as an upgrade (issue #20; spec 000 § Verb mapping). */
import { expect } from 'chai';
import { isUpgradeRequest } from '../../../../lib/endpoints/handlers/connect-proxy.js';

describe('endpoints/handlers/connect-proxy isUpgradeRequest (issue #20)', () => {
  const cases: Array<[string, Record<string, string>, boolean]> = [
    ['WebSocket', { connection: 'Upgrade', upgrade: 'websocket' }, true],
    ['SPDY with another connection token, any case', { connection: 'keep-alive, upgrade', upgrade: 'SPDY/3.1' }, true],
    ['an Upgrade header without Connection: Upgrade', { upgrade: 'websocket' }, false],
    ['Connection: Upgrade without an Upgrade header', { connection: 'Upgrade' }, false],
    ['a plain request', { connection: 'keep-alive' }, false],
  ];
  for (const [title, headers, want] of cases) {
    it(`${title}: ${want}`, () => {
      expect(isUpgradeRequest(headers)).to.equal(want);
    });
  }
});
