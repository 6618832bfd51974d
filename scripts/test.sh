#!/usr/bin/env bash
# test.sh runs the test suite in two parts. `test.sh` (make test) runs every
# test but LONG_TESTS, the ones a contributor runs often; `test.sh --long`
# (make test-long) runs LONG_TESTS: the proofs at depth, the judge's and
# the advisor's checks over every ready scenario, the SDK conformance suite
# and the SDKs' Microsoft Entra ID test, the HTML report drawn in Chromium,
# the memory slope. Together they are the whole suite: a test is in exactly
# one of them. Each installs what its tests need (the pinned Azurite from
# tools/azurite for both; the SDKs of the conformance suite, tools/sdk-js and
# Debian's Python SDKs, and Chromium for the long one), starts azurite-table
# in memory on a free loopback port, runs the tests with TABLESTRESS_AZURITE
# set to that instance's connection string, and stops Azurite however the
# tests end. Other arguments are passed to `go test`.
#
# The tests run in two passes: `go test -race` for all but the tests named in
# NORACE_TESTS, then those without -race. Most of them drive the client, the
# embedded service and its model on a fake clock (synctest bubbles): their
# figures are arithmetic, exact whatever the machine, and CPU-bound, which
# the race detector multiplies several times over; the concurrency of the
# same code is raced by the wall-clock tests of the first pass. A test
# never falls between the passes: the first skips exactly what the second
# runs. Both go through internal/testsummary, which prints failures as go
# test does and ends with every skipped test and why, and the slowest tests.
#
# With CI set, nothing may be missing: a failed install fails the script, a
# test that needs Azurite, Node, the Python SDKs or Chromium fails rather
# than skip (internal/testenv), and so does any skip that is not opt-in.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

long=
if [ "${1:-}" = --long ]; then
  long=1
  shift
fi

# apt_install WHAT CHECK PACKAGE... installs Debian packages for a test
# unless CHECK (a command) already succeeds; WHAT names them in messages.
apt_install() {
  local what=$1 check=$2
  shift 2
  if eval "$check" >/dev/null 2>&1; then return 0; fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test.sh: installing Debian's $* for $what"
    if (apt-get install -y -q --no-install-recommends "$@" >/dev/null 2>&1 ||
      (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends "$@" >/dev/null 2>&1)) &&
      eval "$check" >/dev/null 2>&1; then
      return 0
    fi
    missing "could not install $*; $what will fail in CI and skip elsewhere"
  else
    missing "$* not installed and cannot be installed here (not root, or no apt-get); $what will fail in CI and skip elsewhere"
  fi
}

# missing MESSAGE reports something the tests need that is not there: under
# CI, where every test must run, it stops the script.
missing() {
  echo "test.sh: $1" >&2
  if [ -n "${CI:-}" ]; then
    echo "test.sh: CI is set: every test must run, so this is a failure" >&2
    exit 1
  fi
}

# --junit's XML is validated with xmllint (Debian's libxml2-utils) against
# the JUnit schemas pinned in tools/junit-schema/package-lock.json.
apt_install "the JUnit XML tests" "command -v xmllint" libxml2-utils
junitxsd="$root/tools/junit-schema"
if [ ! -f "$junitxsd/node_modules/.package-lock.json" ] || [ "$junitxsd/package-lock.json" -nt "$junitxsd/node_modules/.package-lock.json" ]; then
  echo "test.sh: installing the JUnit schemas from tools/junit-schema/package-lock.json"
  npm ci --prefix "$junitxsd" --no-audit --no-fund --loglevel=error ||
    missing "could not install the JUnit schemas (npm ci in tools/junit-schema); the JUnit XML tests will fail in CI and skip elsewhere"
fi

if [ -n "$long" ]; then
  # The HTML report is tested in headless Chromium (Debian's chromium package).
  apt_install "the HTML report test" "command -v chromium" chromium
  # The SDK conformance suite (pkg/emulator/sdk_conformance_test.go) runs the
  # Python SDKs of Debian's packages with /usr/bin/python3, and the
  # JavaScript SDK pinned in tools/sdk-js/package-lock.json.
  apt_install "the SDK conformance suite" "/usr/bin/python3 -c 'import azure.data.tables, azure.cosmosdb.table, azure.identity'" \
    python3-azure python3-azure-cosmosdb-table
  sdkjs="$root/tools/sdk-js"
  if [ ! -d "$sdkjs/node_modules/@azure/data-tables" ] || [ "$sdkjs/package-lock.json" -nt "$sdkjs/node_modules/.package-lock.json" ]; then
    echo "test.sh: installing the JavaScript SDK from tools/sdk-js/package-lock.json"
    npm ci --prefix "$sdkjs" --no-audit --no-fund --loglevel=error ||
      missing "could not install the JavaScript SDK (npm ci in tools/sdk-js); the SDK conformance suite will fail in CI and skip elsewhere"
  fi
