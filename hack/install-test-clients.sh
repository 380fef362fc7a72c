#!/usr/bin/env bash
# Installs the real clients the e2e suite drives, from Debian, where missing:
#  - the Python client (python3-kubernetes), installed system-wide;
#  - Debian's kubectl 1.20 (package kubernetes-client), unpacked with `dpkg -x` into the
#    project-local cache .cache/test-clients/kubernetes-client/ (used from
#    .cache/test-clients/kubernetes-client/usr/bin/kubectl), never installed: /usr/bin/kubectl
#    may belong to another package.
# The newer kubectls (1.27 and later) come with the machine image (the e2e suite fails clearly
# without them); @kubernetes/client-node is a devDependency (npm ci). Idempotent and silent when
# everything is present; installing python3-kubernetes and refreshing the package lists need root.
set -euo pipefail
cd "$(dirname "$0")/.."

export DEBIAN_FRONTEND=noninteractive
KUBECTL_DIR=.cache/test-clients/kubernetes-client
updated=false

# Refreshes the package lists once per run (fresh machines have none).
apt_update() {
  if [ "$updated" = false ]; then
    apt-get update -qq
    updated=true
  fi
}

need_root() { # what
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-test-clients.sh: $1 needs root: run 'sudo hack/install-test-clients.sh'" >&2
    exit 1
  fi
}

if ! /usr/bin/python3 -c 'import kubernetes' >/dev/null 2>&1; then
  need_root "installing python3-kubernetes"
  apt_update
  apt-get install -y -qq --no-install-recommends python3-kubernetes >/dev/null
  echo "install-test-clients.sh: installed python3-kubernetes"
fi

if [ ! -x "$KUBECTL_DIR/usr/bin/kubectl" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  # As root, apt downloads as the unprivileged _apt user: let it write there.
  if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$work"; fi
  if ! (cd "$work" && apt-get download -qq kubernetes-client) >/dev/null 2>&1; then
    need_root "downloading kubernetes-client (the package lists are missing or stale)"
    apt_update
    (cd "$work" && apt-get download -qq kubernetes-client)
  fi
  dpkg -x "$work"/kubernetes-client_*.deb "$work/root"
  mkdir -p "$(dirname "$KUBECTL_DIR")"
  rm -rf "$KUBECTL_DIR"
  mv "$work/root" "$KUBECTL_DIR"
  echo "install-test-clients.sh: unpacked $(basename "$work"/kubernetes-client_*.deb) into $KUBECTL_DIR"
fi
