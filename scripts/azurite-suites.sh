#!/usr/bin/env bash
# azurite-suites.sh runs Azurite's own table test suites (the files under
# tests/table of Microsoft's Azure/Azurite repository that test a running
# service) against `tablestress emulator` built from this checkout, then
# against the pinned Azurite (tools/azurite) to tell a problem of the
# suites' setup from a difference of the service, and prints "passed N of
# M" per suite file and in all, with each failing test and its error's
# first line. docs/conformance.md lists the failures Azure answers alike,
# with the source of Azure's answer.
#
# Nothing of Azurite is copied into this repository: the suites are read
# from a git directory of Azurite's repository (a bare clone is enough),
# whose HEAD (or REV) is extracted into a temporary directory and given
# its npm dependencies. scripts/azurite-suites/hook.cjs makes the suites'
# own servers start nothing, mux.cjs puts the service behind the port they
# expect, 127.0.0.1:11002, for HTTP and HTTPS alike (11003 terminates
# TLS), and reporter.cjs counts each file's tests.
#
# Usage: scripts/azurite-suites.sh [--only embedded|azurite] [--rev REV] GIT_DIR
# Requires: Go, Node 20 and npm, the npm registry for the suites'
# dependencies, and 127.0.0.1:11002-11003 free (one run at a time).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
here="$root/scripts/azurite-suites"
# shellcheck source=scripts/azurite.sh
. "$root/scripts/azurite.sh"

only="" rev=HEAD
while [ $# -gt 1 ]; do
  case $1 in
  --only) only=$2; shift 2 ;;
  --rev) rev=$2; shift 2 ;;
  *) break ;;
  esac
done
if [ $# -ne 1 ] || ! git --git-dir="$1" rev-parse --verify -q "$rev^{commit}" >/dev/null; then
  echo "usage: $0 [--only embedded|azurite] [--rev REV] GIT_DIR (a git directory of Azure/Azurite holding REV, default HEAD)" >&2
  exit 2
fi
case $only in "" | embedded | azurite) ;; *) echo "$0: --only takes embedded or azurite, not $only" >&2; exit 2 ;; esac
gitdir=$(cd "$1" && pwd)
commit=$(git --git-dir="$gitdir" rev-parse "$rev^{commit}")
if (exec 3<>/dev/tcp/127.0.0.1/11002) 2>/dev/null || (exec 3<>/dev/tcp/127.0.0.1/11003) 2>/dev/null; then
  echo "$0: 127.0.0.1:11002 or 11003 is in use; the suites need both (is another run going?)" >&2
  exit 1
fi

# The suite files that test a running service (not Azurite's own units,
# its configuration, its OAuth mode or its keep-alive settings).
suites="apis/table.batch.errorhandling apis/table.entity.apostrophe.azure-storage apis/table.entity.apostrophe.data-tables
  apis/table.entity.azure.data-tables apis/table.entity.issues apis/table.entity.query apis/table.entity.rest apis/table.entity
  apis/table.service apis/table apis/table.validation.rest auth/sas auth/tableCorsRequest"

work=${TMPDIR:-/tmp}/tablestress-azurite-suites
src="$work/azurite-$commit"
if [ ! -d "$src/node_modules" ]; then
  echo "$(basename "$0"): extracting Azurite $commit and installing its dependencies"
  rm -rf "$src" && mkdir -p "$src"
  git --git-dir="$gitdir" archive "$commit" | tar -x -C "$src"
  npm ci --prefix "$src" --ignore-scripts --no-audit --no-fund --loglevel=error
fi

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# run_against NAME PORT runs every suite file against the service on PORT.
run_against() {
  local name=$1 port=$2 out="$work/results-$1" passed=0 total=0
  rm -rf "$out" && mkdir -p "$out"
  node "$here/mux.cjs" 11002 "$port" "$src/tests/server.cert" "$src/tests/server.key" >"$out/mux.log" 2>&1 &
  pids+=($!)
  wait_listening 11002 "$!" "$out/mux.log"
  echo "== $name (127.0.0.1:$port), Azurite $commit"
  for s in $suites; do
    local n=${s//\//_}
    (cd "$src" && TS_NODE_TRANSPILE_ONLY=true TS_NODE_COMPILER_OPTIONS='{"rootDir":"."}' NODE_TLS_REJECT_UNAUTHORIZED=0 \
      timeout 600 npx mocha --require ts-node/register --require "$here/hook.cjs" --timeout 60000 --exit \
      --reporter "$here/reporter.cjs" --reporter-option "output=$out/$n.json" "tests/table/$s.test.ts" >"$out/$n.log" 2>&1) || true
    if [ ! -s "$out/$n.json" ]; then
      echo "$s: did not run (see $out/$n.log)"
      continue
    fi
    node -e '
      const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      console.log(`${process.argv[2]}: passed ${r.passed} of ${r.total}` + (r.pending ? ` (${r.pending} pending, not run)` : ""));
      for (const f of r.failed) console.log(`  failed: ${f.title}\n          ${f.error}`);
      process.stderr.write(`${r.passed} ${r.total}\n`);' "$out/$n.json" "$s" 2>"$out/$n.count"
    read -r p t <"$out/$n.count"
    passed=$((passed + p)) total=$((total + t))
  done
  echo "$name: passed $passed of $total"
  kill "${pids[-1]}" 2>/dev/null || true
  wait "${pids[-1]}" 2>/dev/null || true
}

if [ "$only" != azurite ]; then
  bin="$work/tablestress"
  (cd "$root" && go build -o "$bin" ./cmd/tablestress)
  port=$(free_port)
  "$bin" emulator --listen "127.0.0.1:$port" --model off >"$work/emulator.log" 2>&1 &
  pids+=($!)
  wait_listening "$port" "$!" "$work/emulator.log"
  run_against embedded "$port"
fi
if [ "$only" != embedded ]; then
  azurite_start
  trap 'azurite_stop; cleanup' EXIT
  run_against azurite "$azport"
fi
