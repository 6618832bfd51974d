#!/usr/bin/env bash
# test.sh runs the whole test suite: it installs the pinned Azurite (tools/azurite),
# the SDKs of the conformance suite (tools/sdk-js, Debian's Python SDKs) and
# Chromium, starts azurite-table in memory on a free loopback port, runs `go test -race ./...`
# with TABLESTRESS_AZURITE set to that instance's connection string, and stops
# Azurite however the tests end. Extra arguments are passed to `go test`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# apt_install WHAT CHECK PACKAGE... installs Debian packages for a test
# unless CHECK (a command) already succeeds; WHAT names them in messages.
apt_install() {
  local what=$1 check=$2
  shift 2
  if eval "$check" >/dev/null 2>&1; then return 0; fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test.sh: installing Debian's $* for $what"
    (apt-get install -y -q --no-install-recommends "$@" >/dev/null 2>&1 ||
      (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends "$@" >/dev/null 2>&1)) ||
      echo "test.sh: could not install $*; $what will say so" >&2
  else
    echo "test.sh: $* not installed and cannot be installed here; $what will skip outside CI" >&2
  fi
}

# The HTML report is tested in headless Chromium (Debian's chromium package).
apt_install "the HTML report test" "command -v chromium" chromium
# The SDK conformance suite (pkg/emulator/sdk_conformance_test.go) runs the
# Python SDKs of Debian's packages with /usr/bin/python3, and the
# JavaScript SDK pinned in tools/sdk-js/package-lock.json.
apt_install "the SDK conformance suite" "/usr/bin/python3 -c 'import azure.data.tables, azure.cosmosdb.table'" \
  python3-azure python3-azure-cosmosdb-table
sdkjs="$root/tools/sdk-js"
if [ ! -d "$sdkjs/node_modules/@azure/data-tables" ] || [ "$sdkjs/package-lock.json" -nt "$sdkjs/node_modules/.package-lock.json" ]; then
  echo "test.sh: installing the JavaScript SDK from tools/sdk-js/package-lock.json"
  npm ci --prefix "$sdkjs" --no-audit --no-fund --loglevel=error
fi

# --junit's XML is validated with xmllint (Debian's libxml2-utils) against
# the JUnit schemas pinned in tools/junit-schema/package-lock.json.
apt_install "the JUnit XML tests" "command -v xmllint" libxml2-utils
junitxsd="$root/tools/junit-schema"
if [ ! -f "$junitxsd/node_modules/.package-lock.json" ] || [ "$junitxsd/package-lock.json" -nt "$junitxsd/node_modules/.package-lock.json" ]; then
  echo "test.sh: installing the JUnit schemas from tools/junit-schema/package-lock.json"
  npm ci --prefix "$junitxsd" --no-audit --no-fund --loglevel=error
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
go test -race -count=1 -timeout 45m "$@" ./...
