# Thin targets over hack/ scripts (ARCHITECTURE.md § Tests).
ARGS ?=

.PHONY: all deps test-deps build run run-ha test test-unit test-integration test-e2e test-browser verify conformance bench bench-scale chart clean

all: build

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

deps: node_modules/.installed
	hack/install-etcd.sh

# tsc compiles (and type-checks) into dist/ (the benchmarks start dist/lib/cmd); esbuild then
# bundles our sources and the packages into one CommonJS file that the launcher
# dist/orch-apiserver.mjs runs through a V8 code cache (hack/bundle.sh): a start neither resolves
# and loads ~900 files nor parses 5 MB of source. The bundle is made from the sources, as the tests'
# bundle is, so that its log lines name the source files and lines (lib/server/bundle-callers.ts).
# Comments are left out of tsc's output: a comment's non-Latin-1 character (an em dash) made V8
# hold a whole bundle source as a two-byte string.
build: deps
	npx tsc -p tsconfig.json --removeComments
	rm -rf dist/chunks dist/bundle
	hack/bundle.sh lib/cmd dist
	node console/build.mjs

# Stack traces name the bundle's lines; `npx tsx lib/cmd/orch-apiserver.ts` runs the sources.
# One server process unless WORKERS says otherwise (the command's own default is one per CPU):
# a local server for one user starts faster and holds a third of the memory of two workers and
# their primary (README § Start-up); `make run WORKERS=0` runs one per CPU.
WORKERS ?= 1
run: build
	node dist/orch-apiserver.mjs --workers=$(WORKERS) $(ARGS)

# Local HA: 3-member etcd, 3 replicas, a TCP load balancer on 127.0.0.1:6440 (README § Local HA).
run-ha: build
	hack/run-ha.sh $(ARGS)

test-deps: deps
	hack/install-test-clients.sh
	hack/install-chromium.sh

test: test-deps
	hack/test.sh

test-unit: deps
	hack/test.sh unit

test-integration: deps
	hack/test.sh integration

test-e2e: test-deps
	hack/test.sh e2e

# The web console in headless Chromium (test/browser/; issue #22).
test-browser: test-deps
	hack/test.sh browser

verify: deps
	hack/test.sh verify

# Every spec table row with the tests that name it (test/conformance/covers.ts) and their outcome.
conformance: test-deps
	npx tsx hack/conformance.ts

bench: build
	hack/bench/run.sh

# The scale benchmark (issue #24 item 5; README § Scale): NODES simulated nodes, 30 Pods each,
# for DURATION seconds of steady load (ARGS: more flags, see hack/bench/scale/main.ts). Each
# node's kubelet watch is a connection of its own, hence the raised open-files limit.
NODES ?= 500
DURATION ?= 120
bench-scale: deps
	ulimit -n 65536 2>/dev/null || ulimit -n $$(ulimit -Hn); npx tsx hack/bench/scale/main.ts --nodes $(NODES) --duration $(DURATION) $(ARGS)

# The Helm chart manifests/orch-apiserver rendered to stdout (ARGS: --set k=v, -f values.yaml, --namespace NS).
chart: node_modules/.installed
	@hack/chart.sh $(ARGS)

clean:
	rm -rf dist
