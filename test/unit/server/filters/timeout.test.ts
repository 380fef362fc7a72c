import { expect } from 'chai';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { requestDeadlineMs } from '../../../../lib/server/filters/timeout.js';
import { watchTimeoutSeconds } from '../../../../lib/endpoints/handlers/watch.js';

describe('server/filters/timeout: request deadline (issue #19 item 3)', () => {
  const cases: Array<[string | null, number, number]> = [
    [null, 60_000, 60_000],
    ['', 60_000, 60_000],
    ['10s', 60_000, 10_000],
    ['250ms', 60_000, 250],
    ['2m', 60_000, 60_000],
    ['0s', 60_000, 60_000],
    ['-5s', 60_000, 60_000],
    ['60s', 60_000, 60_000],
  ];
  for (const [param, max, want] of cases) {
    it(`timeout=${String(param)} under a maximum of ${max} ms gives ${want} ms`, () => {
      expect(requestDeadlineMs(param, max)).to.equal(want);
    });
  }

  it('a malformed timeout is 400 BadRequest with upstream message', () => {
    try {
      requestDeadlineMs('10', 60_000);
      expect.fail('no error');
    } catch (err) {
      expect(err).to.be.instanceOf(StatusError);
      const status = (err as StatusError).status;
      expect(status.code).to.equal(400);
      expect(status.reason).to.equal('BadRequest');
      expect(status.message).to.equal('invalid timeout specified in the request URL - time: missing unit in duration "10"');
    }
  });
});

describe('endpoints/handlers/watch: watch lifetime (issue #19 item 3)', () => {
  it('takes a positive timeoutSeconds as given', () => {
    expect(watchTimeoutSeconds(7, 1800)).to.equal(7);
  });
  it('picks a whole number of seconds in [min, 2 min) without timeoutSeconds', () => {
    for (let i = 0; i < 200; i++) {
      const t = watchTimeoutSeconds(0, 1800);
      expect(Number.isInteger(t)).to.equal(true);
      expect(t).to.be.at.least(1800).and.below(3600);
    }
  });
  it('never ends with --min-request-timeout=0 and no timeoutSeconds', () => {
    expect(watchTimeoutSeconds(0, 0)).to.equal(0);
  });
});
