#!/usr/bin/env bash
# Installs Debian's Chromium, which the browser tests drive headless through puppeteer-core
# (test/browser/harness.ts; issue #22), when it is missing: /usr/bin/chromium, or the executable
# $CHROMIUM_PATH names. Idempotent and silent when present; installing needs root.
set -euo pipefail

if [ -n "${CHROMIUM_PATH:-}" ]; then
  if [ -x "$CHROMIUM_PATH" ]; then
    exit 0
  fi
  echo "install-chromium.sh: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable: unset it to use Debian's /usr/bin/chromium, or point it at a Chromium" >&2
  exit 1
fi
if [ -x /usr/bin/chromium ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-chromium.sh: /usr/bin/chromium not installed and installing needs root: run 'sudo hack/install-chromium.sh' (or 'sudo apt-get install chromium'), or set CHROMIUM_PATH to a Chromium executable" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium.sh: apt-get not found: install Chromium and set CHROMIUM_PATH to its executable" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# Without recommends (no desktop services), but with a font, so that screenshots show text.
apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
echo "install-chromium.sh: installed $(/usr/bin/chromium --version)"
