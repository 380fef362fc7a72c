/**
 * Client configuration files (the `kubeconfig` format, `apiVersion: v1`, `kind: Config`) read
 * the way the upstream client loader reads a single explicit file: YAML or JSON; the current
 * context names a cluster (where to connect and how to trust it) and a user (the credentials to
 * present: a token, basic auth, a client certificate, or a credential plugin, exec-credential.ts);
 * relative file paths are resolved against the file's directory. The result is what `node:https`
 * needs to make requests as that user. Used for the webhooks the server calls
 * (spec 001 § Webhook token authentication: the flag names "a client configuration file").
 */

import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { RequestOptions } from 'node:https';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { type ExecClusterInfo, ExecCredentialSource, parseExecConfig } from './exec-credential.js';

/** How the TLS connection to the server is made and verified. */
export interface ClientTLSOptions {
  /** PEM bundle of the CAs that verify the server (`certificate-authority[-data]`); absent: the host's roots. */
  ca?: string;
  /** PEM client certificate presented to the server (`client-certificate[-data]`). */
  cert?: string;
  /** PEM private key of {@link cert} (`client-key[-data]`). */
  key?: string;
  /** false when `insecure-skip-tls-verify` is true: the server's certificate is not checked. */
  rejectUnauthorized: boolean;
  /** Name used for SNI and to verify the server certificate (`tls-server-name`); absent: the URL's host. */
  servername?: string;
}

/** How often a `tokenFile` is read again, as the upstream client does (milliseconds). */
const TOKEN_FILE_REFRESH_MS = 60_000;

/**
 * The connection and credentials of a kubeconfig's current context.
 * Build with {@link loadKubeconfig} or {@link parseKubeconfig}.
 */
export class ClientConfig {
  /** The token read from `tokenFile`, and when (ms since the epoch). */
  private fileToken?: { value: string; readAt: number };

  constructor(
    /** The cluster's `server` URL; requests go to exactly its path (webhooks) unless a caller adds one. */
    readonly server: URL,
    readonly tls: ClientTLSOptions,
    /** The user's credentials: a bearer token (inline, else from a file), or basic auth; absent: none beyond the client certificate. */
    private readonly credentials: { token?: string; tokenFile?: string; username?: string; password?: string },
    /**
     * The user's credential plugin (exec-credential.ts): its token and client certificate are used
     * when the user has no other credential, as upstream's client does.
     */
    private readonly exec?: ExecCredentialSource,
  ) {}

  /**
   * The `Authorization` header value of the user, if any: `Bearer <token>` (an inline `token`
   * wins over `tokenFile`; the file is read again once a minute, so a rotated token is picked
   * up) or `Basic <base64 of username:password>`, else the credential plugin's token.
   * @throws Error when the token file cannot be read the first time, or the plugin fails.
   */
  async authorization(): Promise<string | undefined> {
    return (await this.resolved()).authorization;
  }

  /** The Authorization header value and the TLS options of the next request. */
  private async resolved(): Promise<{ authorization?: string; tls: ClientTLSOptions }> {
    if (this.exec) {
      const creds = await this.exec.credentials();
      return { ...(creds.token ? { authorization: `Bearer ${creds.token}` } : {}), tls: creds.cert ? { ...this.tls, cert: creds.cert, key: creds.key } : this.tls };
    }
    const authorization = await this.staticAuthorization();
    return { ...(authorization ? { authorization } : {}), tls: this.tls };
  }

  private async staticAuthorization(): Promise<string | undefined> {
    const c = this.credentials;
    if (c.token) return `Bearer ${c.token}`;
    if (c.tokenFile) {
      if (!this.fileToken || Date.now() - this.fileToken.readAt > TOKEN_FILE_REFRESH_MS) {
        try {
          this.fileToken = { value: (await readFile(c.tokenFile, 'utf8')).trim(), readAt: Date.now() };
        } catch (err) {
          if (!this.fileToken) throw err;
          this.fileToken.readAt = Date.now();
        }
      }
      return `Bearer ${this.fileToken.value}`;
    }
    if (c.username !== undefined || c.password !== undefined) {
      return `Basic ${Buffer.from(`${c.username ?? ''}:${c.password ?? ''}`).toString('base64')}`;
    }
    return undefined;
  }

