#!/usr/bin/env bash
# Where a durable move's time goes, at one steady load on Postgres: from its arrival
# in the room to its acknowledgement (citytable_move_seconds), of which making it
# durable (citytable_store_commit_seconds), of which waiting for one of the group
# commit's transaction slots (queued) and the transaction itself. Read from /metrics
# at the start and the end of the measured window.
#
#   GAME=tic-tac-toe SEATS=2 ROOMS=500 RATE=2000 bench/commit-split.sh
#   GAME=big-city SEATS=4 ROOMS=300 RATE=1500 bench/commit-split.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
need_binaries; raise_limits
GAME="${GAME:-tic-tac-toe}"; ROOMS="${ROOMS:-500}"; RATE="${RATE:-2000}"
WARMUP="${WARMUP:-4}"; MEASURE="${MEASURE:-10}"
port=18320
machine_info
trap stop_server EXIT
start_citytable postgres "$port"
scrape() { curl -s "http://127.0.0.1:$port/metrics"; }
loadgen play --addr "127.0.0.1:$port" --game "$GAME" ${SEATS:+--seats "$SEATS"} --spectators 2 \
  --rooms "$ROOMS" --rates "$RATE" --warmup "$WARMUP" --measure "$MEASURE" --keep-going 0 \
  --server-pid "$SERVER_PID" --label "$GAME postgres commit-split" --out "$OUT_DIR/commit-split.jsonl" &
load=$!
sleep "$WARMUP"; before="$(scrape)"
sleep "$MEASURE"; after="$(scrape)"
wait "$load" || true
# A series' value at the end of the window less its value at the start.
value() { awk -v name="$1" '$1 == name { print $2; exit }'; }
delta() {
  awk -v a="$(value "$1" <<<"$after")" -v b="$(value "$1" <<<"$before")" 'BEGIN { printf "%.9f\n", a - b }'
}
moves=$(delta citytable_move_seconds_count)
move_sum=$(delta citytable_move_seconds_sum)
commits=$(delta citytable_store_commit_seconds_count)
commit_sum=$(delta citytable_store_commit_seconds_sum)
rows=$(delta citytable_store_rows_total)
txs=$(delta citytable_store_transactions_total)
queued=$(delta citytable_store_queued_seconds_total)
in_tx=$(delta citytable_store_transaction_seconds_total)
awk -v moves="$moves" -v move_sum="$move_sum" -v commits="$commits" -v commit_sum="$commit_sum" \
    -v rows="$rows" -v txs="$txs" -v queued="$queued" -v in_tx="$in_tx" -v secs="$MEASURE" 'BEGIN {
  printf "moves acknowledged: %d (%.0f/s)\n", moves, moves / secs
  printf "arrival to acknowledgement, mean: %.2f ms\n", 1000 * move_sum / moves
  printf "  of which durable commit, mean:  %.2f ms\n", 1000 * commit_sum / commits
  printf "    waiting for a transaction slot, mean per write: %.2f ms\n", 1000 * queued / rows
  printf "    one transaction, mean: %.2f ms (%.1f writes each, %.0f transactions/s)\n", 1000 * in_tx / txs, rows / txs, txs / secs
}'
