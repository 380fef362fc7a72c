#!/usr/bin/env bash
# Installs the real clients the e2e suite drives, from Debian, where missing: the Python client
# (python3-kubernetes). kubectl comes with the machine image (the e2e suite fails clearly
# without it). Idempotent and silent when present; needs root to install.
set -euo pipefail

if /usr/bin/python3 -c 'import kubernetes' >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-test-clients.sh: python3-kubernetes is missing and installing needs root: run 'sudo apt-get install python3-kubernetes'" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends python3-kubernetes >/dev/null
echo "install-test-clients.sh: installed python3-kubernetes"
