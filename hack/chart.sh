#!/usr/bin/env bash
# Renders the Helm chart manifests/orch-apiserver to stdout, as `helm template` would, with the
# project's renderer (hack/helm-render). Usage:
#   hack/chart.sh [--name R] [--namespace NS] [-f values.yaml]... [--set k=v]... [--notes]
set -euo pipefail
cd "$(dirname "$0")/.."
exec npx tsx hack/helm-render/main.ts "$@" manifests/orch-apiserver
