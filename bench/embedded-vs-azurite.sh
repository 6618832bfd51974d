#!/usr/bin/env bash
# embedded-vs-azurite.sh runs the same closed-loop scenarios through the same
# client against the embedded service (its own process, model off, as
# Azurite has none) and against the pinned Azurite, and prints ops/s side by
# side; then it seeds 1,000,000 entities of 256 bytes into the embedded
# service (in-process, the default target) and prints the time taken and
# the peak resident memory of the tablestress process (bench/seed.sh). Last it runs
# bench/server-cpu.sh: the server CPU time per point read and per insert of
# the embedded service, of Azurite and of a bare net/http handler (the
# floor) and the same answers from fasthttp (fastfloor), under the bare SDK
# client, in interleaved rounds (RUNS, default 5).
#   bench/embedded-vs-azurite.sh
#   DURATION=30s bench/embedded-vs-azurite.sh     # longer measurements
#   ENTITIES=10000000 bench/embedded-vs-azurite.sh  # seed ten million
#   RUNS=7 CPU_DURATION=8s bench/embedded-vs-azurite.sh   # server-cpu.sh: more and longer rounds
# Requires Go, Node and npm (Azurite is installed from tools/azurite).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
duration=${DURATION:-15s}
me=$(basename "$0")

go build -o bin/tablestress ./cmd/tablestress
# shellcheck source=scripts/azurite.sh
. "$root/scripts/azurite.sh"
azurite_start

out=$(mktemp -d)
emport=$(free_port)
bin/tablestress emulator --listen "127.0.0.1:$emport" --model off >"$out/emulator.log" 2>&1 &
empid=$!
cleanup() {
  kill "$empid" 2>/dev/null || true
  wait "$empid" 2>/dev/null || true
  azurite_stop
}
trap cleanup EXIT
wait_listening "$emport" "$empid" "$out/emulator.log"
embedded=$(devstore_conn "$emport")

# ops_per_sec FILE prints the totals' ops/s of a tablestress JSON report.
ops_per_sec() {
  node -e 'const r=require(process.argv[1]); console.log(r.totals.ops_per_sec.toFixed(0))' "$1"
}

# cpu_ms PID prints the CPU time (user + system) PID has used, in ms.
hz=$(getconf CLK_TCK)
cpu_ms() {
  awk -v hz="$hz" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$1/stat"
}

# Both figures matter on a small machine: ops/s is what one client gets
# (the client and a multi-threaded server share the cores), server CPU per
# operation is what the service itself costs (Azurite runs on one thread).
printf '%-11s %14s %14s %7s   %s\n' operation embedded azurite ratio "server CPU per operation (embedded / azurite)"
for op in point-read insert; do
  declare -A cpu
  for target in embedded azurite; do
    conn=$embedded pid=$empid
    [ "$target" = azurite ] && conn=$TABLESTRESS_AZURITE pid=$azpid
    before=$(cpu_ms "$pid")
    if ! bin/tablestress run "bench/scenarios/$op.yaml" --target "$conn" --duration "$duration" \
      --quiet --out "$out/$op-$target.json" >"$out/$op-$target.txt" 2>&1; then
      echo "$me: $op against $target failed:" >&2
      cat "$out/$op-$target.txt" >&2
      exit 1
    fi
    # The server's CPU over the whole command (its small seed and the
    # warm-up included, alike on both targets) per measured operation.
    cpu[$target]=$(($(cpu_ms "$pid") - before))
  done
  e=$(ops_per_sec "$out/$op-embedded.json")
  a=$(ops_per_sec "$out/$op-azurite.json")
  node -e '
    const [op, e, a, ce, ca, fe, fa] = process.argv.slice(1);
    const n = (f) => require(f).totals.ops;
    const pe = ce * 1000 / n(fe), pa = ca * 1000 / n(fa);
    console.log(`${op.padEnd(11)} ${(e + "/s").padStart(14)} ${(a + "/s").padStart(14)} ${(e / Math.max(a, 1)).toFixed(1).padStart(6)}×   ${pe.toFixed(0)} µs / ${pa.toFixed(0)} µs (${(pa / pe).toFixed(1)}×)`);
  ' "$op" "$e" "$a" "${cpu[embedded]}" "${cpu[azurite]}" "$out/$op-embedded.json" "$out/$op-azurite.json"
done

# Seeding: the in-process embedded service, as `tablestress seed` uses by
# default (bench/seed.sh; ENTITIES=10000000 for ten million).
bench/seed.sh --entities "${ENTITIES:-1000000}"
echo "$me: reports in $out"

# The exact figures: server CPU over the measured operations only, beside
# the floor, measured with the servers above stopped.
cleanup
trap - EXIT
echo
DURATION=${CPU_DURATION:-5s} "$root/bench/server-cpu.sh"
