#!/usr/bin/env bash
# What a node's lease renewals cost Postgres, one statement per lease (as the renew loop
# sends them today) against one statement for 1,000 leases (a batched renewal), with
# pgbench on a scratch database of 10,000 leases shaped like `table_lease` (bigint keys).
#
#   bench/lease-renew.sh
#   SECONDS_EACH=20 bench/lease-renew.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
DB=citytable_lease_bench
export PGOPTIONS="-c client_min_messages=warning"
SECS="${SECONDS_EACH:-10}"
url="${PG_ADMIN_URL%/*}/$DB"
machine_info
psql "$PG_ADMIN_URL" -qAtc "drop database if exists $DB with (force)" >/dev/null
psql "$PG_ADMIN_URL" -qAtc "create database $DB" >/dev/null
trap 'psql "$PG_ADMIN_URL" -qAtc "drop database if exists $DB with (force)" >/dev/null' EXIT
psql "$url" -qc "create table lease (table_id bigint primary key, node_id text not null,
  epoch bigint not null, expires_at_ms bigint not null);
  create index on lease (expires_at_ms);
  insert into lease select g, 'node-a', 1, 9e15::bigint from generate_series(1, 10000) g;"
psql "$url" -qc "vacuum analyze lease"
now="(extract(epoch from statement_timestamp()) * 1000)::bigint"
cat >"$OUT_DIR/renew-one.sql" <<SQL
\set id random(1, 10000)
update lease set expires_at_ms = $now + 10000 where table_id = :id and node_id = 'node-a' and epoch = 1 and expires_at_ms > $now;
SQL
cat >"$OUT_DIR/renew-batch.sql" <<SQL
\set first random(1, 9001)
update lease set expires_at_ms = $now + 10000 where table_id between :first and :first + 999 and node_id = 'node-a' and epoch = 1 and expires_at_ms > $now;
SQL
for run in "one lease a statement, 1 client:renew-one:1" "one lease a statement, 4 clients:renew-one:4" \
           "1,000 leases a statement, 1 client:renew-batch:1"; do
  IFS=: read -r label script clients <<<"$run"
  echo "## $label"
  pgbench -n -c "$clients" -j "$clients" -T "$SECS" -f "$OUT_DIR/$script.sql" "$url" 2>&1 \
    | grep -E "processed|latency average|^tps"
done
