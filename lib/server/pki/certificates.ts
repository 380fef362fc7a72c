/**
 * X.509 certificate issuing with node-forge: a self-signed CA and certificates it signs for
 * servers (extKeyUsage serverAuth, subject alternative names) and clients (clientAuth, CN =
 * user, O = groups). SHA-256 signatures, random positive 128-bit serial numbers.
 */

import { randomBytes } from 'node:crypto';
import forge from 'node-forge';
import type { RsaKey } from './keys.js';

/** How far back `notBefore` is set, in milliseconds, to tolerate clock skew between hosts. */
const BACKDATE_MS = 5 * 60_000;
const DAY_MS = 24 * 3_600_000;

/** A CA able to sign: its certificate (PEM) and key. */
export interface CertificateAuthority {
  certPem: string;
  key: RsaKey;
}

/** What a signed certificate is for and whom it names. */
export interface LeafSpec {
  /** The key the certificate certifies. */
  key: RsaKey;
  /** Subject CN: the user name for client certificates. */
  commonName: string;
  /** Subject O entries: the groups for client certificates. */
  organizations?: string[];
  /** `server` → extKeyUsage serverAuth; `client` → clientAuth; `peer` → both (etcd peer certificates). */
  usage: 'server' | 'client' | 'peer';
  /** DNS subject alternative names (server certificates). */
  dnsNames?: string[];
  /** IP subject alternative names, v4 or v6 (server certificates). */
  ips?: string[];
  /** Lifetime in days from now. */
  validDays: number;
}

/**
 * A random positive serial number, as forge's hex string. The first byte is kept in 0x40–0x7f:
 * positive, and never 0, whose DER integer would start with a padding byte that parsers refuse
 * ("illegal padding") when the next byte is below 0x80.
 */
export function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x3f) | 0x40;
  return bytes.toString('hex');
}

/** Sets the validity window `[now - BACKDATE_MS, now + validDays]`. */
function setValidity(cert: forge.pki.Certificate, validDays: number): void {
  const now = Date.now();
  cert.validity.notBefore = new Date(now - BACKDATE_MS);
  cert.validity.notAfter = new Date(now + validDays * DAY_MS);
}

/**
 * `cert` in PEM as Go's encoding/pem writes it, which is what upstream's files, kubeconfigs and
 * CA bundle ConfigMaps hold: 64 base64 characters a line, each line ending in LF (node-forge
 * ends them in CRLF).
 */
function certificatePem(cert: forge.pki.Certificate): string {
  return forge.pki.certificateToPem(cert).replace(/\r\n/g, '\n');
}

/** Creates a self-signed CA certificate (basicConstraints CA, keyCertSign) for `key`; returns PEM. */
export function createCaCertificate(key: RsaKey, commonName: string, validDays: number): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = key.forgePublicKey;
  cert.serialNumber = serialNumber();
  setValidity(cert, validDays);
  const subject = [{ name: 'commonName', value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key.forgePrivateKey, forge.md.sha256.create());
  return certificatePem(cert);
}

/** Creates a certificate for `spec`, signed by `ca`; returns PEM. */
export function createSignedCertificate(ca: CertificateAuthority, spec: LeafSpec): string {
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = spec.key.forgePublicKey;
  cert.serialNumber = serialNumber();
  setValidity(cert, spec.validDays);
  cert.setSubject([
    ...(spec.organizations ?? []).map((o) => ({ name: 'organizationName', value: o })),
    { name: 'commonName', value: spec.commonName },
  ]);
  cert.setIssuer(caCert.subject.attributes);
  const altNames = [
    ...(spec.dnsNames ?? []).map((value) => ({ type: 2, value })),
    ...(spec.ips ?? []).map((ip) => ({ type: 7, ip })),
  ];
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: spec.usage !== 'client', clientAuth: spec.usage !== 'server' },
    ...(altNames.length > 0 ? [{ name: 'subjectAltName', altNames }] : []),
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(ca.key.forgePrivateKey, forge.md.sha256.create());
  return certificatePem(cert);
}
