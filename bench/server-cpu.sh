#!/usr/bin/env bash
# server-cpu.sh measures what a server costs per Table operation: the CPU
# time (user + system, from /proc/PID/stat) the server process spends per
# point read and per insert of 1 KiB entities, for
#   floor     bench/floor, a net/http handler answering a fixed entity with
#             Azure's headers and doing nothing else: what net/http costs;
#   fastfloor bench/floor -http fasthttp, the same answers from fasthttp's
#             own handler API: what fasthttp, the embedded service's HTTP
#             layer, costs;
#   embedded  the embedded service on its own (tablestress emulator --model
#             off, as Azurite has no model);
#   azurite   the pinned Azurite (tools/azurite), in memory;
# all driven by the same client, bench/bareclient (the Azure SDK for Go
# alone: 32 goroutines calling GetEntity, or AddEntity with new RowKeys),
# which reads the server's CPU time at the start and end of its measuring
# loop only: the tables are seeded (reads) or created (inserts) beforehand.
#
# The machine is shared and small, so RUNS rounds are interleaved (in each
# round every operation against every server, the servers' order turning)
# and the medians printed, with embedded/floor per round (the two measured
# a few seconds apart) and its median and spread, and the same against
# fastfloor. The last lines are in `go test -bench` form for
# bench/readme-figures.sh, one per operation (a Measured row's command
# measures one, OPS=read or OPS=insert):
#   BenchmarkServerCPU/point-read  OPS  EMBEDDED ns/op  FLOOR ns/floor-op  FAST ns/fastfloor-op  AZURITE ns/azurite-op  RATIO ×/floor  RATIO ×/fastfloor
# which a Measured row's figure cell writes "52 µs, 45 µs per floor-op,
# 1.15× per floor" (OPS is the embedded service's median operations per run).
#
#   bench/server-cpu.sh
#   RUNS=7 DURATION=8s bench/server-cpu.sh
#   OPS=read bench/server-cpu.sh          # point reads only (or OPS=insert)
#   AZURITE=0 bench/server-cpu.sh         # floor and embedded only
#   EMULATOR=/tmp/old/tablestress bench/server-cpu.sh   # another build of the service
#   EMULATOR_FLAGS='--cpuprofile /tmp/e.pprof' FLOOR_FLAGS='-cpuprofile /tmp/f.pprof' bench/server-cpu.sh
# Requires Go and Node (npm too for Azurite).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=${RUNS:-5}
duration=${DURATION:-5s}
ops=${OPS:-read insert}
with_azurite=${AZURITE:-1}
scen=bench/scenarios/point-read-1k.yaml
me=$(basename "$0")

for op in $ops; do
  case $op in read | insert) ;; *) echo "$me: OPS: $op is not read or insert" >&2; exit 2 ;; esac
done
go build -o bin/tablestress ./cmd/tablestress
go build -o bin/bareclient ./bench/bareclient
go build -o bin/floor ./bench/floor
# shellcheck source=scripts/azurite.sh
. "$root/scripts/azurite.sh" # free_port, wait_listening, devstore_conn, azurite_start
servers=(floor fastfloor embedded)
if [ "$with_azurite" = 1 ]; then
  azurite_start # before our trap: it sets its own
  servers+=(azurite)
fi

out=$(mktemp -d)
declare -A pid conn
fport=$(free_port)
# shellcheck disable=SC2086 # FLOOR_FLAGS is a list of flags
bin/floor -listen "127.0.0.1:$fport" ${FLOOR_FLAGS:-} >"$out/floor.log" 2>&1 &
pid[floor]=$!
ffport=$(free_port)
# shellcheck disable=SC2086 # FLOOR_FLAGS is a list of flags
bin/floor -listen "127.0.0.1:$ffport" -http fasthttp ${FLOOR_FLAGS:-} >"$out/fastfloor.log" 2>&1 &
pid[fastfloor]=$!
eport=$(free_port)
# shellcheck disable=SC2086 # EMULATOR_FLAGS is a list of flags
"${EMULATOR:-bin/tablestress}" emulator --listen "127.0.0.1:$eport" --model off ${EMULATOR_FLAGS:-} >"$out/emulator.log" 2>&1 &
pid[embedded]=$!
cleanup() {
  # All stop cleanly on TERM (and write their CPU profiles).
  kill "${pid[embedded]}" 2>/dev/null || true
  kill "${pid[floor]}" "${pid[fastfloor]}" 2>/dev/null || true
  wait "${pid[embedded]}" "${pid[floor]}" "${pid[fastfloor]}" 2>/dev/null || true
  if [ "$with_azurite" = 1 ]; then azurite_stop; fi
}
trap cleanup EXIT
wait_listening "$fport" "${pid[floor]}" "$out/floor.log"
wait_listening "$ffport" "${pid[fastfloor]}" "$out/fastfloor.log"
wait_listening "$eport" "${pid[embedded]}" "$out/emulator.log"
conn[floor]=$(devstore_conn "$fport")
conn[fastfloor]=$(devstore_conn "$ffport")
conn[embedded]=$(devstore_conn "$eport")
if [ "$with_azurite" = 1 ]; then
  pid[azurite]=$azpid
  conn[azurite]=$TABLESTRESS_AZURITE
