#!/usr/bin/env bash
# Bundles the command (issue #17; issue #22 § Ready in under a second): our modules and most npm
# packages in a few files. Code splitting puts what the command loads only after it has started
# the managed etcd (lib/cmd/serve.js and everything below it: the control plane, the etcd client,
# Koa) in a chunk of its own, so that etcd elects itself while that chunk loads, and so that the
# primary of `--workers=N` never loads it.
#
# Bundling the packages spares Node resolving, reading and wrapping ~700 files at every start. Left
# in node_modules, loaded by Node as usual:
#   - etcd3 and cockatiel: etcd3 reads its .proto files beside its own code, and our cockatiel
#     policies are handed to etcd3's, so both must be the one copy etcd3 loads;
#   - yargs: it reads its locale files beside its own code;
#   - pino's transports (worker threads loading files by path) are not used, so pino is bundled.
# The CommonJS packages in an ESM bundle need a `require` (for Node's built-in modules): the
# banner makes one from the chunk's own URL.
# Usage: hack/bundle.sh ENTRY OUTDIR  (writes OUTDIR/orch-apiserver.mjs and OUTDIR/chunks/)
set -euo pipefail
cd "$(dirname "$0")/.."
npx esbuild "$1" --bundle --splitting --platform=node --format=esm --sourcemap --minify-whitespace \
  --external:etcd3 --external:cockatiel --external:yargs --external:'yargs/*' \
  --banner:js="import { createRequire as __orchCreateRequire } from 'node:module'; const require = __orchCreateRequire(import.meta.url);" \
  --log-level=warning --outdir="$2" --entry-names='[name]' --chunk-names='chunks/[name]-[hash]' \
  --out-extension:.js=.mjs
