/**
 * Failures of custom resource conversion (upstream apiextensions-apiserver
 * `pkg/apiserver/conversion`) and the Status a request gets for one.
 */
import { StatusError } from '../../apimachinery/errors.js';

/**
 * A conversion that failed: a version the CRD does not list, an unreachable or failing
 * conversion webhook, or an answer that breaks the rules of a conversion. `message` is upstream's
 * error text, byte for byte (`conversion for <group>/<version>, Kind=<Kind> failed: …`).
 */
export class ConversionError extends Error {
  override readonly name = 'ConversionError';
}

/**
 * The Status upstream answers a get, list, watch or write whose objects cannot be converted.
 * Upstream's conversion errors are plain Go errors surfacing from the storage codec, which the
 * handler turns into a Status with `ErrorToAPIStatus`: code 500, no reason (StatusReasonUnknown
 * is empty and left out), the error's text as message, no details. kubectl shows it as
 * `Error from server: <message>`.
 */
export function conversionErrorStatus(err: ConversionError): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: err.message, code: 500 });
}
