/**
 * Unit-test helper: the StatusError a synchronous call throws.
 */
import { expect } from 'chai';
import { StatusError } from '../../lib/apimachinery/errors.js';

/** The StatusError `fn` throws; fails the test with `what` (or a default) when it returns. */
export function statusErrorOf(fn: () => unknown, what = 'expected a StatusError'): StatusError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(StatusError);
    return err as StatusError;
  }
  expect.fail(what);
}
