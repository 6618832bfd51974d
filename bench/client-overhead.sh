#!/usr/bin/env bash
# client-overhead.sh measures what tablestress adds around the SDK's call: the
# CPU time per point read of tablestress's own client (a closed-loop run of
# bench/scenarios/point-read-1k.yaml, 32 workers, 1 KiB entities) beside the
# CPU time per point read of the Azure SDK for Go alone (bench/bareclient: 32
# goroutines calling GetEntity), both against the same standalone embedded
# service (its own process, model off) and the same seeded table, measured
# in one run.
#
# The bare client measures its own CPU over its measuring loop only.
# tablestress's figure is the difference of a short and a long run (CPU time
# and operations), so its start-up, seeding check and report cost cancel out.
# RUNS rounds are interleaved; the median ratio is printed, and last a line in
# `go test -bench` form (BenchmarkClientOverhead/point-read OPS TABLESTRESS
# ns/op SDK ns/sdk-op RATIO ×/sdk) for bench/readme-figures.sh.
#   bench/client-overhead.sh
#   RUNS=5 SHORT=3s LONG=13s bench/client-overhead.sh
#   BARE_GOGC=100 bench/client-overhead.sh   # the bare loop with Go's default collector
#   BARE_GOGC=400 bench/client-overhead.sh   # tablestress's least percent, without its headroom
# Requires Go and Node (for reading the JSON reports).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=${RUNS:-3}
short=${SHORT:-3s}
long=${LONG:-13s}
scen=bench/scenarios/point-read-1k.yaml
me=$(basename "$0")
# The bare loop runs with the collector allowance tablestress gives itself
# as a client of a remote service (cmd/tablestress/gc.go: the heap may grow
# by 512 MiB between collections, GOGC raised up to 2000 while the live heap
# is small): for the bare loop, whose live heap is well under the 25.6 MiB
# at which 512 MiB is 2000%, that is GOGC=2000. So the ratio is what
# tablestress's code adds, not a difference of GC settings.
bare_gogc=${BARE_GOGC:-2000}

go build -o bin/tablestress ./cmd/tablestress
go build -o bin/bareclient ./bench/bareclient
# shellcheck source=scripts/azurite.sh
. "$root/scripts/azurite.sh" # free_port, wait_listening, devstore_conn

out=$(mktemp -d)
port=$(free_port)
bin/tablestress emulator --listen "127.0.0.1:$port" --model off >"$out/emulator.log" 2>&1 &
empid=$!
trap 'kill "$empid" 2>/dev/null || true; wait "$empid" 2>/dev/null || true' EXIT
wait_listening "$port" "$empid" "$out/emulator.log"
conn=$(devstore_conn "$port")
table=tsclientoverhead
bin/tablestress seed "$scen" --target "$conn" --table "$table" --keep-table --quiet >"$out/seed.txt" 2>&1 ||
  { echo "$me: seeding failed:" >&2; cat "$out/seed.txt" >&2; exit 1; }

# tscpu DURATION NAME runs tablestress for DURATION on the seeded table and
# prints "CPU_MS OPS".
tscpu() {
  local t
  t=$( { TIMEFORMAT='%U %S'; time bin/tablestress run "$scen" --target "$conn" --table "$table" --skip-seed \
    --duration "$1" --quiet --out "$out/$2.json" >"$out/$2.txt" 2>&1; } 2>&1 ) ||
    { echo "$me: tablestress failed:" >&2; cat "$out/$2.txt" >&2; exit 1; }
  node -e 'const [u, s, f] = process.argv.slice(1); console.log(Math.round((+u + +s) * 1000), require(f).totals.ops)' $t "$out/$2.json"
}

printf '%-5s %22s %22s %8s\n' round "SDK alone (µs/op)" "tablestress (µs/op)" ratio
ratios=()
all_bare="" all_ts="" all_ops=""
for r in $(seq 1 "$runs"); do
  bare=$(GOGC=$bare_gogc bin/bareclient -conn "$conn" -table "$table" -scenario "$scen" -duration "$long")
  read -r cs os < <(tscpu "$short" "short-$r")
  read -r cl ol < <(tscpu "$long" "long-$r")
  line=$(node -e '
    const b = JSON.parse(process.argv[1]); const [cs, os, cl, ol] = process.argv.slice(2).map(Number);
    const ts = (cl - cs) * 1000 / (ol - os);
    console.log(`${b.cpu_us_per_op.toFixed(1)} ${ts.toFixed(1)} ${(ts / b.cpu_us_per_op).toFixed(3)} ${b.ops} ${ol - os}`);
  ' "$bare" "$cs" "$os" "$cl" "$ol")
  read -r b t ratio bops tops <<<"$line"
  printf '%-5s %22s %22s %7s×   (%s and %s operations)\n' "$r" "$b" "$t" "$ratio" "$bops" "$tops"
  ratios+=("$ratio")
  all_bare+="$b "
  all_ts+="$t "
  all_ops+="$tops "
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
med=$(median "${ratios[*]}")
spread=$(printf '%s\n' "${ratios[@]}" | sort -g | awk 'NR==1 {lo=$1} {hi=$1} END {print lo "–" hi}')
echo "median ratio tablestress / SDK alone: ${med}× (rounds ${spread}; reports in $out)"
# In `go test -bench` form for bench/readme-figures.sh; a Measured row's figure
# cell writes "98 µs, 90 µs per sdk-op, 1.08× per sdk".
printf 'BenchmarkClientOverhead/point-read\t%s\t%.0f ns/op\t%.0f ns/sdk-op\t%s ×/sdk\n' \
  "$(median "$all_ops" | cut -d. -f1)" "$(awk -v v="$(median "$all_ts")" 'BEGIN {print v * 1000}')" \
  "$(awk -v v="$(median "$all_bare")" 'BEGIN {print v * 1000}')" "$med"
