#!/usr/bin/env bash
# virtual.sh runs what the virtual clock makes possible on one machine and
# prints, for each, the wall time it took, the virtual seconds it advanced
# per second of wall time, and the figures that show what it measured:
#   chat     tablestress advise bench/scenarios/chat.yaml (6,100 ops/s:
#            6,000 inserts/s with an index row each, and three questions),
#            proved at 1,000,000 entities with two CPU-bound processes
#            running beside it: the proof's verdict;
#   account  tablestress run scenarios/account-limit.yaml at twice its rate
#            (60,008 writes/s over 500 partitions, three accounts' load, with 2,000 workers to offer it)
#            for 60 s of virtual time: what the account's 20,000 requests/s
#            does to it (the throttled share, its status codes);
#   diurnal  tablestress run bench/scenarios/diurnal.yaml: an hour of a
#            ramp from 200 to 2,000 ops/s and back on hour buckets: the
#            partitions of each hour bucket.
# The figures of a virtual run are the model's, the same on any machine and
# under any load; the wall times are this machine's (with its load average
# printed before and after) and the CPU line says which.
#
#   bench/virtual.sh            # all three
#   bench/virtual.sh account    # one of them
# Requires Go and Node (for reading the JSON reports).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
me=$(basename "$0")
which=${1:-all}
go build -o bin/tablestress ./cmd/tablestress
tmpdir=$(mktemp -d)
out=$tmpdir
trap 'rm -rf -- "$tmpdir"' EXIT
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
cpu=$(awk -F': *' '/^model name/ && !n {n=$2} /^cpu family/ && !f {f=$2} /^model\t/ && !m {m=$2} END {printf "%s (family %s, model %s)", n, f, m}' /proc/cpuinfo)
echo "$me: cpu: $cpu, $(nproc) CPUs; load average before: $(loadavg)"

# wall OUT CMD... runs a command with its output to OUT and prints how
# long it took.
wall() {
  local log=$1 t0 t1 rc=0
  shift
  t0=$(date +%s.%N)
  "$@" >"$log" 2>&1 || rc=$?
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "  wall time: %.1f s, the seed phase included\n", b - a}'
  return $rc
}

# figures FILE prints a report's (or a compare's) clock, throughput and
# throttling, and its hour buckets.
figures() {
  node -e '
    const doc = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const r of doc.runs || [doc]) {
      const t = r.totals;
      console.log(`  ${r.scheme}: clock ${r.run.clock}; ${r.duration_s} s measured at ${r.run.virtual_per_wall.toFixed(2)} virtual s per wall s`);
      console.log(`    ${t.ops.toLocaleString("en")} operations (${Math.round(t.ops_per_sec).toLocaleString("en")}/s), ${t.requests.toLocaleString("en")} requests, throttled ${(100 * t.throttled / Math.max(t.requests, 1)).toFixed(1)}%, dropped ${t.dropped.toLocaleString("en")}`);
      console.log(`    status: ${Object.entries(t.status).map(([k, v]) => k + " ×" + v.toLocaleString("en")).join(", ")}`);
      const hours = {};
      for (const p of r.partitions) {
        const m = /_(\d{4}-\d\d-\d\d-\d\d)$/.exec(p.partition_key);
        if (m) hours[m[1]] = (hours[m[1]] || 0) + p.entities;
      }
      if (Object.keys(hours).length > 1)
        console.log(`    entities by hour bucket: ${Object.entries(hours).sort().map(([h, n]) => h + " " + n.toLocaleString("en")).join(", ")}`);
    }' "$1"
}

if [ "$which" = all ] || [ "$which" = chat ]; then
  echo "chat: advise bench/scenarios/chat.yaml, proved at 1,000,000 entities, two CPU-bound processes beside it"
  hogs=()
  for _ in 1 2; do
    sh -c 'while :; do :; done' &
    hogs+=($!)
  done
  rc=0
  wall "$out/chat.txt" bin/tablestress advise bench/scenarios/chat.yaml --proof-schemes recommended --quiet --proof-out "$out/chat.json" || rc=$?
  kill "${hogs[@]}"
  grep -E '^proof:|on a virtual clock' "$out/chat.txt" | sed 's/^/  /'
  figures "$out/chat.json"
  [ $rc -eq 0 ] || echo "  advise exited $rc"
fi
if [ "$which" = all ] || [ "$which" = account ]; then
  echo "account: run scenarios/account-limit.yaml at 60,008 ops/s for 60 s"
  wall /dev/null bin/tablestress run scenarios/account-limit.yaml --rate 60008 --duration 60s --workers 2000 --quiet --out "$out/account.json" || true
  figures "$out/account.json"
fi
if [ "$which" = all ] || [ "$which" = diurnal ]; then
  echo "diurnal: run bench/scenarios/diurnal.yaml (an hour, 200 to 2,000 ops/s and back)"
  wall /dev/null bin/tablestress run bench/scenarios/diurnal.yaml --quiet --out "$out/diurnal.json" || true
  figures "$out/diurnal.json"
fi
echo "$me: load average after: $(loadavg)"
