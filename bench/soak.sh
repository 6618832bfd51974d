#!/usr/bin/env bash
# soak.sh runs tablestress at a steady rate for a long time against a
# server in a process of its own, the embedded service (TARGET=embedded,
# `tablestress emulator --model off`) or the pinned Azurite
# (TARGET=azurite), and prints once a minute (bench/soakwatch): the
# client's resident memory, goroutines and heap objects, the server's
# resident memory, and the rows the table holds. Per-worker recorders are
# swapped every second and partition state is bounded, so nothing should
# accumulate per operation; the scenario (bench/scenarios/soak.yaml)
# balances inserts with deletes, but its upserts recreate deleted entities,
# so the stored rows drift: the rows column tells growth of the data from a
# creep of memory.
#   bench/soak.sh                              # 30 minutes at 1,000 operations/s, embedded
#   TARGET=azurite DURATION=30m bench/soak.sh
#   DURATION=5m RATE=2000 bench/soak.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
duration=${DURATION:-30m}
rate=${RATE:-1000}
target=${TARGET:-embedded}
go build -o bin/tablestress ./cmd/tablestress
go build -o bin/soakwatch ./bench/soakwatch
out=$(mktemp -d)
# shellcheck source=scripts/azurite.sh
. "$root/scripts/azurite.sh"
case "$target" in
embedded)
  port=$(free_port)
  bin/tablestress emulator --listen "127.0.0.1:$port" --model off >"$out/emulator.txt" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  wait_listening "$port" "$server" "$out/emulator.txt"
  conn=$(devstore_conn "$port")
  ;;
azurite)
  azurite_start
  server=$azpid
  conn=$TABLESTRESS_AZURITE
  ;;
*)
  echo "soak.sh: TARGET is embedded or azurite, not $target" >&2
  exit 2
  ;;
esac
table="soak$(date +%s)"
mport=$(free_port)
echo "soak.sh: $duration at $rate ops/s against $target (server pid $server), table $table"
echo "soak.sh: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores; load at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
bin/tablestress run bench/scenarios/soak.yaml --target "$conn" --table "$table" --keep-table \
  --duration "$duration" --rate "$rate" --warmup 0s --metrics-addr "127.0.0.1:$mport" \
  --quiet --out "$out/report.json" >"$out/report.txt" 2>"$out/run.err" &
client=$!
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$mport") 2>/dev/null && break; sleep 0.1; done
bin/soakwatch -client-pid "$client" -metrics "127.0.0.1:$mport" -server-pid "$server" -conn "$conn" -table "$table"
wait "$client" || true
echo "soak.sh: load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -E "^ +total|dropped|verdict" "$out/report.txt" || cat "$out/report.txt" "$out/run.err"
echo "soak.sh: report in $out/report.json"
