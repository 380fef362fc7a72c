/**
 * Checks on existing certificate files with `node:crypto.X509Certificate`, deciding whether
 * the bootstrap PKI can reuse them: the key matches, the certificate is not (about to be)
 * expired, it was issued by the current CA, and it names what it must.
 */

import { X509Certificate, createPrivateKey } from 'node:crypto';

/** A certificate that expires within this many milliseconds is replaced (7 days). */
export const RENEW_BEFORE_EXPIRY_MS = 7 * 24 * 3_600_000;

const SERVER_AUTH_OID = '1.3.6.1.5.5.7.3.1';
const CLIENT_AUTH_OID = '1.3.6.1.5.5.7.3.2';

/**
 * The parsed certificate when `certPem` and `keyPem` form a pair usable at `now` (key matches,
 * expiry more than {@link RENEW_BEFORE_EXPIRY_MS} away); undefined when either is missing,
 * unparsable or unusable.
 */
export function usablePair(certPem: string | undefined, keyPem: string | undefined, now: number): X509Certificate | undefined {
  if (certPem === undefined || keyPem === undefined) return undefined;
  try {
    const cert = new X509Certificate(certPem);
    if (!cert.checkPrivateKey(createPrivateKey(keyPem))) return undefined;
    if (Date.parse(cert.validTo) - now < RENEW_BEFORE_EXPIRY_MS) return undefined;
    return cert;
  } catch {
    return undefined;
  }
}

/** Whether `cert` is a self-signed CA certificate. */
export function isSelfSignedCa(cert: X509Certificate): boolean {
  return cert.ca && cert.checkIssued(cert) && cert.verify(cert.publicKey);
}

/** Whether `cert` was signed by `ca`. */
export function isIssuedBy(cert: X509Certificate, ca: X509Certificate): boolean {
  return cert.checkIssued(ca) && cert.verify(ca.publicKey);
}

/** Whether `cert` is a server certificate whose SANs cover every DNS name and IP given. */
export function coversServing(cert: X509Certificate, dnsNames: string[], ips: string[]): boolean {
  return (
    (cert.keyUsage ?? []).includes(SERVER_AUTH_OID) &&
    dnsNames.every((name) => cert.checkHost(name, { subject: 'never', wildcards: false }) !== undefined) &&
    ips.every((ip) => cert.checkIP(ip) !== undefined)
  );
}

/** Whether `cert` is a client certificate for user `commonName` with every group in `organizations`. */
export function namesClient(cert: X509Certificate, commonName: string, organizations: string[]): boolean {
  const subject = subjectEntries(cert);
  const names = subject.filter(([k]) => k === 'CN').map(([, v]) => v);
  const groups = subject.filter(([k]) => k === 'O').map(([, v]) => v);
  return (
    (cert.keyUsage ?? []).includes(CLIENT_AUTH_OID) &&
    names.length === 1 &&
    names[0] === commonName &&
    organizations.every((o) => groups.includes(o))
  );
}

/** The subject's `[attribute, value]` pairs (`[['O', 'system:masters'], ['CN', 'admin']]`). */
export function subjectEntries(cert: X509Certificate): Array<[string, string]> {
  return cert.subject.split('\n').map((line) => {
    const eq = line.indexOf('=');
    return [line.slice(0, eq), line.slice(eq + 1)];
  });
}
