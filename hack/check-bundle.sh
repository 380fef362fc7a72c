#!/usr/bin/env bash
# Checks the bundle `make build` runs (dist/orch-apiserver.mjs and its chunks): bundles the command
# from the sources the same way (hack/bundle.sh) into a temporary directory, runs its `--help`,
# and imports every chunk, which loads every module of the server (the server chunk is otherwise
# loaded only when a server starts). Exits non-zero when any step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .cache
out=$(mktemp -d "$PWD/.cache/bundle.XXXXXX") # inside the project, so node_modules resolve
trap 'rm -rf "$out"' EXIT
hack/bundle.sh lib/cmd/orch-apiserver.ts "$out"
node "$out/orch-apiserver.mjs" --help >"$out/help.txt"
grep -q -- '--etcd-servers' "$out/help.txt"
node --input-type=module -e 'for (const f of process.argv.slice(1)) await import(f);' "$out"/chunks/*.mjs
