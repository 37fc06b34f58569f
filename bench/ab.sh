#!/usr/bin/env bash
# A/B: the same ramp against two citytable binaries, back to back (e.g. main
# against a build with a proposed server fix).
#   CITYTABLE_B=/path/to/patched/citytable MODE=sqlite-tmpfs bench/ab.sh
#   CITYTABLE_B=... MODE=postgres GAME=big-city SEATS=4 ROOMS=300 RATES=500,1000,2000 bench/ab.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
need_binaries; raise_limits
MODE="${MODE:-sqlite-tmpfs}"; GAME="${GAME:-tic-tac-toe}"; ROOMS="${ROOMS:-1000}"; SPECTATORS="${SPECTATORS:-2}"
RATES="${RATES:-1000,2000,3000,4000,5000,6000}"
OUT="${OUT:-$OUT_DIR/ab.jsonl}"
machine_info
trap stop_server EXIT
port=18300
for bin in "$CITYTABLE" "${CITYTABLE_B:?set CITYTABLE_B}"; do
  port=$((port + 1))
  CITYTABLE="$bin" start_citytable "$MODE" "$port"
  loadgen play --addr "127.0.0.1:$port" --game "$GAME" ${SEATS:+--seats "$SEATS"} --spectators "$SPECTATORS" --rooms "$ROOMS" \
    --rates "$RATES" --warmup "${WARMUP:-3}" --measure "${MEASURE:-10}" --keep-going "${KEEP_GOING:-9}" \
    --server-pid "$SERVER_PID" --label "$GAME $MODE $bin" --out "$OUT" || true
  stop_server
done
