#!/usr/bin/env bash
# The hostile-client scenario (RELIABILITY.md, "A hostile client"): 100 ordinary Big City
# tables (2 bot players and a spectator each) play at a steady offered rate while an
# attacker, from addresses of its own, fetches the record of a 10,000-entry game 20 at a
# time, holds 256 sockets that never read, floods table creation and opens idle
# connections. It runs twice, each on a fresh server: quiet, then under attack, and
# prints the server's peak resident memory and the ordinary tables' latencies.
#
#   reliability/hostile.sh                      # PLAY_SECONDS=30 RATE=500
#   FEATURES=server/mimalloc reliability/hostile.sh   # the server on mimalloc
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
BIN="$TARGET_DIR/release"
cargo build --release --locked -p server -p loadgen -p reliability --bins ${FEATURES:+--features "$FEATURES"}
ulimit -n 200000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
PLAY="${PLAY_SECONDS:-30}"; RATE="${RATE:-500}"; PORT="${PORT:-18180}"
OUT="${OUT:-reliability/results/hostile-$(date +%F)}"
mkdir -p "$OUT"; : >"$OUT/summary.txt"
SOURCES=$(seq -s, -f '127.0.0.%g' 1 20)
# The server on one core, the clients (ordinary and hostile) on the other, as in
# bench/: the attacker's own CPU is not the server's. The attacker runs at the lowest
# priority so that it does not starve the ordinary clients that measure latency on
# their shared core (a real attacker has machines of his own); it still takes every
# cycle they leave.
CPU0=(); CPU1=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then CPU0=(taskset -c 0); CPU1=(taskset -c 1); fi
SERVER_PID=""
trap '[ -z "$SERVER_PID" ] || kill "$SERVER_PID" 2>/dev/null || true' EXIT

scenario() { # quiet | attack
  local mode="$1" dir code pid apid=""
  dir=$(mktemp -d)
  code=$("$BIN/attack" preload --data-dir "$dir" 2>"$OUT/$mode-preload.txt")
  "${CPU0[@]}" env RUST_LOG=warn "$BIN/citytable" --port "$PORT" --data-dir "$dir" --bot-delay-ms 0 \
    >"$OUT/$mode-server.log" 2>&1 &
  pid=$!; SERVER_PID=$pid
  for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
    sleep 0.1
  done
  if [ "$mode" = attack ]; then
    "${CPU1[@]}" nice -n 19 "$BIN/attack" run --addr "127.0.0.1:$PORT" --code "$code" --seconds "$((PLAY + 5))" \
      >"$OUT/attack.txt" 2>&1 &
    apid=$!
  fi
  "${CPU1[@]}" "$BIN/loadgen" play --addr "127.0.0.1:$PORT" --game big-city --seats 2 --spectators 1 \
    --rooms 100 --rates "$RATE" --warmup 3 --measure "$PLAY" --p99-limit-ms 10000 \
    --server-pid "$pid" --sources "$SOURCES" --label "$mode" --out "$OUT/$mode.jsonl" \
    | tee "$OUT/$mode.txt"
  [ -z "$apid" ] || wait "$apid"
  sleep 5
  local heap
  heap=$(curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^citytable_heap_in_use_bytes/ {printf "%.1f MiB", $2 / 1048576}')
  echo "$mode: server peak resident memory $(awk '/VmHWM/ {print $2, $3}' "/proc/$pid/status");" \
    "5 s after: resident $(awk '/VmRSS/ {print $2, $3}' "/proc/$pid/status"), heap in use ${heap:-?}" \
    | tee -a "$OUT/summary.txt"
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
}

scenario quiet
scenario attack
cat "$OUT/attack.txt" | tee -a "$OUT/summary.txt"
