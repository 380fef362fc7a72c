#!/usr/bin/env bash
# Checks the single-file bundle `make build` runs (dist/orch-apiserver.mjs): bundles the command
# from the sources the same way into a temporary file and runs its `--help`, which loads every
# module of the server. Exits non-zero when either step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .cache
out=$(mktemp -d "$PWD/.cache/bundle.XXXXXX") # inside the project, so node_modules resolve
trap 'rm -rf "$out"' EXIT
npx esbuild lib/cmd/orch-apiserver.ts --bundle --platform=node --format=esm --packages=external --log-level=warning --outfile="$out/orch-apiserver.mjs"
node "$out/orch-apiserver.mjs" --help >"$out/help.txt"
grep -q -- '--etcd-servers' "$out/help.txt"