fi

# Seed the read table (the floor answers any key with its fixed entity).
for s in "${servers[@]}"; do
  [ "$s" = floor ] || [ "$s" = fastfloor ] && continue
  bin/tablestress seed "$scen" --target "${conn[$s]}" --table tsservercpu --keep-table --quiet >"$out/seed-$s.txt" 2>&1 ||
    { echo "$me: seeding $s failed:" >&2; cat "$out/seed-$s.txt" >&2; exit 1; }
done

# measure OP SERVER prints the server's µs per operation and the client's
# operations, failing on any error (an error's answer is not the work).
measure() {
  local op=$1 s=$2 table=tsservercpu res
  [ "$op" = insert ] && table=tsservercpuinsert
  res=$(bin/bareclient -conn "${conn[$s]}" -table "$table" -scenario "$scen" -op "$op" \
    -duration "$duration" -server-pid "${pid[$s]}") ||
    { echo "$me: $op against $s failed" >&2; exit 1; }
  echo "{\"server\":\"$s\",\"result\":$res}" >>"$out/runs.jsonl"
  node -e '
    const r = JSON.parse(process.argv[1]);
    if (r.errors > 0) { console.error(`${process.argv[2]}: ${r.errors} of ${r.ops} operations failed`); process.exit(1); }
    console.log(r.server_cpu_us_per_op.toFixed(2), r.ops);
  ' "$res" "$op against $s" || exit 1
}

echo "$me: $runs rounds of $duration per operation and server, $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-7s' round op
for s in "${servers[@]}"; do printf ' %14s' "$s µs/op"; done
printf ' %15s %15s\n' embedded/floor embedded/fast
declare -A all
for r in $(seq 1 "$runs"); do
  for op in $ops; do
    # Turn the servers' order each round, so none is always measured first.
    n=${#servers[@]}
    order=()
    for k in $(seq 0 $((n - 1))); do order+=("${servers[$(((k + r) % n))]}"); done
    declare -A us=()
    for s in "${order[@]}"; do
      m=$(measure "$op" "$s")
      read -r v count <<<"$m"
      us[$s]=$v
      all[$op,$s]+="$v "
      all[$op,$s,ops]+="$count "
    done
    ratio=$(awk -v e="${us[embedded]}" -v f="${us[floor]}" 'BEGIN {printf "%.3f", e / f}')
    all[$op,ratio]+="$ratio "
    fratio=$(awk -v e="${us[embedded]}" -v f="${us[fastfloor]}" 'BEGIN {printf "%.3f", e / f}')
    all[$op,fratio]+="$fratio "
    printf '%-6s %-7s' "$r" "$op"
    for s in "${servers[@]}"; do printf ' %14s' "${us[$s]}"; done
    printf ' %14s× %14s×\n' "$ratio" "$fratio"
  done
done

# median LIST prints the median of whitespace-separated numbers.
median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
spread() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk 'NR==1 {lo=$1} {hi=$1} END {print lo "–" hi}'; }

echo
echo "medians of $runs rounds (server CPU per operation; embedded/floor and embedded/fastfloor: medians of the rounds' ratios, and their spread)"
for op in $ops; do
  printf '%-14s' "$op"
  for s in "${servers[@]}"; do printf ' %s %s µs' "$s" "$(median "${all[$op,$s]}")"; done
  printf '   embedded/floor %s× (%s)' "$(median "${all[$op,ratio]}")" "$(spread "${all[$op,ratio]}")"
  printf '   embedded/fastfloor %s× (%s)\n' "$(median "${all[$op,fratio]}")" "$(spread "${all[$op,fratio]}")"
done
echo
for op in $ops; do
  name=point-read
  [ "$op" = insert ] && name=insert
  line=$(printf 'BenchmarkServerCPU/%s\t%s\t%.0f ns/op\t%.0f ns/floor-op' "$name" "$(median "${all[$op,embedded,ops]}" | cut -d. -f1)" \
    "$(awk -v v="$(median "${all[$op,embedded]}")" 'BEGIN {print v * 1000}')" \
    "$(awk -v v="$(median "${all[$op,floor]}")" 'BEGIN {print v * 1000}')")
  line+=$(printf '\t%.0f ns/fastfloor-op' "$(awk -v v="$(median "${all[$op,fastfloor]}")" 'BEGIN {print v * 1000}')")
  if [ "$with_azurite" = 1 ]; then
    line+=$(printf '\t%.0f ns/azurite-op' "$(awk -v v="$(median "${all[$op,azurite]}")" 'BEGIN {print v * 1000}')")
  fi
  printf '%s\t%s ×/floor\t%s ×/fastfloor\n' "$line" "$(median "${all[$op,ratio]}")" "$(median "${all[$op,fratio]}")"
done
echo "$me: logs and each run's figures (runs.jsonl) in $out"
