/**
 * The command as `make build` writes it (`dist/orch-apiserver.mjs`; hack/bundle.sh): runs the bundle
 * `bundle/orch-apiserver.cjs` beside this file through a V8 code cache (lib/cmd/code-cache.ts;
 * issue #22 § Ready in under a second). It imports only Node's modules and code-cache.ts.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBundle } from './code-cache.js';

runBundle(path.join(path.dirname(fileURLToPath(import.meta.url)), 'bundle', 'orch-apiserver.cjs'));
