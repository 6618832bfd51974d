#!/usr/bin/env bash
# advise-times.sh times `tablestress advise SCENARIO --no-prove` (the
# judgement alone: every candidate at the horizon, no proof) on each ready
# scenario of scenarios/, one at a time, with the built binary. It prints
# each scenario's wall time, CPU time (user + system) and peak resident
# memory (from /usr/bin/time), the advice's exit status (0 recommended, 3
# recommended with exceptions, 99 infeasible: each is an answer), the load average before and after, and the
# slowest scenario. Each scenario's last line is in `go test -bench` form
# for bench/readme-figures.sh:
#   BenchmarkAdviseNoProve/SCENARIO  1  WALL ns/op  CPU ns/cpu  PEAK bytes/peak-rss
# which a Measured row's figure cell writes "24.1 s, 30.2 s per cpu,
# 310 MiB per peak-rss". Times are wall-clock work: run it on a quiet
# machine (the load average is printed beside them).
#   bench/advise-times.sh                       every scenario of scenarios/
#   bench/advise-times.sh notifications tenant-log   some of them
# Requires Go and /usr/bin/time (GNU time).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
me=$(basename "$0")
if [ ! -x /usr/bin/time ]; then
  echo "$me: needs GNU time at /usr/bin/time (apt-get install time)" >&2
  exit 2
fi
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in scenarios/*.yaml; do names+=("$(basename "$f" .yaml)"); done
fi
for n in "${names[@]}"; do
  if [ ! -f "scenarios/$n.yaml" ]; then
    echo "$me: no scenario $n: want a name of scenarios/*.yaml without .yaml, like notifications" >&2
    exit 2
  fi
done

go build -o bin/tablestress ./cmd/tablestress
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
cpu=$(awk -F': *' '/^model name/ && !n {n=$2} /^cpu family/ && !f {f=$2} /^model\t/ && !m {m=$2} END {printf "%s (family %s, model %s)", n, f, m}' /proc/cpuinfo)
echo "$me: cpu: $cpu, $(nproc) CPUs; load average before: $(loadavg)"

failed=0
for n in "${names[@]}"; do
  code=0
  /usr/bin/time -f '%e %U %S %M' -o "$out/time" \
    bin/tablestress advise "scenarios/$n.yaml" --no-prove --quiet >"$out/advice" 2>"$out/errs" || code=$?
  if [ "$code" -ne 0 ] && [ "$code" -ne 3 ] && [ "$code" -ne 99 ]; then
    echo "$me: advise scenarios/$n.yaml --no-prove exited $code:" >&2
    cat "$out/errs" >&2
    failed=1
    continue
  fi
  verdict=$(grep -m1 -E '^(recommended|recommended with exceptions|infeasible|withdrawn):' "$out/advice" | cut -c1-60 || true)
  # The last line of the file is GNU time's (a failing command adds one before it).
  tail -n1 "$out/time" | awk -v n="$n" -v c="$code" -v v="$verdict" '{
    wall = $1; cpu = $2 + $3; kb = $4
    printf "%-22s %6.1f s wall  %6.1f s CPU  %5.0f MiB peak  exit %d  %s\n", n, wall, cpu, kb / 1024, c, v
    printf "BenchmarkAdviseNoProve/%s\t1\t%.0f ns/op\t%.0f ns/cpu\t%.0f bytes/peak-rss\n", n, wall * 1e9, cpu * 1e9, kb * 1024
  }' | tee -a "$out/all"
done
echo "$me: load average after: $(loadavg)"
if [ -s "$out/all" ]; then
  grep -v '^Benchmark' "$out/all" | sort -k2 -n -r | head -n1 | awk '{printf "slowest: %s, %s s wall\n", $1, $2}'
fi
exit "$failed"
