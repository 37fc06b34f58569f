#!/usr/bin/env bash
# Scenario 3, reference game side by side: tic-tac-toe rooms (2 bot players +
# SPECTATORS spectators) at the same offered rates on
#   - CityTable, every move committed to Postgres before its views go out (default),
#   - CityTable on SQLite (WAL, synchronous=FULL) on disk, the server's embedded default,
#   - CityTable keeping everything in memory (DATABASE_URL=memory:, nothing durable):
#     the like-for-like match for boardgame.io's default storage,
#   - boardgame.io 0.50 (bench/boardgameio, default in-memory storage),
# (also available: sqlite-tmpfs, SQLite in /dev/shm where fsync is free),
# each driven and timed by the same loadgen code.
#
#   bench/versus.sh
#   TARGETS="bgio memory" RATES=500,1000,2000 bench/versus.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
need_binaries; raise_limits
TARGETS="${TARGETS:-postgres sqlite memory bgio}"
ROOMS="${ROOMS:-500}"; SPECTATORS="${SPECTATORS:-2}"
RATES="${RATES:-250,500,1000,2000,4000,6000,8000,10000,12000,16000}"
MEASURE="${MEASURE:-10}"; WARMUP="${WARMUP:-3}"; LIMIT="${LIMIT:-5}"
OUT="${OUT:-$OUT_DIR/versus.jsonl}"
machine_info
trap stop_server EXIT
port=18090
for t in $TARGETS; do
  port=$((port + 1))
  DBPID=""
  if [ "$t" = bgio ]; then
    start_bgio "$port"; target=bgio
  else
    start_citytable "$t" "$port"; target=citytable
    [ "$t" = postgres ] && DBPID="$(pg_pid)"
  fi
  loadgen play --target "$target" --addr "127.0.0.1:$port" --game tic-tac-toe --spectators "$SPECTATORS" \
    --rooms "$ROOMS" --rates "$RATES" --warmup "$WARMUP" --measure "$MEASURE" --p99-limit-ms "$LIMIT" \
    --keep-going "${KEEP_GOING:-1}" --server-pid "$SERVER_PID" ${DBPID:+--db-pid "$DBPID"} \
    --label "$t tic-tac-toe 2p+${SPECTATORS}s x$ROOMS" --out "$OUT" || true
  stop_server
done
