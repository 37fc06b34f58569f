# Helpers shared by the benchmark scripts (sourced, not run).
# Binaries come from a release build:
#   cargo build --release -p server -p loadgen
# Everything listens on and connects to 127.0.0.0/8 only.

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"
TARGET_DIR="${CARGO_TARGET_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target}"
CITYTABLE="${CITYTABLE:-$TARGET_DIR/release/citytable}"
LOADGEN="${LOADGEN:-$TARGET_DIR/release/loadgen}"
OUT_DIR="${OUT_DIR:-$BENCH_DIR/out}"
PG_ADMIN_URL="${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
PG_BENCH_DB="${PG_BENCH_DB:-citytable_bench}"
# The server gets CPU 0, the load generator CPU 1 (on a 2-core machine; Postgres
# is not pinned). Override with SERVER_CPUS / LOADGEN_CPUS.
# Server and load generator run at a raised priority (NICE, default -10) so that
# other work on a shared machine disturbs them less; Postgres keeps its own.
NICE="${NICE:--10}"
# With autogroup scheduling, nice only ranks processes of one session; give this
# session's group the same priority (best effort: needs root).
echo "$NICE" > /proc/self/autogroup 2>/dev/null || true
SERVER_CPUS="${SERVER_CPUS:-0}"
LOADGEN_CPUS="${LOADGEN_CPUS:-1}"
mkdir -p "$OUT_DIR"

need_binaries() {
  for b in "$CITYTABLE" "$LOADGEN"; do
    [ -x "$b" ] || { echo "missing $b: build with: CARGO_TARGET_DIR=$TARGET_DIR cargo build --release -p server -p loadgen" >&2; exit 1; }
  done
}

raise_limits() {
  ulimit -n 200000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
}

wait_port() { # port
  for _ in $(seq 1 200); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "nothing listening on 127.0.0.1:$1" >&2
  return 1
}

# Fresh Postgres database for one run.
reset_pg() {
  psql "$PG_ADMIN_URL" -qAtc "drop database if exists $PG_BENCH_DB with (force)" >/dev/null
  psql "$PG_ADMIN_URL" -qAtc "create database $PG_BENCH_DB" >/dev/null
}

pg_url() { echo "${PG_ADMIN_URL%/*}/$PG_BENCH_DB"; }

# The postmaster's pid (its backends are its children); empty if not readable.
pg_pid() {
  psql "$PG_ADMIN_URL" -qAtc "select pg_postmaster_start_time()" >/dev/null 2>&1 || return 0
  pgrep -o -x postgres 2>/dev/null || pgrep -o postgres 2>/dev/null || true
}

# start_citytable MODE PORT  (MODE: postgres | sqlite | sqlite-tmpfs | memory)
# Sets SERVER_PID. The server log goes to $OUT_DIR/citytable-MODE-PORT.log.
start_citytable() {
  local mode="$1" port="$2" log="$OUT_DIR/citytable-$1-$2.log"
  local data="$OUT_DIR/data-$mode-$port"
  case "$mode" in
    postgres) reset_pg; rm -rf "$data"; mkdir -p "$data"
      RUST_LOG=warn nice -n "$NICE" taskset -c "$SERVER_CPUS" "$CITYTABLE" --port "$port" --database-url "$(pg_url)" --data-dir "$data" --bot-delay-ms 0 --max-connections-per-address 0 --tables-per-minute 0 >"$log" 2>&1 & ;;
    sqlite) rm -rf "$data"; mkdir -p "$data"
      RUST_LOG=warn nice -n "$NICE" taskset -c "$SERVER_CPUS" env -u DATABASE_URL "$CITYTABLE" --port "$port" --data-dir "$data" --bot-delay-ms 0 --max-connections-per-address 0 --tables-per-minute 0 >"$log" 2>&1 & ;;
    sqlite-tmpfs) data="/dev/shm/citytable-bench-$port"; rm -rf "$data"; mkdir -p "$data"
      RUST_LOG=warn nice -n "$NICE" taskset -c "$SERVER_CPUS" env -u DATABASE_URL "$CITYTABLE" --port "$port" --data-dir "$data" --bot-delay-ms 0 --max-connections-per-address 0 --tables-per-minute 0 >"$log" 2>&1 & ;;
    memory) # nothing durable: the like-for-like match for boardgame.io's in-memory storage
      RUST_LOG=warn nice -n "$NICE" taskset -c "$SERVER_CPUS" "$CITYTABLE" --port "$port" --database-url memory: --data-dir "$data" --bot-delay-ms 0 --max-connections-per-address 0 --tables-per-minute 0 >"$log" 2>&1 & ;;
    *) echo "unknown mode $mode" >&2; return 1 ;;
  esac
  SERVER_PID=$!
  wait_port "$port"
}

# start_bgio PORT: the boardgame.io reference server. Sets SERVER_PID.
start_bgio() {
  local port="$1"
  [ -d "$BENCH_DIR/boardgameio/node_modules/boardgame.io" ] || (cd "$BENCH_DIR/boardgameio" && npm ci --no-audit --no-fund >/dev/null)
  NODE_ENV=production nice -n "$NICE" taskset -c "$SERVER_CPUS" node "$BENCH_DIR/boardgameio/server.js" "$port" >"$OUT_DIR/bgio-$port.log" 2>&1 &
  SERVER_PID=$!
  wait_port "$port"
}

stop_server() {
  if [ -n "${SERVER_PID:-}" ]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
  fi
}

loadgen() {
  nice -n "$NICE" taskset -c "$LOADGEN_CPUS" "$LOADGEN" "$@"
}

machine_info() {
  echo "# $(date -u +%FT%TZ) nproc=$(nproc) mem=$(free -g | awk '/Mem:/{print $2}')GiB cpu=\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')\" commit=$(git -C "$REPO_DIR" rev-parse --short HEAD)"
}
