/**
 * The real kubectl of the spec's era, for end-to-end tests: `$KUBECTL`, else the image's
 * `kubectl.1.30`, else `kubectl` on PATH; and, for the upstream-client tests, every stock kubectl
 * from 1.20 to 1.33. Missing kubectl is an error, never a silent pass.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const CANDIDATES = ['/usr/lib/google-cloud-sdk/bin/kubectl.1.30', '/usr/bin/kubectl', '/usr/local/bin/kubectl'];

/** Path of the kubectl to use; throws a clear error when there is none. */
export function findKubectl(): string {
  const fromEnv = process.env.KUBECTL;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`KUBECTL=${fromEnv} does not exist`);
    return fromEnv;
  }
  const found = CANDIDATES.find((c) => existsSync(c));
  if (!found) throw new Error(`kubectl not found (looked in $KUBECTL, ${CANDIDATES.join(', ')}): the e2e suite needs the real kubectl`);
  return found;
}

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/** One stock kubectl binary of a known minor version. */
export interface KubectlBinary {
  /** `1.20`, `1.27`, … */
  version: string;
  /** Absolute path of the binary. */
  path: string;
}

/** Debian's kubectl 1.20 (package kubernetes-client), unpacked by hack/install-test-clients.sh. */
const DEBIAN_KUBECTL = path.join(ROOT, '.cache/test-clients/kubernetes-client/usr/bin/kubectl');

/**
 * Every stock kubectl the upstream-client tests drive, oldest first: Debian's 1.20 from the
 * project cache, then the machine image's 1.27 … 1.33.
 */
export const UPSTREAM_KUBECTLS: readonly KubectlBinary[] = [
  { version: '1.20', path: DEBIAN_KUBECTL },
  ...['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'].map((version) => ({ version, path: `/usr/lib/google-cloud-sdk/bin/kubectl.${version}` })),
];

/** Throws naming every binary of `binaries` that is missing: a missing client fails, never skips. */
export function requireKubectls(binaries: readonly KubectlBinary[]): void {
  const missing = binaries.filter((k) => !existsSync(k.path)).map((k) => k.path);
  if (missing.length > 0) throw new Error(`kubectl missing: ${missing.join(', ')} (hack/install-test-clients.sh provides 1.20; 1.27+ come with the machine image)`);
}

/** Result of one kubectl invocation. */
export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of one kubectl invocation. */
export interface KubectlOptions {
  /** Written to kubectl's standard input (for `-f -`). */
  stdin?: string;
  /** Kill kubectl after this many milliseconds (default 30 000). */
  timeoutMs?: number;
  /** This kubectl binary instead of {@link findKubectl}'s. */
  binary?: string;
}

/** Runs kubectl with `--kubeconfig`; never throws on a non-zero exit (check `code`). */
export async function kubectl(kubeconfig: string, args: string[], opts: KubectlOptions = {}): Promise<KubectlResult> {
  const pending = run(opts.binary ?? findKubectl(), ['--kubeconfig', kubeconfig, ...args], { timeout: opts.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024 });
  pending.child.stdin?.end(opts.stdin ?? '');
  try {
    const { stdout, stderr } = await pending;
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(err) };
  }
}

/** Runs kubectl like {@link kubectl} and answers its stdout; throws with kubectl's stderr on a non-zero exit. */
export async function kubectlOk(kubeconfig: string, args: string[], opts: KubectlOptions = {}): Promise<string> {
  const res = await kubectl(kubeconfig, args, opts);
  if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${res.code}): ${res.stderr}`);
  return res.stdout;
}
