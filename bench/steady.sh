#!/usr/bin/env bash
# Scenario 1, steady play: many Big City rooms (4 bot players + 2 spectators each)
# on a CityTable server that commits every move to Postgres before its views go
# out. The offered rate steps up until p99 (due → last recipient) passes the limit.
#
#   bench/steady.sh                      # defaults below
#   ROOMS=1000 RATES=1000,2000,4000 bench/steady.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
need_binaries; raise_limits
GAME="${GAME:-big-city}"; SEATS="${SEATS:-4}"; SPECTATORS="${SPECTATORS:-2}"
ROOMS="${ROOMS:-500}"; RATES="${RATES:-500,1000,2000,3000,4000,6000,8000,10000}"
MODE="${MODE:-postgres}"; PORT="${PORT:-18080}"
MEASURE="${MEASURE:-10}"; WARMUP="${WARMUP:-3}"; LIMIT="${LIMIT:-5}"
OUT="${OUT:-$OUT_DIR/steady.jsonl}"
machine_info
trap stop_server EXIT
start_citytable "$MODE" "$PORT"
DBPID=""; [ "$MODE" = postgres ] && DBPID="$(pg_pid)"
loadgen play --addr "127.0.0.1:$PORT" --game "$GAME" --seats "$SEATS" --spectators "$SPECTATORS" \
  --rooms "$ROOMS" --rates "$RATES" --warmup "$WARMUP" --measure "$MEASURE" --p99-limit-ms "$LIMIT" \
  --keep-going "${KEEP_GOING:-1}" --server-pid "$SERVER_PID" ${DBPID:+--db-pid "$DBPID"} \
  --sources 127.0.0.1,127.0.0.2,127.0.0.3,127.0.0.4 \
  --label "citytable $GAME $MODE ${SEATS}p+${SPECTATORS}s x$ROOMS" --out "$OUT"
