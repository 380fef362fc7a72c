import { expect } from 'chai';
import { goDuration, withRequestLog } from '../../../../lib/server/filters/request-log.js';
import { newLogger } from '../../../../lib/server/logging.js';

describe('server/filters/request-log (issue #16 item 7)', () => {
  it('goDuration formats as Go\'s time.Duration.String()', () => {
    const cases: Array<[bigint, string]> = [
      [0n, '0s'],
      [812n, '812ns'],
      [1_500n, '1.5µs'],
      [1_000n, '1µs'],
      [1_234_567n, '1.234567ms'],
      [12_000_000n, '12ms'],
      [1_200_000_000n, '1.2s'],
      [123_500_000_000n, '2m3.5s'],
      [3_600_000_000_000n, '1h0m0s'],
      [-1_500n, '-1.5µs'],
    ];
    for (const [ns, text] of cases) expect(goDuration(ns), String(ns)).to.equal(text);
  });

  it('is not installed below -v=3, as upstream', () => {
    const devnull = { write: () => undefined };
    expect(withRequestLog(newLogger(2, devnull, 'json'))).to.equal(undefined);
    expect(withRequestLog(newLogger(3, devnull, 'json'))).to.be.a('function');
  });
});
