#!/usr/bin/env bash
# throughput.sh measures the load one machine offers to the embedded service
# reached in process (the default target), against three targets:
#   read    bench/scenarios/throughput-read.yaml: 40,000 point reads/s of
#           1 KiB entities for 60 s, model off, the default workers: under 1%
#           dropped;
#   write   bench/scenarios/throughput-write.yaml: 15,000 inserts/s, each
#           with its row in one index table (30,000 requests/s), model off:
#           under 1% dropped;
#   advise  tablestress advise bench/scenarios/chat.yaml (6,100 ops/s:
#           6,000 inserts/s with an index row each, and three questions),
#           proved on the embedded service: the proof reaches its verdict,
#           no scheme's run dropping 1% or more for want of CPU or workers.
# For read and write it prints the operations offered (rate × measured
# time), achieved and dropped, the CPU per operation of tablestress's
# process (client and service together, the report's client section) and
# the share of the cores it kept busy; for advise, the same for every run
# of the proof and the proof's verdict. Beside them, measured in the same
# run, is the ceiling of the Azure SDK alone on this machine
# (bench/bareclient -canned: aztables answered by a canned copy of the
# service's own answer, Shared Key signing and JSON decoding included, 8
# goroutines): its operations/s and CPU per operation (per request: an
# insert with an index row is two of them). The gap between the two is what
# tablestress and its service cost.
#
# Throughput is wall-clock work: it needs a quiet machine. The script
# prints the load average before and after; with other work on the cores
# the run gets less of them, and its figures say so (rerun when the load
# average is low). The last line is in `go test -bench` form for
# bench/readme-figures.sh:
#   BenchmarkThroughput/TARGET  OPS  CPU ns/op  SDK ns/sdk-op  RATIO ×/sdk  DROPPED %dropped
#
#   bench/throughput.sh read
#   DURATION=20s bench/throughput.sh write     # a shorter run
#   WORKERS=64 bench/throughput.sh read        # other than the default workers
# Requires Go and Node (for reading the JSON reports).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
me=$(basename "$0")
target=${1:-}
case $target in
read) scen=bench/scenarios/throughput-read.yaml op=read per=1 ;;
write) scen=bench/scenarios/throughput-write.yaml op=insert per=2 ;;
advise) scen=bench/scenarios/chat.yaml op=insert per=2 ;;
*)
  echo "$me: want the target to measure: read, write or advise (usage: $me read|write|advise)" >&2
  exit 2
  ;;
esac

go build -o bin/tablestress ./cmd/tablestress
go build -o bin/bareclient ./bench/bareclient
out=$(mktemp -d)
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
cpu=$(awk -F': *' '/^model name/ && !n {n=$2} /^cpu family/ && !f {f=$2} /^model\t/ && !m {m=$2} END {printf "%s (family %s, model %s)", n, f, m}' /proc/cpuinfo)
echo "$me $target: cpu: $cpu, $(nproc) CPUs; load average before: $(loadavg)"

# The SDK alone, in the same run.
sdk=$(bin/bareclient -canned -op "$op" -workers 8 -duration "${SDK_DURATION:-10s}" -scenario "$scen")
node -e '
  const s = JSON.parse(process.argv[1]), per = +process.argv[2];
  const ops = s.ops / s.seconds;
  console.log(`SDK alone (aztables over a canned answer, 8 goroutines): ${Math.round(ops).toLocaleString("en-US")} ${s.op === "read" ? "point reads" : "inserts"}/s, ` +
    `${s.cpu_us_per_op.toFixed(1)} µs of CPU per request` + (per > 1 ? ` (${(per * s.cpu_us_per_op).toFixed(1)} µs per insert with its index row)` : ""));
' "$sdk" "$per"

flags=()
[ -n "${DURATION:-}" ] && flags+=(--duration "$DURATION")
[ -n "${WORKERS:-}" ] && flags+=(--workers "$WORKERS")

