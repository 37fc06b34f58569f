#!/usr/bin/env bash
# Engine throughput: complete random Big City games per second on one core.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(cd "$(dirname "$0")/.." && pwd)/target}"
nice -n "${NICE:--10}" taskset -c "${SERVER_CPUS:-0}" cargo run --release -q -p big-city --example bench -- "${GAMES:-2000}"
