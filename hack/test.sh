#!/usr/bin/env bash
# Runs every check and test suite and ends with one line `N passed, N failed` summing them all
# (the typecheck and the lint count as one check each). Usage: hack/test.sh [suite...]
# where a suite is verify, unit, integration, e2e or browser (default: all, in that order).
set -uo pipefail
cd "$(dirname "$0")/.."

suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(verify unit integration e2e browser)

counts=$(mktemp)
trap 'rm -rf "$counts" "$async_dir"' EXIT
export TEST_COUNTS_FILE="$counts"

check() { # name, command...
  local name=$1; shift
  echo "=== $name"
  if "$@"; then echo "1 0" >>"$counts"; else echo "0 1" >>"$counts"; echo "--- $name FAILED"; fi
}

# Checks started together by check_async and reported, in the order started, by check_wait: side
# by side, verify's checks and the bundle check took 114 s against 136 s one after another (2
# cores, 2026-12-03).
async_dir=$(mktemp -d)
async_names=()
check_async() { # name, command...
  local name=$1; shift
  async_names+=("$name")
  ( "$@" >"$async_dir/$name.out" 2>&1; echo $? >"$async_dir/$name.rc" ) &
}
check_wait() {
  wait
  local name
  for name in "${async_names[@]}"; do
    echo "=== $name"
    cat "$async_dir/$name.out"
    if [ "$(cat "$async_dir/$name.rc")" = 0 ]; then echo "1 0" >>"$counts"; else echo "0 1" >>"$counts"; echo "--- $name FAILED"; fi
  done
  async_names=()
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

# One bundle of the current sources for this run (hack/check-bundle.sh makes and checks it, ~7 s):
# verify's check of the bundle, and the command of the suites that start it as a child process.
# Through tsx, each such start would load ~900 files and cost ~6 s more CPU
# (test/framework/server-process.ts commandArgv).
if printf '%s\n' "${suites[@]}" | grep -qE '^(verify|integration|e2e)$'; then
  mkdir -p .cache
  bundle_dir=$(mktemp -d "$PWD/.cache/test-bundle.XXXXXX") # inside the project, as dist/ is
  trap 'rm -rf "$counts" "$async_dir" "$bundle_dir"' EXIT
  check bundle hack/check-bundle.sh "$bundle_dir"
  export ORCH_TEST_BUNDLE="$bundle_dir/orch-apiserver.mjs"
fi

for s in "${suites[@]}"; do
  case "$s" in
    verify)
      check_async typecheck npx tsc -p tsconfig.json --noEmit
      check_async lint npx eslint lib test hack
      # The browser tests (they type the page's DOM) and the console itself (issue #22).
      check_async typecheck-browser-tests npx tsc -p test/browser/tsconfig.json
      check_async typecheck-console npx tsc -p console/tsconfig.json
      check_wait
      ;;
    # Two worker processes (TEST_JOBS): loading the files' modules through tsx is most of this
    # suite's time, and two processes load side by side (2 min → 51 s on 2 cores, 2026-12-03).
    unit) suite unit --parallel --jobs "${TEST_JOBS:-2}" 'test/unit/**/*.test.ts' ;;
    # Integration files run in TEST_JOBS worker processes (default 2). On two cores the suite is
    # bound by CPU (1.5 cores busy with two workers): three workers took longer (8m49 s against
    # 8m17 s, 2026-12-03) and starved a timing-sensitive test.
    integration) suite integration --parallel --jobs "${TEST_JOBS:-2}" 'test/integration/**/*.test.ts' ;;
    # Most of an e2e file's time is spent waiting on kubectl, Python and server processes: two
    # workers took 2m13 s against 3 min one file after another (2026-12-03).
    e2e) suite e2e --parallel --jobs "${TEST_JOBS:-2}" 'test/e2e/**/*.test.ts' ;;
    # The web console in headless Chromium (issue #22), one file after another.
    browser) suite browser 'test/browser/**/*.test.ts' ;;
    *) echo "unknown suite: $s" >&2; exit 2 ;;
  esac
done

read -r passed failed < <(awk '{p+=$1; f+=$2} END {print p+0, f+0}' "$counts")
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