# summarize REPORT... prints each run's offered, achieved and dropped
# operations and CPU, and sets the last line's figures (summed over runs).
summarize() {
  node -e '
    const per = +process.argv[1], sdk = JSON.parse(process.argv[2]);
    let ops = 0, cpu = 0, offered = 0, dropped = 0;
    for (const f of process.argv.slice(3)) {
      for (const r of [].concat(require(f).runs || require(f))) {
        const t = r.totals, c = r.client || {};
        const off = t.ops + t.dropped, cpuUs = (c.cpu_us_per_op || 0);
        console.log(`${r.scheme}: offered ${off.toLocaleString("en-US")} ops (${Math.round(off / r.duration_s).toLocaleString("en-US")}/s for ${r.duration_s.toFixed(1)} s), ` +
          `achieved ${t.ops.toLocaleString("en-US")} (${Math.round(t.ops_per_sec).toLocaleString("en-US")}/s, ${t.requests.toLocaleString("en-US")} requests), ` +
          `dropped ${t.dropped.toLocaleString("en-US")} (${(100 * t.dropped / Math.max(off, 1)).toFixed(2)}%)`);
        console.log(`  CPU per operation, client and service together: ${cpuUs.toFixed(1)} µs ` +
          `(${(cpuUs / (per * sdk.cpu_us_per_op)).toFixed(2)}× the SDK alone); the process kept ${(100 * (c.busy || 0)).toFixed(0)}% of its ${c.cores} cores busy` +
          (c.machine_busy !== undefined ? `, the machine ${(100 * c.machine_busy).toFixed(0)}% of its CPUs` : "") + `; p50 ${t.latency_ms.p50} ms, p99 ${t.latency_ms.p99} ms`);
        ops += t.ops; offered += off; dropped += t.dropped; cpu += cpuUs * t.ops;
      }
    }
    const cpuOp = cpu / Math.max(ops, 1);
    console.log(`RESULT ${ops} ${Math.round(cpuOp * 1000)} ${Math.round(per * sdk.cpu_us_per_op * 1000)} ${(cpuOp / (per * sdk.cpu_us_per_op)).toFixed(3)} ${(100 * dropped / Math.max(offered, 1)).toFixed(3)}`);
  ' "$per" "$@"
}

status=0
if [ "$target" = advise ]; then
  bin/tablestress advise "$scen" --json --quiet --proof-out "$out/proof.json" >"$out/advise.json" 2>"$out/advise.txt" || status=$?
  node -e '
    const a = require(process.argv[1]);
    if (!a.proof) { console.log("advise ran no proof: " + (a.infeasible ? a.infeasible.reason : "see " + process.argv[2])); process.exit(0); }
    console.log(`proof: ${a.proof.ok ? "ok" : "failed"} (${a.proof.duration_s} s a scheme; ${a.proof.duration_why || ""})`);
    for (const f of a.proof.failures || []) console.log("  failure: " + f);
    if (a.withdrawn) console.log("withdrawn: " + a.withdrawn.name);
  ' "$out/advise.json" "$out/advise.txt"
  if [ ! -s "$out/proof.json" ]; then
    echo "$me: advise wrote no proof reports (exit $status):" >&2
    cat "$out/advise.txt" >&2
    exit 1
  fi
  reports=("$out/proof.json")
else
  bin/tablestress run "$scen" --quiet "${flags[@]}" --out "$out/run.json" >"$out/run.txt" 2>&1 || status=$?
  if [ ! -s "$out/run.json" ]; then
    echo "$me: the run failed (exit $status):" >&2
    cat "$out/run.txt" >&2
    exit 1
  fi
  reports=("$out/run.json")
fi
summary=$(summarize "$sdk" "${reports[@]}")
grep -v '^RESULT ' <<<"$summary"
read -r _ ops cpuns sdkns ratio droppct < <(grep '^RESULT ' <<<"$summary")
echo "load average after: $(loadavg); reports in $out"
printf 'BenchmarkThroughput/%s\t%s\t%s ns/op\t%s ns/sdk-op\t%s ×/sdk\t%s %%dropped\n' "$target" "$ops" "$cpuns" "$sdkns" "$ratio" "$droppct"
exit "$status"
