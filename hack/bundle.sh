#!/usr/bin/env bash
# Bundles the command (issue #17; issue #22 § Ready in under a second) into OUTDIR:
#   bundle/orch-apiserver.cjs  our modules and the npm packages, one CommonJS file;
#   bundle/orch-apiserver.cjs.callers  its log lines' callers (lib/server/bundle-callers.ts);
#   orch-apiserver.mjs         the launcher (lib/cmd/launcher.ts), which runs that file through a V8
#                              code cache kept beside it (lib/cmd/code-cache.ts): Node 20 caches the
#                              compilation of no module itself, and vm.Script takes cached data for
#                              CommonJS-shaped code only;
#   proto/rpc.proto.json       etcd's gRPC services as a JSON descriptor: etcd3 names
#                              `${__dirname}/../proto/rpc.proto`, and the bundle's proto-loader is
#                              lib/storage/etcd3/grpc-package.ts, which reads this file instead of
#                              parsing the .proto files (~70 ms of every start).
# One file spares Node resolving, reading and wrapping ~900 files at every start. What the command
# loads only once it has started the managed etcd (lib/cmd/serve.js and all below it: the control
# plane, the etcd client, Koa) is still evaluated only then (esbuild makes the `import()` a lazy
# require), so that etcd elects itself meanwhile and the primary of `--workers=N` never runs it.
# `import.meta.url` (the console's package root) becomes the bundle's URL. pino's transports
# (worker threads loading files by path) are not used.
# Usage: hack/bundle.sh CMDDIR OUTDIR, where CMDDIR holds orch-apiserver and launcher as .js
# (tsc's output, dist/lib/cmd) or .ts (the sources).
set -euo pipefail
cd "$(dirname "$0")/.."
ext=js
[ -f "$1/orch-apiserver.js" ] || ext=ts
mkdir -p "$2/bundle" "$2/proto"
rm -f "$2"/bundle/orch-apiserver.cjs.*.codecache
grpc_package="$(cd "$1/../storage/etcd3" && pwd)/grpc-package.$ext"
# What `/version` reports of the build (lib/server/version.ts), as upstream's hack/lib/version.sh
# computes it: the commit, whether the tree had changes, and the UTC time; empty outside git.
commit=$(git rev-parse HEAD 2>/dev/null || true)
tree=''
[ -n "$commit" ] && { [ -z "$(git status --porcelain 2>/dev/null)" ] && tree=clean || tree=dirty; }
build_info="{\"gitCommit\":\"$commit\",\"gitTreeState\":\"$tree\",\"buildDate\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\"}"
npx esbuild "$1/orch-apiserver.$ext" --bundle --define:__BUILD_INFO__="$build_info" --alias:@grpc/proto-loader="$grpc_package" --platform=node --format=cjs --minify-whitespace \
  --define:import.meta.url=__bundleURL \
  --banner:js="'use strict'; var __bundleURL = require('node:url').pathToFileURL(__filename).href;" \
  --sourcemap=external --log-level=warning --outfile="$2/bundle/orch-apiserver.cjs"
# Makes the bundle ASCII and turns the source map into the caller table of log lines (a bundle
# frame's position → source file and line), then removes the map.
node --import tsx hack/bundle-callers.ts "$2/bundle/orch-apiserver.cjs"
npx esbuild "$1/launcher.$ext" --bundle --platform=node --format=esm --minify-whitespace \
  --banner:js='#!/usr/bin/env node' --log-level=warning --outfile="$2/orch-apiserver.mjs"
chmod +x "$2/orch-apiserver.mjs"
rm -f "$2"/proto/*.proto
node --import tsx --input-type=module -e "
  import { writeFileSync } from 'node:fs';
  import { descriptorJSON, DESCRIPTOR_SUFFIX } from '$grpc_package';
  writeFileSync('$2/proto/rpc.proto' + DESCRIPTOR_SUFFIX, JSON.stringify(descriptorJSON('node_modules/etcd3/proto/rpc.proto')));
"
