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

/** Runs kubectl with `--kubeconfig`; never throws on a non-zero exit (check `code`). */
export async function kubectl(kubeconfig: string, args: string[], timeoutMs = 30_000): Promise<KubectlResult> {
  try {
    const { stdout, stderr } = await run(findKubectl(), ['--kubeconfig', kubeconfig, ...args], { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(err) };
  }
}