fi

# The GitHub workflows (.github/workflows: the project's CI and the recipe)
# are linted with the pinned actionlint, which runs Debian's shellcheck on
# their scripts when it is installed.
apt_install "actionlint's check of the workflows' scripts" "command -v shellcheck" shellcheck
go run github.com/rhysd/actionlint/cmd/actionlint@v1.7.12

# shellcheck source=scripts/azurite.sh
. "$root/scripts/azurite.sh"
azurite_start

go vet ./...

# NORACE_TESTS: the top-level tests that run without -race (see above):
# the tests of a run in a synctest bubble of pkg/workload (bubble_test.go) and of
# cmd/tablestress (advise's proofs, bubble_test.go; the manual's commands,
# manual_exec_test.go), the runs on the product's virtual clock (the ready
# scenarios' outcomes, advise's proofs, TestVirtualRunsAreByteIdentical:
# their goroutines run one at a time, so there is nothing to race), and
# internal/soak's memory slope (the race detector's bookkeeping is not the
# product's memory, and it would slow the two minutes' work). A test
# missing here runs under -race, slowly; one named here that no longer
# exists is simply not found. Also here: the judge's checks against the
# exact model of the seeded rows (pkg/judge, the tests that call
# checkAgainstModel) and of a filter's selectivity against the rows, and
# the proof of the lifetime law: arithmetic in one goroutine, or a run on
# the virtual clock, nothing to race and several times slower under the
# detector. And the text's fit to a terminal (keys, run and compare on
# the virtual clock, printed at 100 and 60 columns), and advise's
# repeatability, proof scenario and proof window: arithmetic, whose
# judging on both cores TestAheadMatchesSerial races in make test-long
# (TestKeysLabels took 98 s under the detector; the slowest of its keys
# commands, multi-tenant's, takes 4.5 s without it).
NORACE_TESTS='^(TestMemoryDoesNotGrow|TestReadyScenarioOutcomes|TestFindHotPartitionLimit|TestHotPartitionThrottledToTarget|TestAppendOnlyThrottledAtRangePartition|TestSeedLimitsKeepUnderTheTargets|TestSeedLoadsInProcess|TestTargetDiesStopsRunOnTime|TestReconnectCountsTheGap|TestAbortOnFailStopsAtFirstTick|TestReadyScenarioQuestions|TestDeniedWriteStopsRunAtOnce|TestQuestionRequestUnitsCountOnce|TestStopWatcherEndsWindowAndCancelsAfterGrace|TestPhaseTickerTicksEachSecond|TestPhaseTickerStopsWhenTargetDown|TestPhaseTickerRecordsOutageWithReconnect|TestPhaseTickerAbortsOnceAtFailingTick|TestAdviseProvesReadyScenarios|TestAdviseInfeasible|TestAdviseProofFails|TestFanOutAsksItsBucketsAtOnce|TestManualCommands|TestCompareShowsAQuestionThatAlwaysFails|TestRunOutOfWorkersDropsAShareOfWhatWasOffered|TestProofHoldsTheGrowthLaw|TestOpenPoolGrowsToTheLoad|TestQuestionsCutShortByTheEndAreUnfinished|TestAdviseProofDoesNotCheckUnfinishedQuestions|TestRetryStoppedByTheEndLeavesTheQuestionUnfinished|TestVirtualRunsAreByteIdentical|TestCompareJSONSummarisesPartitions|TestSeededAgreesWithTheModel|TestLifetimeAgreesWithTheModel|TestRowKeyPrefixAgreesWithTheModel|TestWindowsEndNow|TestFilteredScanReturnsItsSelectivity|TestProofHoldsTheLifetimeLaw|TestKeysLabels|TestOutputFitsColumns|TestLiveLineFitsTerminal|TestAdviseRepeatable|TestProofValueIsTheProofFile|TestProofWindowCrossesAnIndexBucket)$'
# LONG_TESTS: the top-level tests of `make test-long` (see above): those
# that take over a minute of this 2-core machine in `go test -json`'s
# timings (internal/testsummary prints the slowest), and those that need
# the SDKs or Chromium installed. They are the proofs of the
# ready scenarios at depth and of the growth and lifetime laws
# (cmd/tablestress), the
# judge's checks against the exact model and at depth over every ready
# scenario (pkg/judge), the advisor's designs of every ready scenario and
# its workers against the serial advice (pkg/advise), the SDK conformance
# suite (pkg/emulator) and the SDKs' Entra ID test (cmd/tablestress),
# which need the SDKs installed, the HTML report drawn in Chromium
# (pkg/report), the ready scenarios' outcomes on a fake clock
# (pkg/workload) and the memory slope (internal/soak); and, from the
# slowest tests testsummary printed of `make test` (41 min 34 s at a load
# average of 9 to 15), every command of the manual run (cmd/tablestress
# TestManualCommands, 1,086 s of it), the key index against the tree at
# scale (pkg/emulator/internal/store, 210 s), the virtual runs' byte
# identity (cmd/tablestress, 121 s), the table's contents and the
# accounting against the server's counts (pkg/workload, 103 s and 72 s)
# and the summarised JSON's size (pkg/report, 64 s). `make test` skips
# exactly these, `make test-long` runs exactly these.
LONG=(TestAdviseProvesReadyScenarios TestProofHoldsTheGrowthLaw TestProofHoldsTheLifetimeLaw TestEmulatorEntraSDKs
  TestSeededAgreesWithTheModel TestWalkAtDepthReadsTheMonthsTheRunsTableHolds
  TestReadyScenarioDesigns TestNoScanOverTheBoundWhenAnotherServes TestAheadMatchesSerial
  TestSDKConformance
  TestHTMLDrawsInChromium TestHTMLOfABigCompareDrawsInChromium TestHTMLOfAChargedRunDrawsInChromium
  TestRequestUnitsHTMLDraws TestQuestionsSideBySide
  TestReadyScenarioOutcomes TestMemoryDoesNotGrow
  TestManualCommands TestKeyIndexFollowsTheTree TestVirtualRunsAreByteIdentical
  TestTableContentsMatchCounts TestAccountingMatchesServer TestSummarisedJSONIsSizedToWhatItSays)