  /**
   * `node:https` (or `node:http` for an `http://` server) request options for `method` on the
   * server URL (its path and query kept), with the TLS material and the `Authorization` header.
   * @throws Error when a token file cannot be read, or the credential plugin fails.
   */
  async requestOptions(method: string): Promise<RequestOptions & { headers: Record<string, string> }> {
    const headers: Record<string, string> = {};
    const { authorization, tls } = await this.resolved();
    if (authorization) headers.Authorization = authorization;
    const u = this.server;
    return {
      method,
      protocol: u.protocol,
      hostname: u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname,
      port: u.port || (u.protocol === 'https:' ? 443 : 80),
      path: `${u.pathname}${u.search}`,
      headers,
      ...tls,
    };
  }
}

/** A problem of the file's content, reported like the upstream loader (`invalid configuration: …`). */
export class KubeconfigError extends Error {
  override readonly name = 'KubeconfigError';
}

/**
 * Reads and parses the kubeconfig at `file` (relative paths inside it resolved against its
 * directory) and checks that its current context is usable.
 * @throws KubeconfigError for a missing or unreadable file (`stat <file>: no such file or
 *   directory`), text that is neither YAML nor JSON or has the wrong shape (`error loading config
 *   file "<file>": …`), or an unusable current context (`invalid configuration: …`: no current
 *   context, a context, cluster or user that does not exist, no server, unreadable or invalid
 *   certificate and key files, conflicting settings, an unsupported credential kind).
 */
export async function loadKubeconfig(file: string): Promise<ClientConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new KubeconfigError(`stat ${file}: no such file or directory`);
    throw new KubeconfigError(`error loading config file "${file}": ${e.message}`);
  }
  return parseKubeconfig(text, path.dirname(path.resolve(file)), file);
}

type Obj = Record<string, unknown>;

/** One entry of `clusters`, `users` or `contexts`. */
interface Named {
  name: string;
  value: Obj;
}

/**
 * Parses kubeconfig `text`; relative paths are resolved against `dir`; `source` names the file in
 * messages. Reads the certificate, key and CA files the current context refers to.
 * @throws KubeconfigError as {@link loadKubeconfig}.
 */
