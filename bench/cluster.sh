#!/usr/bin/env bash
# Several nodes against one: tic-tac-toe rooms (2 bot-free players + SPECTATORS
# spectators, moves from the generator) at the same offered rates on
#   - single: one node on Postgres (as scenario 3's `postgres`),
#   - cluster: three nodes in cluster mode on the same Postgres and a NATS server,
#     every connection and table creation sent to the next node in turn, so most
#     of a room's connections play through another node than its table's owner.
# All nodes share the server CPUs (SERVER_CPUS), so both runs get the same cores.
#
#   bench/cluster.sh
#   NATS_URL=nats://127.0.0.1:4222 RATES=500,1000,2000 bench/cluster.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
need_binaries; raise_limits
NATS_URL="${NATS_URL:-nats://127.0.0.1:4222}"
MODES="${MODES:-single cluster}"
ROOMS="${ROOMS:-300}"; SPECTATORS="${SPECTATORS:-2}"
RATES="${RATES:-500,1000,2000,3000,4000}"
MEASURE="${MEASURE:-8}"; WARMUP="${WARMUP:-3}"; LIMIT="${LIMIT:-5}"
OUT="${OUT:-$OUT_DIR/cluster.jsonl}"
machine_info
NODE_PIDS=()
stop_nodes() {
  for p in "${NODE_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${NODE_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  NODE_PIDS=()
}
trap stop_nodes EXIT
start_node() { # port [nats]
  local port="$1" nats="${2:-}"
  RUST_LOG=warn nice -n "$NICE" taskset -c "$SERVER_CPUS" env -u NATS_URL ${nats:+NATS_URL="$nats"} "$CITYTABLE" --port "$port" \
    --database-url "$(pg_url)" --data-dir "$OUT_DIR/data-cluster-$port" --bot-delay-ms 0 \
    --max-connections-per-address 0 --tables-per-minute 0 >"$OUT_DIR/citytable-cluster-$port.log" 2>&1 &
  NODE_PIDS+=($!)
  wait_port "$port"
}
for mode in $MODES; do
  reset_pg
  addrs=""
  if [ "$mode" = single ]; then
    start_node 18201; addrs="127.0.0.1:18201"
  else
    for port in 18211 18212 18213; do start_node "$port" "$NATS_URL"; addrs="${addrs:+$addrs,}127.0.0.1:$port"; done
  fi
  pids=$(IFS=,; echo "${NODE_PIDS[*]}")
  loadgen play --target citytable --addr "$addrs" --game tic-tac-toe --spectators "$SPECTATORS" \
    --rooms "$ROOMS" --rates "$RATES" --warmup "$WARMUP" --measure "$MEASURE" --p99-limit-ms "$LIMIT" \
    --keep-going "${KEEP_GOING:-1}" --server-pid "$pids" --db-pid "$(pg_pid)" \
    --label "$mode tic-tac-toe 2p+${SPECTATORS}s x$ROOMS" --out "$OUT" || true
  stop_nodes
done