LONG_TESTS="^($(IFS='|'; echo "${LONG[*]}"))\$"
# The long tests that run without -race: those of LONG named in NORACE_TESTS.
longNorace=()
for t in "${LONG[@]}"; do
  if [[ "$t" =~ $NORACE_TESTS ]]; then longNorace+=("$t"); fi
done
LONG_NORACE_TESTS="^($(IFS='|'; echo "${longNorace[*]}"))\$"

# packages_of REGEX prints the packages (./dir) whose test files declare a
# top-level test REGEX names, so a pass builds only the packages it runs
# tests of (every package again, with or without the detector, took minutes
# of compiling on this 2-core machine).
packages_of() {
  local names=${1#^(}
  names=${names%)\$}
  grep -rlE --include='*_test.go' --exclude-dir=node_modules --exclude-dir=.git "^func ($names)\\(" . |
    xargs -r -n1 dirname | sort -u
}
noracePkgs=$(packages_of "$NORACE_TESTS")
longPkgs=$(packages_of "$LONG_TESTS")
longNoracePkgs=$(packages_of "$LONG_NORACE_TESTS")

go build -o bin/testsummary ./internal/testsummary
ci=()
if [ -n "${CI:-}" ]; then ci=(-ci); fi
{
  rc=0
  if [ -z "$long" ]; then
    go test -race -json -count=1 -timeout 45m -skip "$NORACE_TESTS|$LONG_TESTS" "$@" ./... || rc=$?
    # shellcheck disable=SC2086 # one package a word
    go test -json -count=1 -timeout 45m -run "$NORACE_TESTS" -skip "$LONG_TESTS" "$@" $noracePkgs || rc=$?
  else
    # shellcheck disable=SC2086 # one package a word
    go test -race -json -count=1 -timeout 60m -run "$LONG_TESTS" -skip "$NORACE_TESTS" "$@" $longPkgs || rc=$?
    # shellcheck disable=SC2086 # one package a word
    go test -json -count=1 -timeout 60m -run "$LONG_NORACE_TESTS" "$@" $longNoracePkgs || rc=$?
  fi
  exit $rc
} 2>&1 | bin/testsummary "${ci[@]}" -module "$(go list -m)"