export async function parseKubeconfig(text: string, dir: string, source = '<input>'): Promise<ClientConfig> {
  const loadError = (reason: string) => new KubeconfigError(`error loading config file "${source}": ${reason}`);
  const doc = parseDocument(text, { version: '1.2', uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) throw loadError(doc.errors[0]!.message);
  const root: unknown = doc.toJS({ maxAliasCount: 100 }) ?? {};
  if (!isObject(root)) throw loadError('the document is not a mapping of clusters, users and contexts');
  if (root.kind !== undefined && root.kind !== 'Config') throw loadError(`kind ${JSON.stringify(root.kind)} is not Config`);
  if (root.apiVersion !== undefined && root.apiVersion !== 'v1') throw loadError(`apiVersion ${JSON.stringify(root.apiVersion)} is not v1`);
  const clusters = namedList(root, 'clusters', 'cluster', loadError);
  const users = namedList(root, 'users', 'user', loadError);
  const contexts = namedList(root, 'contexts', 'context', loadError);
  const current = optionalString(root, 'current-context', 'the document', loadError) ?? '';

  const invalid = (errors: string[]) => new KubeconfigError(`invalid configuration: ${aggregate(errors)}`);
  if (current === '') throw invalid(['no configuration has been provided (current-context is not set)']);
  const context = contexts.get(current);
  if (!context) throw invalid([`context was not found for specified context: ${current}`, 'cluster has no server defined']);
  const contextWhere = `context "${current}"`;
  const clusterName = optionalString(context.value, 'cluster', contextWhere, loadError) ?? '';
  const userName = optionalString(context.value, 'user', contextWhere, loadError) ?? '';
  const errors: string[] = [];
  if (clusterName === '') errors.push(`cluster was not specified for context "${current}"`);
  else if (!clusters.has(clusterName)) errors.push(`cluster "${clusterName}" was not found for context "${current}"`);
  if (userName !== '' && !users.has(userName)) errors.push(`user "${userName}" was not found for context "${current}"`);
  if (errors.length > 0) throw invalid(errors);

  const cluster = clusters.get(clusterName)!.value;
  const user = userName === '' ? {} : users.get(userName)!.value;
  const clusterWhere = `cluster "${clusterName}"`;
  const userWhere = `user "${userName}"`;
  const str = (o: Obj, key: string, where: string) => optionalString(o, key, where, loadError);
  const resolve = (p: string | undefined) => (p === undefined || p === '' ? undefined : path.resolve(dir, p));

  const server = str(cluster, 'server', clusterWhere) ?? '';
  const caFile = resolve(str(cluster, 'certificate-authority', clusterWhere));
  const caData = base64Field(cluster, 'certificate-authority-data', clusterWhere, loadError);
  const insecure = optionalBool(cluster, 'insecure-skip-tls-verify', clusterWhere, loadError) ?? false;
  const tlsServerName = str(cluster, 'tls-server-name', clusterWhere);
  const certFile = resolve(str(user, 'client-certificate', userWhere));
  const certData = base64Field(user, 'client-certificate-data', userWhere, loadError);
  const keyFile = resolve(str(user, 'client-key', userWhere));
  const keyData = base64Field(user, 'client-key-data', userWhere, loadError);
  const token = str(user, 'token', userWhere);
  const tokenFile = resolve(str(user, 'tokenFile', userWhere));
  const username = str(user, 'username', userWhere);
  const password = str(user, 'password', userWhere);

  let url: URL | undefined;
  if (server === '') errors.push(`no server found for cluster "${clusterName}"`);
  else if (!URL.canParse(server) || !['https:', 'http:'].includes(new URL(server).protocol) || new URL(server).hostname === '') {
    errors.push(`server ${JSON.stringify(server)} of cluster "${clusterName}" is not an https:// or http:// URL`);
  } else url = new URL(server);
  if (caFile && caData) {
    errors.push(`certificate-authority-data and certificate-authority are both specified for ${clusterName}. certificate-authority-data will override.`);
  }
  if ((caFile || caData) && insecure) errors.push('specifying a root certificates file with the insecure flag is not allowed');
  if (cluster['proxy-url'] !== undefined) errors.push(`proxy-url of cluster "${clusterName}" is not supported`);
  const exec = user.exec === undefined || user.exec === null ? undefined : parseExecConfig(user.exec, userName, dir);
  if (exec) errors.push(...exec.errors);
  for (const key of ['auth-provider', 'as', 'as-uid', 'as-groups', 'as-user-extra']) {
    if (user[key] !== undefined) errors.push(`${key} of user "${userName}" is not supported`);
  }
  const methods = [...(token ? ['token'] : []), ...(username || password ? ['basicAuth'] : [])];
  if (methods.length > 1) errors.push(`more than one authentication method found for ${userName}; found [${methods.join(' ')}], only one is allowed`);
  if (certFile || certData) {
    if (certFile && certData) errors.push(`client-cert-data and client-cert are both specified for ${userName}. client-cert-data will override.`);
    if (keyFile && keyData) errors.push(`client-key-data and client-key are both specified for ${userName}; client-key-data will override`);
    if (!keyFile && !keyData) errors.push(`client-key-data or client-key must be specified for ${userName} to use the clientCert authentication method.`);
  }
  const read = async (file: string | undefined, what: string, name: string): Promise<string | undefined> => {
    if (!file) return undefined;
    try {
      return await readFile(file, 'utf8');
    } catch (err) {
      errors.push(`unable to read ${what} ${file} for ${name} due to ${describeFsError(err, file)}`);
      return undefined;
    }
  };
  const [caFromFile, certFromFile, keyFromFile] = await Promise.all([
    read(caFile, 'certificate-authority', clusterName),
    read(certFile, 'client-cert', userName),
    read(keyFile, 'client-key', userName),
    read(token ? undefined : tokenFile, 'tokenFile', userName),
  ]);
  if (errors.length > 0) throw invalid(errors);

  const ca = caData ?? caFromFile;
  const cert = certData ?? certFromFile;
  const key = keyData ?? keyFromFile;
  if (ca !== undefined) checkCABundle(ca, invalid);
  if (cert !== undefined && key !== undefined) checkKeyPair(cert, key, invalid);
  // As upstream, a plugin is not run for a user that has a token, basic auth or a client certificate.
  const plugin = !token && !tokenFile && username === undefined && password === undefined && cert === undefined ? exec?.config : undefined;
  const clusterInfo = (apiVersion: string): ExecClusterInfo => ({
    server,
    ...(tlsServerName && { 'tls-server-name': tlsServerName }),
    ...(insecure && { 'insecure-skip-tls-verify': true }),
    ...(ca !== undefined && { 'certificate-authority-data': Buffer.from(ca).toString('base64') }),
    ...execExtension(cluster, apiVersion),
  });
  return new ClientConfig(
    url!,
    {
      ...(ca !== undefined && { ca }),
      ...(cert !== undefined && key !== undefined && { cert, key }),
      rejectUnauthorized: !insecure,
      ...(tlsServerName && { servername: tlsServerName }),
    },
    { ...(token && { token }), ...(tokenFile && { tokenFile }), ...(username !== undefined && { username }), ...(password !== undefined && { password }) },
    plugin && new ExecCredentialSource(plugin, plugin.provideClusterInfo ? clusterInfo(plugin.apiVersion) : undefined),
  );
}

/** `{config}` from the cluster's extension named `<group of apiVersion>/exec`, if it has one. */
function execExtension(cluster: Obj, apiVersion: string): { config?: unknown } {
  const name = `${apiVersion.split('/')[0]}/exec`;
  const list: unknown[] = Array.isArray(cluster.extensions) ? cluster.extensions : [];
  const found = list.find((e): e is Obj => isObject(e) && e.name === name);
  return found?.extension === undefined ? {} : { config: found.extension };
}

/** Upstream's aggregate error text: one message alone, several as `[a, b]`. */
function aggregate(errors: string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The entries of a named list (`clusters: [{name, cluster: {...}}]`), by name. */
function namedList(root: Obj, key: string, field: string, loadError: (r: string) => Error): Map<string, Named> {
  const list = root[key];
  const out = new Map<string, Named>();
  if (list === undefined || list === null) return out;
  if (!Array.isArray(list)) throw loadError(`${key} must be a list`);
  for (const [i, item] of list.entries()) {
    if (!isObject(item)) throw loadError(`${key}[${i}] must be a mapping`);
    const name = item.name ?? '';
    if (typeof name !== 'string') throw loadError(`${key}[${i}].name must be a string`);
    const value = item[field] ?? {};
    if (!isObject(value)) throw loadError(`${key}[${i}].${field} must be a mapping`);
    if (out.has(name)) throw loadError(`duplicate name "${name}" in list ${key}`);
    out.set(name, { name, value });
  }
  return out;
}

function optionalString(o: Obj, key: string, where: string, loadError: (r: string) => Error): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw loadError(`${key} of ${where} must be a string`);
  return v;
}

function optionalBool(o: Obj, key: string, where: string, loadError: (r: string) => Error): boolean | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw loadError(`${key} of ${where} must be true or false`);
  return v;
}

