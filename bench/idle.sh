#!/usr/bin/env bash
# Scenario 2, idle connections: CONNS spectators (10 to a table) connect, say hello
# and stay idle; the server's RSS per connection is printed at each step.
#
#   bench/idle.sh                 # CityTable on Postgres, 20,000 connections
#   TARGET=bgio bench/idle.sh     # the same on the boardgame.io reference server
set -euo pipefail
source "$(dirname "$0")/lib.sh"
need_binaries; raise_limits
TARGET="${TARGET:-citytable}"; MODE="${MODE:-postgres}"; PORT="${PORT:-18081}"
CONNS="${CONNS:-20000}"; PER_TABLE="${PER_TABLE:-10}"; STEPS="${STEPS:-5000,10000,20000}"
OUT="${OUT:-$OUT_DIR/idle.jsonl}"
machine_info
trap stop_server EXIT
if [ "$TARGET" = bgio ]; then start_bgio "$PORT"; LABEL="bgio idle"; else start_citytable "$MODE" "$PORT"; LABEL="citytable idle $MODE"; fi
loadgen idle --target "$TARGET" --addr "127.0.0.1:$PORT" --conns "$CONNS" --per-table "$PER_TABLE" \
  --steps "$STEPS" --hold "${HOLD:-5}" --server-pid "$SERVER_PID" \
  --sources 127.0.0.1,127.0.0.2,127.0.0.3,127.0.0.4,127.0.0.5,127.0.0.6 \
  --label "$LABEL" --out "$OUT"
