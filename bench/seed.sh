#!/usr/bin/env bash
# seed.sh times `tablestress seed` loading entities of 256 bytes
# (bench/scenarios/seed-1m.yaml: 1,000 partitions, transactions of 100 by
# 32 writers) into the embedded service, in-process as the default target
# runs it, model off. It prints the wall time, entities per second, the CPU
# time and the peak resident memory of the tablestress process (its VmHWM
# and VmRSS, sampled from /proc every 100 ms), and that peak per entity.
# The last line is in `go test -bench` form for bench/readme-figures.sh:
#   BenchmarkSeed/ENTITIES  1  WALL ns/op  CPU ns/cpu  PEAK bytes/peak-rss  BYTES bytes/entity
# which a Measured row's figure cell writes "77.0 s, 71.8 s per cpu,
# 3,836 MiB per peak-rss, 402 bytes per entity".
#   bench/seed.sh                       # 1,000,000 entities
#   bench/seed.sh --entities 10000000   # ten million
# Requires Go.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
me=$(basename "$0")
entities=1000000
while [ $# -gt 0 ]; do
  case $1 in
  --entities)
    entities=${2:?--entities needs a count}
    shift 2
    ;;
  --entities=*)
    entities=${1#--entities=}
    shift
    ;;
  *)
    echo "$me: unknown argument $1 (usage: $me [--entities N])" >&2
    exit 2
    ;;
  esac
done
case $entities in
'' | *[!0-9]*)
  echo "$me: --entities $entities: want a whole number of entities, like 10000000" >&2
  exit 2
  ;;
esac

go build -o bin/tablestress ./cmd/tablestress
out=$(mktemp -d)
hz=$(getconf CLK_TCK)
start=$(date +%s.%N)
bin/tablestress seed bench/scenarios/seed-1m.yaml --entities "$entities" --model off --quiet >"$out/seed.txt" 2>&1 &
pid=$!
peak=0 cpu=0
while kill -0 "$pid" 2>/dev/null; do
  # The high-water mark, and the current size in case the kernel has none.
  for field in VmHWM VmRSS; do
    kb=$(awk -v f="$field:" '$1 == f {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    if [ -n "$kb" ] && [ "$kb" -gt "$peak" ]; then peak=$kb; fi
  done
  ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || true)
  if [ -n "$ticks" ]; then cpu=$ticks; fi
  sleep 0.1
done
if ! wait "$pid"; then
  echo "$me: seeding failed:" >&2
  cat "$out/seed.txt" >&2
  exit 1
fi
end=$(date +%s.%N)
grep -m1 'seeded' "$out/seed.txt" || true
awk -v n="$entities" -v s="$start" -v e="$end" -v kb="$peak" -v t="$cpu" -v hz="$hz" 'BEGIN {
  wall = e - s
  printf "seed %d entities of 256 B: %.1f s wall, %.0f entities/s, %.1f s CPU, peak RSS %.0f MiB (%.0f bytes per entity)\n",
    n, wall, n / wall, t / hz, kb / 1024, kb * 1024 / n
  printf "BenchmarkSeed/%d\t1\t%.0f ns/op\t%.0f ns/cpu\t%.0f bytes/peak-rss\t%.0f bytes/entity\n",
    n, wall * 1e9, t / hz * 1e9, kb * 1024, kb * 1024 / n
}'
rm -rf "$out"
