#!/usr/bin/env bash
# Bundles the command (issue #17; issue #22 § Ready in under a second): our modules in a few files,
# the npm packages left in node_modules. Code splitting puts what the command loads only after it
# has started the managed etcd (lib/cmd/serve.js and everything below it: the control plane, the
# etcd client, Koa) in a chunk of its own, so that etcd elects itself while that chunk loads, and
# so that the primary of `--workers=N` never loads it.
# Usage: hack/bundle.sh ENTRY OUTDIR  (writes OUTDIR/orch-apiserver.mjs and OUTDIR/chunks/)
set -euo pipefail
cd "$(dirname "$0")/.."
npx esbuild "$1" --bundle --splitting --platform=node --format=esm --packages=external --sourcemap \
  --log-level=warning --outdir="$2" --entry-names='[name]' --chunk-names='chunks/[name]-[hash]' \
  --out-extension:.js=.mjs
