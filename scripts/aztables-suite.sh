#!/usr/bin/env bash
# aztables-suite.sh runs the Azure SDK for Go's own aztables live tests
# (github.com/Azure/azure-sdk-for-go/sdk/data/aztables, the module the
# Go module proxy serves, which holds its *_test.go files) against
# `tablestress emulator --model off` built from this checkout, started on a
# free loopback port, and prints pass or fail per test and, for each
# failure that is not the emulator's, why (docs/conformance.md lists them
# with their sources).
#
# The suite picks live mode from AZURE_RECORD_MODE=live (no test proxy)
# and its account from TABLES_STORAGE_ACCOUNT_NAME and
# TABLES_PRIMARY_STORAGE_ACCOUNT_KEY; its storage endpoint is hard-wired to
# https://ACCOUNT.table.core.windows.net/ (storageURI in
# recording_helpers_test.go), which the script's copy of the module points
# at the emulator, and its Cosmos DB endpoint at a closed loopback port, so
# that nothing leaves this machine. It runs each test's "storage" variant
# (shared key over HTTP); the token-credential variants ("storage_tc")
# need HTTPS and an identity (tablestress emulator --tls --entra) and the
# Cosmos DB ones another service, and are not run.
#
# Usage: scripts/aztables-suite.sh [--version V] [-run REGEXP]
# Requires: Go and the Go module proxy (for the module and its test
# dependencies); a loopback port.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=v1.4.1 run='^Test'
while [ $# -gt 0 ]; do
  case $1 in
  --version) version=$2; shift 2 ;;
  -run) run=$2; shift 2 ;;
  *) echo "usage: $0 [--version V] [-run REGEXP]" >&2; exit 2 ;;
  esac
done

work=${TMPDIR:-/tmp}/tablestress-aztables-suite
mod=github.com/Azure/azure-sdk-for-go/sdk/data/aztables
src=$(cd "$root" && go mod download -json "$mod@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ -z "$src" ] || [ ! -f "$src/recording_helpers_test.go" ]; then
  echo "$0: the module $mod@$version has no recording_helpers_test.go where go mod download put it ($src)" >&2
  exit 1
fi
suite="$work/aztables-$version"
rm -rf "$suite" && mkdir -p "$work" && cp -r "$src" "$suite" && chmod -R u+w "$suite"
# Every endpoint of Azure the tests name becomes the emulator's (path-style,
# the account as the path's first segment: ACCOUNT-secondary too) or, for
# Cosmos DB, a closed loopback port; the tests are checked for any other.
for f in "$suite"/*_test.go; do
  sed -i 's|fmt.Sprintf("https://%[sv].table.core.windows.net/", accountName|fmt.Sprintf(tablestressURL, accountName|;
    s|fmt.Sprintf("https://%[sv].table.cosmos.azure.com/", accountName|fmt.Sprintf("http://127.0.0.1:9/%s/", accountName|' "$f"
done
# (example_test.go's examples have no output to check: go test compiles them, never runs them.)
if grep -n 'Sprintf("https://%[sv]\.table\.' "$suite"/*_test.go | grep -v '/example_test.go:'; then
  echo "$0: the tests above name an Azure endpoint this script does not point at the emulator" >&2
  exit 1
fi
cat >"$suite/zz_tablestress_test.go" <<'EOF'
package aztables

import "os"

// tablestressURL is the emulator's endpoint with %s for the account
// (scripts/aztables-suite.sh).
var tablestressURL = os.Getenv("TABLESTRESS_SUITE_URL")
EOF

bin="$work/tablestress"
(cd "$root" && go build -o "$bin" ./cmd/tablestress)
log="$work/emulator.log"
# On 10002 when it is free: TestAzurite looks for a service there.
port=10002
if (exec 3<>/dev/tcp/127.0.0.1/10002) 2>/dev/null; then port=0; fi
"$bin" emulator --tablePort $port --model off >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do
  grep -q '^connection string: ' "$log" && break
  kill -0 $pid 2>/dev/null || { echo "$0: the emulator exited:" >&2; cat "$log" >&2; exit 1; }
  sleep 0.1
done
url=$(sed -n 's/^tablestress emulator listening on \(.*\)$/\1/p' "$log")
[ -n "$url" ] || { echo "$0: the emulator did not start:" >&2; cat "$log" >&2; exit 1; }
echo "aztables $version's storage tests against tablestress emulator at $url"

# The development account's key is public and documented (not a secret).
key='Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='
(cd "$suite" && AZURE_RECORD_MODE=live TABLESTRESS_SUITE_URL="${url%/devstoreaccount1}/%s/" TABLES_STORAGE_ACCOUNT_NAME=devstoreaccount1 \
  TABLES_PRIMARY_STORAGE_ACCOUNT_KEY="$key" TABLES_COSMOS_ACCOUNT_NAME=none \
  go test -count=1 -json -run "$run/^storage\$" -skip Cosmos . >"$work/results.json" 2>"$work/go-test.log") || true
[ -s "$work/results.json" ] || { echo "$0: go test printed nothing:" >&2; cat "$work/go-test.log" >&2; exit 1; }

python3 "$root/scripts/aztables-suite/report.py" "$work/results.json"
