#!/usr/bin/env bash
# Local HA recipe (issue #16, `make run-ha`): a 3-member etcd, 3 server replicas and a TCP load
# balancer, all on loopback, with state under ./data/ha (kept across runs). Ctrl-C stops all.
#   LB_PORT (6440)                       the load balancer, the address of ./data/ha/admin.kubeconfig
#   REPLICA_PORTS ("6443 6444 6445")     one replica per port
#   ETCD_PORT (22379)                    member i: client port ETCD_PORT+2i, peer port ETCD_PORT+2i+1
# Extra server flags: hack/run-ha.sh --v=2 ...
set -euo pipefail
cd "$(dirname "$0")/.."

LB_PORT=${LB_PORT:-6440}
read -r -a REPLICA_PORTS <<<"${REPLICA_PORTS:-6443 6444 6445}"
ETCD_PORT=${ETCD_PORT:-22379}
DIR=./data/ha
SERVER=dist/orch-apiserver.mjs
[ -f "$SERVER" ] || { echo "run-ha.sh: $SERVER missing: run 'make build' (or 'make run-ha')" >&2; exit 1; }
mkdir -p "$DIR/pki"

pids=()
cleanup() {
  trap - INT TERM EXIT
  echo "run-ha.sh: stopping" >&2
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup INT TERM EXIT

members=() urls=()
for i in 0 1 2; do
  members+=("m$i=http://127.0.0.1:$((ETCD_PORT + 2 * i + 1))")
  urls+=("http://127.0.0.1:$((ETCD_PORT + 2 * i))")
done
initial=$(IFS=,; echo "${members[*]}")
servers=$(IFS=,; echo "${urls[*]}")
for i in 0 1 2; do
  etcd --name="m$i" --data-dir="$DIR/etcd/m$i" \
    --listen-client-urls="${urls[$i]}" --advertise-client-urls="${urls[$i]}" \
    --listen-peer-urls="http://127.0.0.1:$((ETCD_PORT + 2 * i + 1))" \
    --initial-advertise-peer-urls="http://127.0.0.1:$((ETCD_PORT + 2 * i + 1))" \
    --initial-cluster="$initial" --initial-cluster-state=new --initial-cluster-token=orch-run-ha \
    --experimental-watch-progress-notify-interval=5s --logger=zap --log-outputs=stderr \
    >>"$DIR/etcd-m$i.log" 2>&1 &
  pids+=($!)
done
echo "run-ha.sh: etcd members at $servers (logs $DIR/etcd-m*.log)" >&2

start_replica() { # index, port, extra flags...
  local i=$1 port=$2; shift 2
  node --enable-source-maps "$SERVER" --etcd-servers="$servers" --data-dir="$DIR/replica-$i" --cert-dir="$DIR/pki" \
    --bind-address=127.0.0.1 --secure-port="$port" "$@" 2>>"$DIR/replica-$i.log" &
  pids+=($!)
}
wait_ready() { # index
  for _ in $(seq 1 600); do
    grep -q 'wrote admin kubeconfig' "$DIR/replica-$1.log" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "run-ha.sh: replica $1 did not start; see $DIR/replica-$1.log" >&2
  exit 1
}
# The first replica creates the shared PKI and the system objects; the others start after it.
: >"$DIR/replica-0.log"
start_replica 0 "${REPLICA_PORTS[0]}" "$@"
wait_ready 0
for ((i = 1; i < ${#REPLICA_PORTS[@]}; i++)); do
  : >"$DIR/replica-$i.log"
  start_replica "$i" "${REPLICA_PORTS[$i]}" "$@"
done
for ((i = 1; i < ${#REPLICA_PORTS[@]}; i++)); do wait_ready "$i"; done

sed "s#server: https://127.0.0.1:${REPLICA_PORTS[0]}#server: https://127.0.0.1:${LB_PORT}#" "$DIR/replica-0/admin.kubeconfig" >"$DIR/admin.kubeconfig"
node --import tsx hack/tcp-lb.ts "$LB_PORT" "${REPLICA_PORTS[@]}" &
pids+=($!)
echo "run-ha.sh: replicas on ports ${REPLICA_PORTS[*]} (logs $DIR/replica-*.log), load balancer on 127.0.0.1:$LB_PORT" >&2
echo "run-ha.sh: export KUBECONFIG=$DIR/admin.kubeconfig; Ctrl-C stops everything" >&2
wait -n || true
echo "run-ha.sh: a process exited; kill a replica or member by hand to try failover, Ctrl-C to stop" >&2
wait
