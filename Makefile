# Thin targets over hack/ scripts (ARCHITECTURE.md § Tests).
ARGS ?=

.PHONY: all deps test-deps build run run-ha test test-unit test-integration test-e2e test-browser verify conformance bench bench-scale chart clean

all: build

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

deps: node_modules/.installed
	hack/install-etcd.sh

# tsc compiles (and type-checks) into dist/; esbuild then bundles our modules and most packages into
# a few files (hack/bundle.sh), which spares Node resolving and loading ~900 files at every start.
# Comments are left out of the output: a comment's non-Latin-1 character (an em dash) made V8
# hold the whole 2.6 MB bundle source as a two-byte string (5.4 MB of heap).
build: deps
	npx tsc -p tsconfig.json --removeComments
	rm -rf dist/chunks
	hack/bundle.sh dist/lib/cmd/orch-apiserver.js dist
	node console/build.mjs

# No --enable-source-maps: Node would hold the 6 MB source map parsed in memory (+30 MiB RSS);
# `NODE_OPTIONS=--enable-source-maps make run` maps stack traces to lib/ when debugging.
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
