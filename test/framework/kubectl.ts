/**
 * The real kubectl of the spec's era, for end-to-end tests: `$KUBECTL`, else the image's
 * `kubectl.1.30`, else `kubectl` on PATH. Missing kubectl is an error, never a silent pass.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
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
}

/** Runs kubectl with `--kubeconfig`; never throws on a non-zero exit (check `code`). */
export async function kubectl(kubeconfig: string, args: string[], opts: KubectlOptions = {}): Promise<KubectlResult> {
  const pending = run(findKubectl(), ['--kubeconfig', kubeconfig, ...args], { timeout: opts.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024 });
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
