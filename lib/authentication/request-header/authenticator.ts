/**
 * The authenticating proxy (spec 001 § Authenticating proxy flags): a front proxy that has
 * authenticated the user passes the identity in request headers, and the server believes them
 * only from a connection whose client certificate chains up to `--requestheader-client-ca-file`
 * (not `--client-ca-file`) and, when `--requestheader-allowed-names` is set, whose subject CN is
 * one of those names. As upstream:
 *
 * - username: the first of `--requestheader-username-headers` with a non-empty value (its first
 *   value); none → the request is not the proxy's (the other methods run);
 * - groups: every non-empty value of every `--requestheader-group-headers` header, one group per
 *   header line (a comma inside a value does not split it);
 * - extra: each header starting with a `--requestheader-extra-headers-prefix` gives the key
 *   (prefix removed, lower-cased, percent-decoded; kept as is when the escapes are malformed)
 *   and all its values;
 * - header names are compared case-insensitively;
 * - the identity headers are removed from EVERY request this method sees, proxied or not, so
 *   nothing downstream can read an identity the server did not check (run it first in the union).
 */
import type { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { type AuthResult, AuthenticationError, type RequestAuthenticator } from '../interface.js';
import { parseCertificateBundle, verifyPeer } from '../x509/verify.js';

/** The configuration of the method, one member per flag. */
export interface RequestHeaderConfig {
  /** `--requestheader-username-headers`, in order. */
  usernameHeaders: readonly string[];
  /** `--requestheader-group-headers`. */
  groupHeaders: readonly string[];
  /** `--requestheader-extra-headers-prefix`. */
  extraHeaderPrefixes: readonly string[];
  /** The CAs of `--requestheader-client-ca-file`. */
  clientCA: readonly X509Certificate[];
  /** `--requestheader-allowed-names`; empty: any certificate of the CA. */
  allowedNames: readonly string[];
}

/** Whether a connection's certificate may speak for users: yes, no certificate, or why not. */
type Verdict = { trusted: true } | { none: true } | { error: string };

/**
 * Decodes `%XX` escapes as Go's `url.PathUnescape` does (bytes, then UTF-8); a malformed escape
 * leaves `key` as it is.
 */
export function unescapeExtraKey(key: string): string {
  if (!key.includes('%')) return key;
  if (/%(?![0-9a-fA-F]{2})/.test(key)) return key;
  const bytes: number[] = [];
  for (let i = 0; i < key.length; i++) {
    if (key[i] === '%') {
      bytes.push(parseInt(key.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(key[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Reads the identity a trusted proxy put in the request headers. */
export class RequestHeaderAuthenticator implements RequestAuthenticator {
  private readonly verdicts = new WeakMap<TLSSocket, Verdict>();
  private readonly usernameHeaders: string[];
  private readonly groupHeaders: string[];
  private readonly prefixes: string[];
  private readonly named: Set<string>;

  constructor(private readonly config: RequestHeaderConfig) {
    const lower = (names: readonly string[]) => names.map((n) => n.trim().toLowerCase());
    this.usernameHeaders = lower(config.usernameHeaders);
    this.groupHeaders = lower(config.groupHeaders);
    this.prefixes = lower(config.extraHeaderPrefixes);
    this.named = new Set([...this.usernameHeaders, ...this.groupHeaders]);
  }

  /** The CAs a proxy's client certificate must chain up to (the TLS listener must accept them too). */
  get clientCA(): readonly X509Certificate[] {
    return this.config.clientCA;
  }

  /**
   * Builds the method from the flags, reading the CA bundle.
   * @throws Error when the CA file cannot be read or holds no certificate.
   */
  static async fromFlags(flags: Omit<RequestHeaderConfig, 'clientCA'> & { clientCAFile: string }): Promise<RequestHeaderAuthenticator> {
    let pem: string;
    try {
      pem = await readFile(flags.clientCAFile, 'utf8');
    } catch (err) {
      throw new Error(`error reading ${flags.clientCAFile}: ${(err as Error).message}`, { cause: err });
    }
    const { clientCAFile, ...rest } = flags;
    return new RequestHeaderAuthenticator({ ...rest, clientCA: parseCertificateBundle(pem, clientCAFile) });
  }

  /**
   * The user the proxy names; null when the connection has no client certificate or the
   * headers name nobody.
   * @throws AuthenticationError when a client certificate is presented that does not chain up
   *   to the request-header CA or whose CN is not allowed (another method may still accept it).
   */
  async authenticateRequest(req: IncomingMessage): Promise<AuthResult | null> {
    try {
      const socket = req.socket as TLSSocket;
      if (typeof socket.getPeerCertificate !== 'function') return null;
      const v = this.verdict(socket);
      if ('none' in v) return null;
      if ('error' in v) throw new AuthenticationError(v.error);
      const headers = req.headersDistinct;
      let name = '';
      for (const h of this.usernameHeaders) {
        const first = headers[h]?.[0];
        if (first) {
          name = first;
          break;
        }
      }
      if (!name) return null;
      const groups = this.groupHeaders.flatMap((h) => (headers[h] ?? []).filter((value) => value !== ''));
      const extra: Record<string, string[]> = {};
      for (const prefix of this.prefixes) {
        for (const [h, values] of Object.entries(headers)) {
          if (!h.startsWith(prefix) || !values) continue;
          const key = unescapeExtraKey(h.slice(prefix.length));
          (extra[key] ??= []).push(...values);
        }
      }
      return { user: { name, groups, extra } };
    } finally {
      this.strip(req);
    }
  }

  private verdict(socket: TLSSocket): Verdict {
    let v = this.verdicts.get(socket);
    if (v) return v;
    const peer = verifyPeer(socket, this.config.clientCA);
    if ('leaf' in peer) {
      const cn = [peer.leaf.subject?.CN ?? []].flat()[0] ?? '';
      const allowed = this.config.allowedNames;
      v = allowed.length === 0 || allowed.includes(cn) ? { trusted: true } : { error: `x509: subject with cn=${cn} is not in the allowed list` };
    } else {
      v = peer;
    }
    this.verdicts.set(socket, v);
    return v;
  }

  /** Removes the identity headers from every view of the request's headers. */
  private strip(req: IncomingMessage): void {
    const drop = (name: string) => this.named.has(name) || this.prefixes.some((p) => name.startsWith(p));
    const found = Object.keys(req.headers).filter(drop);
    if (found.length === 0) return;
    for (const k of found) delete req.headers[k];
    const distinct = req.headersDistinct;
    for (const k of Object.keys(distinct)) if (drop(k)) delete distinct[k];
    const raw = req.rawHeaders;
    for (let i = raw.length - 2; i >= 0; i -= 2) if (drop(raw[i]!.toLowerCase())) raw.splice(i, 2);
  }
}
