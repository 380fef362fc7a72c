import { expect } from 'chai';
import { ageOf } from '../../../console/src/util/age.js';

describe('console/age: AGE as kubectl prints it (issue #22 § Lists are live; the durations themselves: test/unit/apimachinery/table/human-duration.test.ts)', () => {
  it('ageOf counts from an RFC 3339 timestamp, and leaves an unparsable one alone', () => {
    expect(ageOf('2026-01-01T00:00:00Z', Date.parse('2026-01-01T00:03:12Z'))).to.equal('3m12s');
    expect(ageOf('not a time', Date.now())).to.equal(undefined);
  });
});
