#!/usr/bin/env bash
# Runs every benchmark under hack/bench/ (each prints its own table).
set -euo pipefail
cd "$(dirname "$0")/../.."
for b in hack/bench/*.ts; do
  case "$b" in */stats.ts | */compare-rounds.ts) continue ;; esac # compare-rounds needs two builds: run it by hand
  echo "### $b"
  npx tsx "$b"
done
