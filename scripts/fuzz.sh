#!/usr/bin/env bash
# fuzz.sh runs every native fuzz target of the repository for a fixed budget
# each (FUZZTIME, default 10s): the scenario decoder, key templates,
# distributions, thresholds, targets, the embedded service's $filter and
# $batch parsers, and the model and fault specs. A crash fails the script and
# leaves the failing input under the package's testdata/fuzz.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${FUZZTIME:-10s}
status=0
while IFS= read -r line; do
  file=${line%%:*}
  name=$(sed -E 's/^.*func (Fuzz[A-Za-z0-9_]+).*$/\1/' <<<"$line")
  pkg=./$(dirname "$file")
  echo "fuzz.sh: $pkg $name for $budget"
  if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$budget" "$pkg" >/tmp/fuzz.$$.log 2>&1; then
    cat /tmp/fuzz.$$.log
    status=1
  fi
done < <(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]+\(' pkg cmd | sort)
rm -f /tmp/fuzz.$$.log
exit $status
