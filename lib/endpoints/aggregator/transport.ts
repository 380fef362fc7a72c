/**
 * How the server talks to an extension API server (spec 000 § Other paths; spec 001
 * § Authenticating proxy flags; upstream v1.30 kube-aggregator's proxy transport and client-go's
 * auth-proxy round tripper): TLS to the resolved address, verified against the APIService's
 * `caBundle` for the server name `<service>.<namespace>.svc` (or not verified with
 * `insecureSkipTLSVerify`), presenting the `--proxy-client-*` certificate; the user goes in the
 * fixed request-header names `X-Remote-User`, `X-Remote-Group` (one line per group) and
 * `X-Remote-Extra-<key>` (one line per value, the key escaped as upstream).
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { RequestOptions } from 'node:https';
import type { Obj } from '../../apis/define.js';
import type { UserInfo } from '../../request/user.js';
import type { ResolvedEndpoint } from '../../client/service-resolver.js';

/** The certificate and key presented to extension servers (`--proxy-client-cert-file`, `--proxy-client-key-file`). */
export interface ProxyClientCertificate {
  certPem: string;
  keyPem: string;
}

/** The user header names upstream's proxy always sends, whatever `--requestheader-*` says. */
export const REMOTE_USER_HEADER = 'X-Remote-User';
export const REMOTE_GROUP_HEADER = 'X-Remote-Group';
export const REMOTE_EXTRA_PREFIX = 'X-Remote-Extra-';

/** Bytes that stand for themselves in an extra key: RFC 7230 token characters except `%`. */
const LEGAL_KEY_BYTE = /^[!#$&'*+\-.^_`|~0-9A-Za-z]$/;

/** An extra key as a header-name suffix: every other byte of its UTF-8 form as `%XX` (upstream `headerKeyEscape`). */
export function escapeExtraKey(key: string): string {
  let out = '';
  for (const b of Buffer.from(key, 'utf8')) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && LEGAL_KEY_BYTE.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The request headers naming `user` for an extension server (arrays: one header line per value). */
export function authProxyHeaders(user: UserInfo): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { [REMOTE_USER_HEADER]: user.name };
  if (user.groups.length > 0) headers[REMOTE_GROUP_HEADER] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {})) {
    if (values.length > 0) headers[`${REMOTE_EXTRA_PREFIX}${escapeExtraKey(key)}`] = [...values];
  }
  return headers;
}

/** The TLS server name an APIService's Service is verified as: `<service>.<namespace>.svc`. */
export function serviceServerName(apiService: Obj): string {
  const svc = ((apiService.spec as Obj | undefined)?.service ?? {}) as { name?: string; namespace?: string };
  return `${svc.name ?? ''}.${svc.namespace ?? ''}.svc`;
}

/**
 * The `https.request` options that reach `target` for `apiService` (no method, path or headers):
 * `caBundle` (stored base64) as the only trusted CAs when set, else the system's; no verification
 * with `insecureSkipTLSVerify`; the proxy client certificate when configured.
 */
export function tlsRequestOptions(apiService: Obj, target: ResolvedEndpoint, client: ProxyClientCertificate | undefined): RequestOptions {
  const spec = (apiService.spec ?? {}) as { caBundle?: string; insecureSkipTLSVerify?: boolean };
  const ca = spec.caBundle ? Buffer.from(spec.caBundle, 'base64').toString('utf8') : undefined;
  return {
    host: target.host,
    port: target.port,
    servername: serviceServerName(apiService),
    rejectUnauthorized: spec.insecureSkipTLSVerify !== true,
    ...(ca !== undefined && { ca }),
    ...(client && { cert: client.certPem, key: client.keyPem }),
    agent: false,
  };
}
