/**
 * The bootstrap PKI of a server started without certificate flags (issue #2 § TLS and
 * identity): under `--cert-dir`, a CA, a serving certificate for the local names and an admin
 * client certificate in `system:masters`. Existing valid files are reused byte for byte, so
 * kubeconfigs and trust stores made earlier keep working across restarts.
 */

import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MASTERS_GROUP } from '../../request/user.js';
import { ADMIN_USER, SERVER_NAME } from '../../apis/vendor.js';
import { createCaCertificate, createSignedCertificate, type CertificateAuthority } from './certificates.js';
import { PRIVATE_FILE_MODE, PUBLIC_FILE_MODE, readIfExists, writeFileAtomic } from './files.js';
import { coversServing, isIssuedBy, isSelfSignedCa, namesClient, usablePair } from './inspect.js';
import { generateRsaKey, rsaKeyFromPem, type RsaKey } from './keys.js';

/** CA lifetime in days (10 years). */
export const CA_VALID_DAYS = 3650;
/** Serving and client certificate lifetime in days (1 year). */
export const LEAF_VALID_DAYS = 365;

/** What {@link ensureServingPKI} must provide. */
export interface ServingPKIRequest {
  /** Directory of the files (created with mode 0700 if missing). */
  certDir: string;
  /** DNS names for the serving certificate beyond `localhost` and `os.hostname()`; IP literals here count as ips. */
  hostnames?: string[];
  /** IP SANs beyond `127.0.0.1` and `::1`. */
  ips?: string[];
}

/** Locations of the PKI files under the cert dir. */
export interface PKIPaths {
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  adminCert: string;
  adminKey: string;
}

/** The PKI in PEM form (keys PKCS#8), where it lives, and which files this call (re)wrote. */
export interface ServingPKI {
  caCertPem: string;
  caKeyPem: string;
  servingCertPem: string;
  servingKeyPem: string;
  adminCertPem: string;
  adminKeyPem: string;
  paths: PKIPaths;
  /** Base names of the files written by this call (empty when everything was reused). */
  generated: string[];
}

/** The PKI file locations under `certDir`. */
export function pkiPaths(certDir: string): PKIPaths {
  const at = (name: string): string => path.join(certDir, name);
  return {
    caCert: at('ca.crt'),
    caKey: at('ca.key'),
    servingCert: at('apiserver.crt'),
    servingKey: at('apiserver.key'),
    adminCert: at('admin.crt'),
    adminKey: at('admin.key'),
  };
}

/** The serving certificate's required SANs: localhost, the host name, loopback IPs, plus the extras. */
export function servingNames(request: ServingPKIRequest): { dnsNames: string[]; ips: string[] } {
  const extras = request.hostnames ?? [];
  const dnsNames = ['localhost', os.hostname().toLowerCase(), ...extras.filter((h) => isIP(h) === 0).map((h) => h.toLowerCase())];
  const ips = ['127.0.0.1', '::1', ...extras.filter((h) => isIP(h) !== 0), ...(request.ips ?? [])];
  return { dnsNames: [...new Set(dnsNames)], ips: [...new Set(ips)] };
}

/** A certificate and key in PEM. */
interface PemPair {
  certPem: string;
  keyPem: string;
}

/**
 * Makes sure `certDir` holds a usable CA (`ca.crt`/`ca.key`), serving certificate
 * (`apiserver.crt`/`.key`, serverAuth, SANs of {@link servingNames}) and admin client
 * certificate (`admin.crt`/`.key`, CN {@link ADMIN_USER}, O {@link MASTERS_GROUP}, clientAuth),
 * all RSA 2048 and SHA-256. A pair is reused when its key matches, it expires more than 7 days
 * from now, the leaf was issued by the CA and names what it must; otherwise it is replaced
 * (a new CA replaces both leaves). Keys are written 0600, certificates 0644, atomically.
 * @throws filesystem errors (e.g. an unwritable cert dir).
 */
export async function ensureServingPKI(request: ServingPKIRequest): Promise<ServingPKI> {
  const paths = pkiPaths(request.certDir);
  const now = Date.now();
  const [caCertPem, caKeyPem, servingCertPem, servingKeyPem, adminCertPem, adminKeyPem] = await Promise.all(
    [paths.caCert, paths.caKey, paths.servingCert, paths.servingKey, paths.adminCert, paths.adminKey].map(readIfExists),
  );
  const { dnsNames, ips } = servingNames(request);

  const oldCa = usablePair(caCertPem, caKeyPem, now);
  const caReused = oldCa !== undefined && isSelfSignedCa(oldCa);
  const leafReusable = (certPem: string | undefined, keyPem: string | undefined, names: (c: X509Certificate) => boolean): boolean => {
    const cert = caReused ? usablePair(certPem, keyPem, now) : undefined;
    return cert !== undefined && isIssuedBy(cert, oldCa!) && names(cert);
  };
  const servingReused = leafReusable(servingCertPem, servingKeyPem, (c) => coversServing(c, dnsNames, ips));
  const adminReused = leafReusable(adminCertPem, adminKeyPem, (c) => namesClient(c, ADMIN_USER, [MASTERS_GROUP]));

  const [caKey, servingKey, adminKey] = await Promise.all([
    caReused ? rsaKeyFromPem(caKeyPem!) : generateRsaKey(),
    servingReused ? undefined : generateRsaKey(),
    adminReused ? undefined : generateRsaKey(),
  ]);
  const generated: string[] = [];
  const issue = async (certFile: string, keyFile: string, key: RsaKey, certPem: string): Promise<PemPair> => {
    await writeFileAtomic(keyFile, key.privateKeyPem, PRIVATE_FILE_MODE);
    await writeFileAtomic(certFile, certPem, PUBLIC_FILE_MODE);
    generated.push(path.basename(certFile), path.basename(keyFile));
    return { certPem, keyPem: key.privateKeyPem };
  };

  const caPair = caReused
    ? { certPem: caCertPem!, keyPem: caKeyPem! }
    : await issue(paths.caCert, paths.caKey, caKey, createCaCertificate(caKey, `${SERVER_NAME}-ca`, CA_VALID_DAYS));
  const ca: CertificateAuthority = { certPem: caPair.certPem, key: caKey };
  const serving = servingKey === undefined
    ? { certPem: servingCertPem!, keyPem: servingKeyPem! }
    : await issue(paths.servingCert, paths.servingKey, servingKey, createSignedCertificate(ca, {
        key: servingKey, commonName: SERVER_NAME, usage: 'server', dnsNames, ips, validDays: LEAF_VALID_DAYS,
      }));
  const admin = adminKey === undefined
    ? { certPem: adminCertPem!, keyPem: adminKeyPem! }
    : await issue(paths.adminCert, paths.adminKey, adminKey, createSignedCertificate(ca, {
        key: adminKey, commonName: ADMIN_USER, organizations: [MASTERS_GROUP], usage: 'client', validDays: LEAF_VALID_DAYS,
      }));

  return {
    caCertPem: caPair.certPem,
    caKeyPem: caPair.keyPem,
    servingCertPem: serving.certPem,
    servingKeyPem: serving.keyPem,
    adminCertPem: admin.certPem,
    adminKeyPem: admin.keyPem,
    paths,
    generated,
  };
}
