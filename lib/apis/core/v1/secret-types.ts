/**
 * Well-known Secret types and the data keys and annotations they require (upstream core/v1
 * `SecretType*` constants). Vendor-qualified names are built from vendor.ts.
 */
import { BOOTSTRAP_TOKEN_SECRET_TYPE, vendorKey } from '../../vendor.js';

/** Secret `type` values the server knows; any other string is accepted without extra rules. */
export const SECRET_TYPE = {
  opaque: 'Opaque',
  serviceAccountToken: vendorKey('service-account-token'),
  dockercfg: vendorKey('dockercfg'),
  dockerConfigJson: vendorKey('dockerconfigjson'),
  basicAuth: vendorKey('basic-auth'),
  sshAuth: vendorKey('ssh-auth'),
  tls: vendorKey('tls'),
  bootstrapToken: BOOTSTRAP_TOKEN_SECRET_TYPE,
} as const;

/** Annotation naming the ServiceAccount a service-account-token Secret belongs to. */
export const SERVICE_ACCOUNT_NAME_ANNOTATION = vendorKey('service-account.name');
/** Annotation with the uid of that ServiceAccount (set by the tokens controller). */
export const SERVICE_ACCOUNT_UID_ANNOTATION = vendorKey('service-account.uid');

/** Data keys of a service-account-token Secret, filled in by the tokens controller (upstream `ServiceAccount*Key`). */
export const SERVICE_ACCOUNT_TOKEN_KEY = { token: 'token', rootCA: 'ca.crt', namespace: 'namespace' } as const;

/** Data keys the typed Secrets require. */
export const SECRET_KEY = {
  dockercfg: '.dockercfg',
  dockerConfigJson: '.dockerconfigjson',
  username: 'username',
  password: 'password',
  sshPrivateKey: 'ssh-privatekey',
  tlsCert: 'tls.crt',
  tlsKey: 'tls.key',
} as const;
