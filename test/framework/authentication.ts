/** Test helpers for authenticators (issue #10): what a rejected lookup says. */
import { expect } from 'chai';
import { AuthenticationError } from '../../lib/authentication/interface.js';

/** The AuthenticationError `p` rejects with; fails the test when it resolves or rejects otherwise. */
export async function authenticationRejection(p: Promise<unknown>): Promise<AuthenticationError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(AuthenticationError);
    return err as AuthenticationError;
  }
  return expect.fail('expected an AuthenticationError');
}

/** The message of the AuthenticationError `p` rejects with (see {@link authenticationRejection}). */
export async function rejection(p: Promise<unknown>): Promise<string> {
  return (await authenticationRejection(p)).message;
}
