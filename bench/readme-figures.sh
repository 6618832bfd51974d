#!/usr/bin/env bash
# readme-figures.sh re-runs every command of the manual's "Measured" table
# (docs/architecture.md), as printed, from the repository's top directory,
# and prints each figure beside what its command prints now, the ratio and
# a verdict: a time or a ratio fails when it is over 1.5 times the
# page's figure, a size or an allocation count when it is off by more than
# 25%. An absolute time is judged only on the processor its row's cpu column
# names (this machine's is printed first): elsewhere it says "other CPU: not
# judged"; ratios measured in one run, sizes and counts are judged anywhere.
# Exit 0 when every figure passes, 1 when one fails, 2 when the table cannot
# be read. Run it before changing the table, on a machine doing nothing else.
#   bench/readme-figures.sh               every row
#   bench/readme-figures.sh -rows 6,7     some rows (1 is the table's first)
#   bench/readme-figures.sh -runs 3       each command 3 times, medians compared
#   bench/readme-figures.sh -list         the rows and their commands, nothing run
#   bench/readme-figures.sh -cpu NAME     judge as if on the processor NAME
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/readmefigures" ./bench/readmefigures # not go run, which turns every failing exit status into 1
"$bin/readmefigures" "$@"
