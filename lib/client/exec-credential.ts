/**
 * The client credential plugin of a kubeconfig user (`users[].user.exec`; spec 001 § Client
 * credential plugin), as upstream's client runs it: the command with its args, the server's
 * environment plus the block's `env`, and the request in EXEC_INFO_ENV (an `ExecCredential` with
 * `spec.interactive: false` — a server has no terminal — and, with `provideClusterInfo`, the
 * cluster); its standard output is an `ExecCredential` of the block's `apiVersion` whose `status`
 * carries a bearer `token` and/or a client certificate and key, reused until its
 * `expirationTimestamp` (forever without one). Group `client.authentication.<vendor>` (v1, v1beta1);
 * the upstream spelling (`client.authentication.k8s.io`, with `KUBERNETES_EXEC_INFO`) is accepted
 * too, for plugins written for upstream clients.
 */
import { execFile } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import path from 'node:path';
import { parse } from 'yaml';
import { CLIENT_AUTHENTICATION_GROUP, EXEC_INFO_ENV, UPSTREAM_EXEC_INFO_ENV, upstreamAlias } from '../apis/vendor.js';

type Obj = Record<string, unknown>;

/** The versions of the ExecCredential interchange a plugin may be configured with. */
const VERSIONS = ['v1', 'v1beta1'];
/** The upstream spelling of CLIENT_AUTHENTICATION_GROUP. */
const UPSTREAM_GROUP = upstreamAlias(CLIENT_AUTHENTICATION_GROUP)!;
/** The most a plugin may write on standard output (bytes). */
const MAX_OUTPUT_BYTES = 1024 * 1024;
const INTERACTIVE_MODES = ['Never', 'IfAvailable', 'Always'];

/** A validated `exec` block. */
export interface ExecConfig {
  /** `client.authentication.<vendor or k8s.io>/<v1|v1beta1>`: what the plugin is sent and must answer. */
  apiVersion: string;
  /** The executable: a name looked up in PATH, or a path (one with a separator is resolved against the kubeconfig's directory). */
  command: string;
  args: string[];
  /** Added to the server's environment. */
  env: Array<{ name: string; value: string }>;
  interactiveMode: string;
  /** Pass the cluster (ExecClusterInfo) in the request. */
  provideClusterInfo: boolean;
  /** Appended to the message when the command does not exist. */
  installHint?: string;
}

/** The cluster as the plugin sees it with `provideClusterInfo` (ExecCredential `spec.cluster`). */
export interface ExecClusterInfo {
  server: string;
  'tls-server-name'?: string;
  'insecure-skip-tls-verify'?: boolean;
  /** Base64 of the CA bundle. */
  'certificate-authority-data'?: string;
  /** The cluster's `client.authentication.<vendor>/exec` extension. */
  config?: unknown;
}

