#!/usr/bin/env bash
# soak.sh runs tablestress against the embedded service at a steady rate for
# a long time and prints its resident memory once a minute, to show it stays
# flat: per-worker recorders are swapped every second, partition state is
# bounded, nothing accumulates per operation. The scenario
# (bench/scenarios/soak.yaml) balances inserts with deletes, so the stored
# data does not grow either.
#   bench/soak.sh                 # 30 minutes at 1,000 operations/s
#   DURATION=5m RATE=2000 bench/soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-30m}
rate=${RATE:-1000}
go build -o bin/tablestress ./cmd/tablestress
out=$(mktemp -d)
bin/tablestress run bench/scenarios/soak.yaml --duration "$duration" --rate "$rate" --warmup 0s \
  --quiet --out "$out/report.json" >"$out/report.txt" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT INT TERM
echo "soak.sh: pid $pid, $duration at $rate ops/s; RSS every minute"
minute=0
while kill -0 "$pid" 2>/dev/null; do
  rss=$(ps -o rss= -p "$pid" 2>/dev/null || true)
  [ -n "$rss" ] && printf 'minute %3d  rss %8d KiB\n' "$minute" "$rss"
  for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  minute=$((minute + 1))
done
wait "$pid" || true
trap - EXIT
grep -E "^ +total|verdict" "$out/report.txt" || cat "$out/report.txt"
echo "soak.sh: report in $out/report.json"
