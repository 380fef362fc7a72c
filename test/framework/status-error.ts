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

/** The Status body of a request ended by the request timeout (lib/server/filters/timeout.ts), as upstream writes it. */
export const REQUEST_TIMEOUT_STATUS = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
  reason: 'Timeout',
  details: {},
  code: 504,
} as const;
