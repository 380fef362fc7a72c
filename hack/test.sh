#!/usr/bin/env bash
# Runs every check and test suite and ends with one line `N passed, N failed` summing them all
# (the typecheck and the lint count as one check each). Usage: hack/test.sh [suite...]
# where a suite is verify, unit, integration, e2e or browser (default: all, in that order).
set -uo pipefail
cd "$(dirname "$0")/.."

suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(verify unit integration e2e browser)

counts=$(mktemp)
trap 'rm -f "$counts"' EXIT
export TEST_COUNTS_FILE="$counts"

check() { # name, command...
  local name=$1; shift
  echo "=== $name"
  if "$@"; then echo "1 0" >>"$counts"; else echo "0 1" >>"$counts"; echo "--- $name FAILED"; fi
}

suite() { # name, spec globs...
  local name=$1; shift
  echo "=== $name tests"
  local before
  before=$(wc -l <"$counts")
  npx mocha --reporter ./hack/mocha-counts.cjs "$@"
  local rc=$?
  if [ "$(wc -l <"$counts")" -eq "$before" ]; then
    # mocha died before reporting (load error): count the suite as one failure.
    echo "0 1" >>"$counts"
  elif [ $rc -ne 0 ] && [ "$(tail -n 1 "$counts" | cut -d' ' -f2)" = "0" ]; then
    echo "0 1" >>"$counts"
  fi
}

for s in "${suites[@]}"; do
  case "$s" in
    verify)
      check typecheck npx tsc -p tsconfig.json --noEmit
      # The browser tests (they type the page's DOM) and the console itself (issue #22).
      check typecheck-browser-tests npx tsc -p test/browser/tsconfig.json
      check typecheck-console npx tsc -p console/tsconfig.json
      check lint npx eslint lib test hack
      check bundle hack/check-bundle.sh
      ;;
    unit) suite unit 'test/unit/**/*.test.ts' ;;
    # Integration files run in TEST_JOBS worker processes (default 2): most of their time is spent
    # waiting on servers, etcd and timers, so two workers halve the wall time on two cores.
    integration) suite integration --parallel --jobs "${TEST_JOBS:-2}" 'test/integration/**/*.test.ts' ;;
    e2e) suite e2e 'test/e2e/**/*.test.ts' ;;
    # The web console in headless Chromium (issue #22), one file after another.
    browser) suite browser 'test/browser/**/*.test.ts' ;;
    *) echo "unknown suite: $s" >&2; exit 2 ;;
  esac
done

read -r passed failed < <(awk '{p+=$1; f+=$2} END {print p+0, f+0}' "$counts")
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
