#!/usr/bin/env bash
# The fan-out of a game's moves alone (server/src/bin/fanout-bench.rs): seeded bot
# games of 4 seats, each move's update frames for 4 players + 2 spectators.
# Prints bytes on the wire per move and µs per move; with CALLGRIND=1 also the
# instructions spent building frames, per move (valgrind's callgrind). GAME
# (default big-city) and OPTIONS (the game's options as JSON) pick the game.
#
#   bench/fanout.sh              # 200 Big City games
#   GAMES=20 CALLGRIND=1 bench/fanout.sh
#   GAME=building-cities OPTIONS='{"mode":"despicable","objective":"obj_tutorial"}' bench/fanout.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(pwd)/target}"
cargo build --release -q -p server --bin fanout-bench
BIN="$CARGO_TARGET_DIR/release/fanout-bench"
if [ "${CALLGRIND:-0}" = 1 ]; then
  OUT="$(mktemp -d)"
  valgrind --tool=callgrind --callgrind-out-file="$OUT/cg" --toggle-collect='*fan_out_once*' \
    "$BIN" "${GAMES:-20}" "${GAME:-big-city}" "${OPTIONS:-null}" 2>"$OUT/log"
  moves="$("$BIN" "${GAMES:-20}" "${GAME:-big-city}" "${OPTIONS:-null}" | sed -n 's/.*moves \([0-9]*\).*/\1/p')"
  ir="$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$OUT/cg")"
  echo "frame building: $ir instructions for $moves moves = $((ir / moves)) per move"
else
  taskset -c "${SERVER_CPUS:-0}" "$BIN" "${GAMES:-200}" "${GAME:-big-city}" "${OPTIONS:-null}"
fi
