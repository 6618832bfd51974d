#!/usr/bin/env bash
# fuzz.sh runs every native fuzz target of the repository for a fixed budget
# each: the scenario decoder, key templates, distributions, thresholds,
# targets, the embedded service's $filter and $batch parsers, the model and
# fault specs, and those under internal/ (the service's key order among
# them). A crash fails the script and leaves the failing input
# under the package's testdata/fuzz.
#
# The budget is a count of executions (FUZZEXECS, default 200000) unless
# FUZZTIME sets a duration. Go 1.26's fuzzing coordinator can report a
# spurious "context deadline exceeded" when a duration budget ends while a
# starved worker is mid-run (go.dev/issue/75804, fixed in Go 1.27); a count
# has no deadline to race, so it is the default and what CI uses.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${FUZZTIME:-${FUZZEXECS:-200000}x}
status=0
while IFS= read -r line; do
  file=${line%%:*}
  name=$(sed -E 's/^.*func (Fuzz[A-Za-z0-9_]+).*$/\1/' <<<"$line")
  pkg=./$(dirname "$file")
  echo "fuzz.sh: $pkg $name for $budget"
  if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$budget" -timeout 10m "$pkg" >/tmp/fuzz.$$.log 2>&1; then
    cat /tmp/fuzz.$$.log
    status=1
  fi
done < <(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]+\(' pkg cmd internal | sort)
rm -f /tmp/fuzz.$$.log
exit $status
