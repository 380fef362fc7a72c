#!/usr/bin/env bash
# Checks the bundle `make build` runs (dist/orch-apiserver.mjs, the launcher, and the one CommonJS
# bundle under dist/bundle/): bundles the command from the sources the same way (hack/bundle.sh)
# into a temporary directory, runs its `--help` and converts a manifest with it (the converter's
# modules are loaded only by `convert`). The server's own modules are run by the bundle's e2e test
# (test/e2e/bundle.test.ts), which starts it. Exits non-zero when any step fails.
# Usage: hack/check-bundle.sh [OUTDIR]: with OUTDIR, the bundle is made there and kept (hack/test.sh
# runs the tests' child processes from it); without, in a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
keep=${1:-}
mkdir -p .cache
out=${keep:-$(mktemp -d "$PWD/.cache/bundle.XXXXXX")} # inside the project, as dist/ is
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"; [ -n "$keep" ] || rm -rf "$out"' EXIT
hack/bundle.sh lib/cmd "$out"
node "$out/orch-apiserver.mjs" --help >"$scratch/help.txt"
grep -q -- '--etcd-servers' "$scratch/help.txt"
printf 'apiVersion: apps/v1beta1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    metadata:\n      labels: {a: b}\n' |
  node "$out/orch-apiserver.mjs" convert -f - --output-version apps/v1 >"$scratch/converted.yaml"
grep -q 'apiVersion: apps/v1$' "$scratch/converted.yaml"
