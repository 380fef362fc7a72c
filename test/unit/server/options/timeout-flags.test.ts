import { expect } from 'chai';
import { FlagError, parseServerFlags } from '../../../../lib/server/options/flags.js';
import { defaultTimeoutFlags, validateTimeoutFlags } from '../../../../lib/server/options/timeout-flags.js';

describe('server/options/timeout-flags (issue #19 item 3)', () => {
  it('defaults to upstream 1m0s and 1800', () => {
    expect(parseServerFlags([]).timeouts).to.deep.equal({ requestTimeoutMs: 60_000, minRequestTimeoutSeconds: 1800 });
    expect(defaultTimeoutFlags()).to.deep.equal({ requestTimeoutMs: 60_000, minRequestTimeoutSeconds: 1800 });
  });

  it('parses a Go duration and an int', () => {
    expect(parseServerFlags(['--request-timeout=3s', '--min-request-timeout', '60']).timeouts).to.deep.equal({ requestTimeoutMs: 3000, minRequestTimeoutSeconds: 60 });
    expect(parseServerFlags(['--request-timeout=1m30s']).timeouts.requestTimeoutMs).to.equal(90_000);
  });

  const rejected: Array<[string[], string]> = [
    [['--request-timeout=10'], 'time: missing unit in duration "10"'],
    [['--request-timeout=-1s'], '--request-timeout can not be negative value'],
    [['--min-request-timeout=-5'], '--min-request-timeout can not be negative value'],
    [['--min-request-timeout=1.5'], 'strconv.ParseInt: parsing "1.5": invalid syntax'],
  ];
  for (const [argv, message] of rejected) {
    it(`rejects ${argv.join(' ')}: ${message}`, () => {
      expect(() => parseServerFlags(argv)).to.throw(FlagError).with.property('message').that.includes(message);
    });
  }

  it('validation accepts zero (no deadline, watches without an end)', () => {
    expect(validateTimeoutFlags({ requestTimeoutMs: 0, minRequestTimeoutSeconds: 0 })).to.deep.equal([]);
  });
});
