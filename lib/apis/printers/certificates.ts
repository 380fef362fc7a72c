/**
 * The CertificateSigningRequest's Table columns (spec 000 § Table representation), as the
 * upstream v1.30 printer: Name, Age, SignerName (`<none>`), Requestor (`spec.username`),
 * RequestedDuration (`expirationSeconds` as a human duration, `<none>`), Condition: `Denied`,
 * else `Approved`, else `Pending` (by condition type, whatever its status), then `,Failed` and
 * `,Issued` when a certificate is set.
 */
import { humanDuration } from '../../apimachinery/table/human-duration.js';
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { num, objs, str, type Obj } from '../core/v1/obj-access.js';
import { AGE_COLUMN, age, at, column, NAME_COLUMN, objectName, orNone } from './common.js';

/** The Condition cell of a request (upstream `extractCSRStatus`). */
export function csrCondition(csr: Obj): string {
  const status = at(csr, 'status');
  const types = new Set(objs(status.conditions).map((c) => c.type));
  let text = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) text += ',Failed';
  if (str(status.certificate) !== '') text += ',Issued';
  return text;
}

/** The CertificateSigningRequest printer. */
export const certificateSigningRequestPrinter: TablePrinter = Object.freeze({
  columns: Object.freeze([
    NAME_COLUMN,
    AGE_COLUMN,
    column('SignerName', 'string', 'The requested signer.'),
    column('Requestor', 'string', 'The user who created the request.'),
    column('RequestedDuration', 'string', 'The requested validity of the certificate.'),
    column('Condition', 'string', 'Approved, Denied or Pending; Failed and Issued when so.'),
  ]),
  cells: (csr: Obj, now: number) => {
    const spec = at(csr, 'spec');
    const seconds = num(spec.expirationSeconds);
    return [objectName(csr), age(csr, now), orNone(str(spec.signerName)), str(spec.username), seconds === undefined ? '<none>' : humanDuration(seconds * 1000), csrCondition(csr)];
  },
});
