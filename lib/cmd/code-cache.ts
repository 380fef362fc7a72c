/**
 * Runs the command's bundle through a V8 code cache (the launcher, lib/cmd/launcher.ts, which
 * `make build` writes as `dist/orch-apiserver.mjs`; issue #22 § Ready in under a second). The
 * bundle is our modules and the npm packages in one CommonJS file (hack/bundle.sh). Without one, V8
 * parses ~5 MB of source at every start and compiles each function on its first call: ~0.3 s of
 * the ~1.5 s a start takes. Node 20 keeps no compile cache of its own (that came in Node 22), and
 * it gives `vm.Script` cached data only to CommonJS-shaped code, hence the one CommonJS bundle.
 *
 * The cache lives beside the bundle, as trusted as the bundle itself (a cache is code: one in a
 * directory others may write to would let them run theirs), named by the SHA-256 of the bundle's
 * bytes (V8 checks a cache against the length of the source, not its content). A start
 * that found no usable cache writes one {@link CACHE_WRITE_DELAY_MS} after it began, when the
 * functions a start and its first requests run have been compiled; a directory it may not write
 * to (a read-only image) only means no cache.
 *
 * A dynamic `import()` in the bundle fails ("A dynamic import callback was not specified") in a
 * function compiled from the cache: Node 20 keeps the importModuleDynamically option only for
 * code compiled in the process. The bundle therefore holds none (esbuild makes ours lazy
 * requires; a builtin loaded lazily is loaded by `require`; test/e2e/bundle.test.ts checks both).
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Module, createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/** How long after a start without a usable cache that start writes one, in ms. */
export const CACHE_WRITE_DELAY_MS = 10_000;

/**
 * The code cache file of a bundle: `<bundle dir>/<bundle name>.<first 16 hex digits of the
 * SHA-256 of its bytes>.codecache`.
 */
export function codeCachePath(bundle: string, bytes: Buffer): string {
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  return `${bundle}.${digest}.codecache`;
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes `data` to `file` by a rename, so that a concurrent start (a worker) never reads half of it; errors are ignored. */
function writeAtomically(file: string, data: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch {
    // A read-only directory: this start and the next go without a cache.
  }
}

/** What became of a start's code cache: none found, found and used, or found and rejected by V8 (another V8 or other flags). */
export type CodeCacheUse = 'none' | 'used' | 'rejected';

/**
 * Compiles and runs a CommonJS bundle as Node's loader would run it as the main module, with a
 * V8 code cache read from {@link codeCachePath}; when there was none or V8 rejected it, a new one
 * is written `writeDelayMs` later (an unref'd timer: a process that ends sooner writes none).
 * Throws what reading the bundle, compiling it or its first run throws.
 */
export function runBundle(bundle: string, writeDelayMs = CACHE_WRITE_DELAY_MS): CodeCacheUse {
  const bytes = readFileSync(bundle);
  const cacheFile = codeCachePath(bundle, bytes);
  const cachedData = readOrUndefined(cacheFile);
  let source = bytes.toString('utf8');
  if (source.startsWith('#!')) source = `//${source.slice(2)}`; // the entry's hashbang: a comment inside the wrapper
  const script = new vm.Script(Module.wrap(source), {
    filename: bundle,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const use: CodeCacheUse = cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'used';
  if (use !== 'used') setTimeout(() => writeAtomically(cacheFile, script.createCachedData()), writeDelayMs).unref();
  const mod = new Module(bundle);
  mod.filename = bundle;
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  run(mod.exports, createRequire(bundle), mod, bundle, path.dirname(bundle));
  return use;
}