/** What a plugin returned: a bearer token and/or a client certificate and key (PEM). */
export interface ExecCredentials {
  token?: string;
  cert?: string;
  key?: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks an `exec` block with upstream's messages (`command must be specified for <user> to use
 * exec authentication plugin`, …) and returns it resolved against `dir`, or the problems found.
 * interactiveMode defaults to IfAvailable for v1beta1 and is required for v1, as upstream.
 */
export function parseExecConfig(raw: unknown, user: string, dir: string): { config?: ExecConfig; errors: string[] } {
  if (!isObj(raw)) return { errors: [`exec of user "${user}" must be a mapping`] };
  const errors: string[] = [];
  const command = str(raw.command) ?? '';
  const apiVersion = str(raw.apiVersion) ?? '';
  if (command === '') errors.push(`command must be specified for ${user} to use exec authentication plugin`);
  if (apiVersion === '') errors.push(`apiVersion must be specified for ${user} to use exec authentication plugin`);
  else if (!isExecApiVersion(apiVersion)) errors.push(`exec plugin: invalid apiVersion ${JSON.stringify(apiVersion)}`);
  const env: ExecConfig['env'] = [];
  for (const e of Array.isArray(raw.env) ? raw.env : []) {
    const name = isObj(e) ? (str(e.name) ?? '') : '';
    if (name === '') errors.push(`env variable name must be specified for ${user} to use exec authentication plugin`);
    else env.push({ name, value: isObj(e) ? (str(e.value) ?? '') : '' });
  }
  const args = Array.isArray(raw.args) ? raw.args.map(String) : [];
  let interactiveMode = str(raw.interactiveMode) ?? '';
  if (interactiveMode === '' && apiVersion.endsWith('/v1beta1')) interactiveMode = 'IfAvailable';
  if (interactiveMode === '') errors.push(`interactiveMode must be specified for ${user} to use exec authentication plugin`);
  else if (!INTERACTIVE_MODES.includes(interactiveMode)) {
    errors.push(`invalid interactiveMode: one of ${INTERACTIVE_MODES.join(', ')} must be specified for ${user} to use exec authentication plugin`);
  }
  if (errors.length > 0) return { errors };
  const installHint = str(raw.installHint);
  return {
    config: {
      apiVersion,
      command: command.includes(path.sep) ? path.resolve(dir, command) : command,
      args,
      env,
      interactiveMode,
      provideClusterInfo: raw.provideClusterInfo === true,
      ...(installHint ? { installHint } : {}),
    },
    errors,
  };
}

/** Whether `apiVersion` names a version of the ExecCredential group, in either spelling. */
function isExecApiVersion(apiVersion: string): boolean {
  const [group, version, ...rest] = apiVersion.split('/');
  return rest.length === 0 && (group === CLIENT_AUTHENTICATION_GROUP || group === UPSTREAM_GROUP) && VERSIONS.includes(version ?? '');
}

/**
 * Runs a plugin when a credential is needed and keeps what it returned until it expires.
 * Concurrent callers share one run.
 */
export class ExecCredentialSource {
  private cached?: { creds: ExecCredentials; expiresAt?: number };
  private running?: Promise<ExecCredentials>;

  /** `cluster`: passed to the plugin when `provideClusterInfo`, else undefined. */
  constructor(
    private readonly config: ExecConfig,
    private readonly cluster: ExecClusterInfo | undefined,
  ) {}

  /**
   * The current credentials, running the plugin when there are none or they expired.
   * @throws Error `getting credentials: …` with upstream's reason (`exec: executable x not found`,
   *   `exec: executable x failed with exit code 1`, `decoding stdout: …`, `exec plugin is configured
   *   to use API version A, plugin returned version B`, `exec plugin didn't return a status field`,
   *   `exec plugin didn't return a token or cert/key pair`, `exec plugin returned only certificate
   *   or key, not both`, `failed parsing client key/certificate: …`).
   */
  async credentials(): Promise<ExecCredentials> {
    if (this.cached && (this.cached.expiresAt === undefined || Date.now() < this.cached.expiresAt)) return this.cached.creds;
    this.running ??= this.refresh().finally(() => (this.running = undefined));
    return this.running;
  }

  private async refresh(): Promise<ExecCredentials> {
    try {
      const { creds, expiresAt } = readCredential(await this.run(), this.config.apiVersion);
      this.cached = { creds, ...(expiresAt !== undefined ? { expiresAt } : {}) };
      return creds;
    } catch (err) {
      throw new Error(`getting credentials: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Runs the command; resolves with its standard output. */
  private run(): Promise<string> {
    const c = this.config;
    if (c.interactiveMode === 'Always') return Promise.reject(new Error('exec plugin cannot support interactive mode: standard input is not a terminal'));
    const upstream = c.apiVersion.startsWith(`${UPSTREAM_GROUP}/`);
    const request = { kind: 'ExecCredential', apiVersion: c.apiVersion, spec: { ...(this.cluster ? { cluster: this.cluster } : {}), interactive: false } };
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const e of c.env) env[e.name] = e.value;
    env[upstream ? UPSTREAM_EXEC_INFO_ENV : EXEC_INFO_ENV] = JSON.stringify(request);
    return new Promise((resolve, reject) => {
      const child = execFile(c.command, c.args, { env, maxBuffer: MAX_OUTPUT_BYTES, encoding: 'utf8' }, (err, stdout) => {
        if (!err) return resolve(stdout);
        const e = err as NodeJS.ErrnoException & { code?: number | string };
        if (e.code === 'ENOENT') reject(new Error(`exec: executable ${c.command} not found${c.installHint ? `\n\n${c.installHint}` : ''}`));
        else if (typeof e.code === 'number') reject(new Error(`exec: executable ${c.command} failed with exit code ${e.code}`));
        else reject(new Error(`exec: ${e.message}`));
      });
      child.stderr?.pipe(process.stderr, { end: false });
    });
  }
}

/** Checks a plugin's output (an ExecCredential, JSON or YAML) and takes its credentials and expiry (ms since the epoch). */
function readCredential(stdout: string, apiVersion: string): { creds: ExecCredentials; expiresAt?: number } {
  let doc: unknown;
  try {
    doc = parse(stdout, { version: '1.2' });
  } catch (err) {
    throw new Error(`decoding stdout: ${(err as Error).message}`, { cause: err });
  }
  if (!isObj(doc) || doc.kind !== 'ExecCredential') throw new Error(`decoding stdout: no ExecCredential in ${JSON.stringify(stdout.slice(0, 100))}`);
  if (doc.apiVersion !== apiVersion) throw new Error(`exec plugin is configured to use API version ${apiVersion}, plugin returned version ${String(doc.apiVersion ?? '')}`);
  const status = doc.status;
  if (!isObj(status)) throw new Error("exec plugin didn't return a status field");
  const token = str(status.token) ?? '';
  const cert = str(status.clientCertificateData) ?? '';
  const key = str(status.clientKeyData) ?? '';
  if (token === '' && cert === '' && key === '') throw new Error("exec plugin didn't return a token or cert/key pair");
  if ((cert === '') !== (key === '')) throw new Error('exec plugin returned only certificate or key, not both');
  if (cert !== '') {
    try {
      if (!new X509Certificate(cert).checkPrivateKey(createPrivateKey(key))) throw new Error('tls: private key does not match public key');
    } catch (err) {
      throw new Error(`failed parsing client key/certificate: ${(err as Error).message}`, { cause: err });
    }
  }
  const expiry = str(status.expirationTimestamp);
  const expiresAt = expiry === undefined ? undefined : Date.parse(expiry);
  if (expiresAt !== undefined && Number.isNaN(expiresAt)) throw new Error(`decoding stdout: expirationTimestamp ${JSON.stringify(expiry)} is not an RFC 3339 time`);
  return { creds: { ...(token ? { token } : {}), ...(cert ? { cert, key } : {}) }, ...(expiresAt !== undefined ? { expiresAt } : {}) };
}
