#!/usr/bin/env bash
# persistence.sh measures what keeping its data in a directory
# (tablestress emulator --location) costs the embedded service, side by
# side with memory in one run: inserts and point reads through aztables
# over loopback from 8 parallel clients per CPU, and the time a restart
# takes to load 1,000,000 entities of 256 bytes. It prints go test's cpu
# line, each figure, and the share of the in-memory throughput kept.
# The in-process load generator (run, compare, advise: --target embedded)
# never keeps a directory: its path is the memory one.
#
# Usage: bench/persistence.sh [-benchtime 5s]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
benchtime=${2:-3s}
[ "${1:-}" = -benchtime ] || [ $# -eq 0 ] || { echo "usage: $0 [-benchtime D]" >&2; exit 2; }
out=$(cd "$root" && go test -run '^$' -bench 'BenchmarkLocation(Insert|PointRead)$' -benchtime "$benchtime" ./pkg/emulator/ &&
  go test -run '^$' -bench 'BenchmarkLocationRestart1M$' -benchtime 1x -timeout 30m ./pkg/emulator/)
echo "$out" | grep -E '^(cpu|Benchmark)'
echo "$out" | awk '
  /^BenchmarkLocation(Insert|PointRead)\// {
    split($1, n, "/"); sub(/-[0-9]+$/, "", n[2]); op = n[1]; sub(/^BenchmarkLocation/, "", op)
    ns[op, n[2]] = $3
  }
  /^BenchmarkLocationRestart1M/ { restart = $3 / 1e9 }
  END {
    for (op in seen) {}
    split("Insert PointRead", ops, " ")
    for (i = 1; i <= 2; i++) {
      o = ops[i]
      if (ns[o, "memory"] > 0 && ns[o, "location"] > 0)
        printf "%s: %.0f/s in memory, %.0f/s with --location: %.0f%% kept\n", o, 1e9 / ns[o, "memory"], 1e9 / ns[o, "location"], 100 * ns[o, "memory"] / ns[o, "location"]
    }
    if (restart > 0) printf "restart with 1,000,000 entities: ready in %.2f s\n", restart
  }'
