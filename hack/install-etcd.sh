#!/usr/bin/env bash
# Installs etcd (the server, and etcdctl for tests) from Debian packages when they are missing
# from PATH. Idempotent and silent when both are present; needs root to install.
set -euo pipefail

missing=()
command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
command -v etcdctl >/dev/null 2>&1 || missing+=(etcd-client)
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-etcd.sh: ${missing[*]} not installed and installing needs root: run 'sudo hack/install-etcd.sh' (or 'sudo apt-get install ${missing[*]}')" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-etcd.sh: apt-get not found: install etcd 3.4 or later (etcd and etcdctl) and put it on PATH" >&2
  exit 1
fi

# The server runs its own etcd on free ports; keep the package from starting (now or at boot)
# a system-wide etcd on the default ports.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
  chmod 755 /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
if [ -d /run/systemd/system ] && systemctl is-enabled --quiet etcd.service 2>/dev/null; then
  systemctl disable --quiet etcd.service
fi
echo "install-etcd.sh: installed ${missing[*]}: $(etcd --version | head -n 1)"