/** A `…-data` field: standard base64 of PEM text; undefined when absent or empty. */
function base64Field(o: Obj, key: string, where: string, loadError: (r: string) => Error): string | undefined {
  const v = optionalString(o, key, where, loadError);
  if (v === undefined || v === '') return undefined;
  const compact = v.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) throw loadError(`${key} of ${where}: illegal base64 data`);
  return Buffer.from(compact, 'base64').toString('utf8');
}

function describeFsError(err: unknown, file: string): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return `open ${file}: no such file or directory`;
  if (e.code === 'EACCES') return `open ${file}: permission denied`;
  return e.message;
}

/** Every PEM block of a CA bundle must be a certificate, and there must be one. */
function checkCABundle(pem: string, invalid: (e: string[]) => Error): void {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw invalid(['unable to load root certificates: unable to parse bytes as PEM block']);
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (err) {
      throw invalid([`unable to load root certificates: ${(err as Error).message}`]);
    }
  }
}

/** The client certificate must parse and match its key (Go's tls.X509KeyPair). */
function checkKeyPair(certPem: string, keyPem: string, invalid: (e: string[]) => Error): void {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    throw invalid(['tls: failed to find any PEM data in certificate input']);
  }
  let key;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    throw invalid(['tls: failed to find any PEM data in key input']);
  }
  if (!cert.checkPrivateKey(key)) throw invalid(['tls: private key does not match public key']);
}
