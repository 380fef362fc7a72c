#!/usr/bin/env bash
# Runs every benchmark under hack/bench/ (each prints its own table).
set -euo pipefail
cd "$(dirname "$0")/../.."
for b in hack/bench/*.ts; do
  case "$b" in */stats.ts | */compare-rounds.ts | */paired.ts | */list-memory.ts) continue ;; esac # compare-rounds, paired and list-memory need two builds: run them by hand
  echo "### $b"
  npx tsx "$b"
done
